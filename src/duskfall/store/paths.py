"""Where the game index lives: ``$DUSKFALL_DB``, else ``./duskfall.db``, or nowhere (off).

The index (:mod:`duskfall.store.index`), the operator key beside it
(:mod:`duskfall.store.operator_key`) and every command that opens them find it here.
"""

from __future__ import annotations

import os
from pathlib import Path

DB_ENV = "DUSKFALL_DB"
DEFAULT_DB = Path("duskfall.db")
DISABLED = frozenset({"", "off", "none"})


def default_db_path() -> Path | None:
    """The index the process uses: ``$DUSKFALL_DB``, else ``./duskfall.db``; None if off."""
    value = os.environ.get(DB_ENV)
    if value is None:
        return DEFAULT_DB
    if value.strip().lower() in DISABLED:
        return None
    return Path(value)


def use_db(path: str | Path | None) -> None:
    """Make ``path`` this process's index (and its child processes'); None turns indexing off."""
    os.environ[DB_ENV] = "off" if path is None else str(path)
