"""How duskfall opens its SQLite file and writes to it, for every table in it.

The file runs in WAL mode with a busy timeout (readers never wait for a writer; writers
queue), and a write is one transaction taken eagerly (``BEGIN IMMEDIATE``: concurrent writers
queue instead of deadlocking on an upgrade from a read lock).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Self

from duskfall.core.errors import DuskfallError

BUSY_TIMEOUT_S = 30.0


class GameIndexError(DuskfallError):
    """The game index cannot be opened or used."""


def open_database(path: Path, *, any_thread: bool = False) -> sqlite3.Connection:
    """A connection to the SQLite file at ``path`` (created if missing; raises
    sqlite3.DatabaseError); ``any_thread``: one thread may hand it over to another (used by
    one at a time)."""
    db = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=not any_thread
    )
    db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    return db


@contextmanager
def write_transaction(db: sqlite3.Connection, path: Path) -> Iterator[sqlite3.Connection]:
    """One write transaction on ``db`` (the file at ``path``, for the error message)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.DatabaseError as exc:
        raise GameIndexError(f"game index {path}: {exc}") from None
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class IndexTable:
    """Tables of their own in the game index at ``path``: the subclass's ``SCHEMA`` is created on
    first use; ``with`` closes the connection; ``_write()`` is one write transaction."""

    SCHEMA = ""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = open_database(self.path)
            self._db.executescript(self.SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise GameIndexError(f"cannot open game index {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        return write_transaction(self._db, self.path)
