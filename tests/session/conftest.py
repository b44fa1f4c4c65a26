"""Every session test gets its own game index and working directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from duskfall.store.paths import DB_ENV


@pytest.fixture(autouse=True)
def private_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "games.db"
    monkeypatch.setenv(DB_ENV, str(db))
    monkeypatch.chdir(tmp_path)
    return db
