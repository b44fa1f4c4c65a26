"""A logged werewolf-12 game of heuristic bots for the lab's tests, with its own game index."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from duskfall.session import GameSetup, run_game
from duskfall.store.paths import use_db

PARENT_SEED = 3


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game index of the test's own (indexing is on)."""
    db = tmp_path / "games.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    use_db(db)
    return db


@pytest.fixture
def parent(tmp_path: Path, index: Path) -> Path:
    """The log of a finished werewolf-12 game of heuristic bots (seed 3, three days)."""
    path = tmp_path / "parent.jsonl"
    setup = GameSetup(
        "werewolf",
        seed=PARENT_SEED,
        agents="heuristic",
        config={"preset": "werewolf-12"},
        log_path=path,
    )
    asyncio.run(run_game(setup))
    return path
