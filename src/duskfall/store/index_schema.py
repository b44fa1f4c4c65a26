"""The game index's schema, and its upgrades from every older version (SQLite).

:func:`connect` opens the index at a path with the settings every user shares (WAL, a busy
timeout, foreign keys) and brings its schema to :data:`SCHEMA_VERSION`, creating it on first
use: several processes may do so at once. The queries are :mod:`duskfall.store.index`'s.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from duskfall.store.sqlite_file import open_database

SCHEMA_VERSION = 6

# seed: decimal text, since seeds have 128 bits (an INTEGER column holds 64)
GAMES_TABLE = """
CREATE TABLE IF NOT EXISTS {name} (
    id                TEXT PRIMARY KEY,
    variant           TEXT NOT NULL,
    config            TEXT NOT NULL,
    seed              TEXT NOT NULL,
    status            TEXT NOT NULL,
    winner            TEXT,
    termination       TEXT,
    days              INTEGER NOT NULL DEFAULT 0,
    events            INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd          REAL NOT NULL DEFAULT 0,
    started_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    finished_at       TEXT,
    log_path          TEXT,
    host              TEXT,
    pid               INTEGER,
    cached_tokens     INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    tournament        TEXT,
    tournament_slot   INTEGER,
    parent            TEXT,
    parent_event      INTEGER,
    chain             TEXT,
    seal              TEXT
);
"""
GAMES_INDEXES = """
CREATE INDEX IF NOT EXISTS games_by_start ON games (started_at DESC);
CREATE INDEX IF NOT EXISTS games_by_variant ON games (variant, status);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status);
CREATE INDEX IF NOT EXISTS games_by_tournament ON games (tournament, tournament_slot);
CREATE INDEX IF NOT EXISTS games_by_parent ON games (parent);
CREATE INDEX IF NOT EXISTS games_by_start_id ON games (started_at, id);
"""
SCHEMA = (
    GAMES_TABLE.format(name="games")
    + GAMES_INDEXES
    + """
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    agent   TEXT NOT NULL,
    model   TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_agent ON seats (agent);
CREATE INDEX IF NOT EXISTS seats_by_model ON seats (model);
"""
)
# Upgrades to the current schema, by the version found. 1: the seed column becomes text
# (SQLite cannot change a column's type in place), so the table is rebuilt; 2: the columns of
# cached prompt tokens are added (rows of older games count none); 3: the tournament a game
# belongs to and its slot in the tournament's schedule are added; 4: the game a fork was
# forked from, and the parent's event number it left at; 5: the list's order (start, then id)
# gets an index of its own, so a page deep in a 100,000-game list is read from the index, and
# the log's chain hash the row was last written with and the row's signature are added
# (store.signatures).
V1_COLUMNS = (
    "id, variant, config, seed, status, winner, termination, days, events, prompt_tokens, "
    "completion_tokens, cost_usd, started_at, updated_at, finished_at, log_path, host, pid"
)
_TOURNAMENT_COLUMNS = """
ALTER TABLE games ADD COLUMN tournament TEXT;
ALTER TABLE games ADD COLUMN tournament_slot INTEGER;
CREATE INDEX IF NOT EXISTS games_by_tournament ON games (tournament, tournament_slot);
"""
_PARENT_COLUMNS = """
ALTER TABLE games ADD COLUMN parent TEXT;
ALTER TABLE games ADD COLUMN parent_event INTEGER;
CREATE INDEX IF NOT EXISTS games_by_parent ON games (parent);
"""
_START_ID_INDEX = "CREATE INDEX IF NOT EXISTS games_by_start_id ON games (started_at, id);"
_SEAL_COLUMNS = """
ALTER TABLE games ADD COLUMN chain TEXT;
ALTER TABLE games ADD COLUMN seal TEXT;
"""
UPGRADES = {
    1: GAMES_TABLE.format(name="games_new")
    + f"""
INSERT INTO games_new ({V1_COLUMNS}) SELECT {V1_COLUMNS.replace("seed", "CAST(seed AS TEXT)")}
    FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
"""
    + GAMES_INDEXES,
    2: """
ALTER TABLE games ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
"""
    + _TOURNAMENT_COLUMNS
    + _PARENT_COLUMNS
    + _START_ID_INDEX
    + _SEAL_COLUMNS,
    3: _TOURNAMENT_COLUMNS + _PARENT_COLUMNS + _START_ID_INDEX + _SEAL_COLUMNS,
    4: _PARENT_COLUMNS + _START_ID_INDEX + _SEAL_COLUMNS,
    5: _START_ID_INDEX + _SEAL_COLUMNS,
}


class SchemaTooNew(sqlite3.DatabaseError):
    """The index was written by a newer duskfall."""


def connect(path: Path, *, any_thread: bool = False) -> sqlite3.Connection:
    """A connection to the index at ``path``, its schema the current one (``any_thread``: see
    :func:`~duskfall.store.sqlite_file.open_database`)."""
    db = open_database(path, any_thread=any_thread)
    db.execute("PRAGMA foreign_keys = ON")
    migrate(db)
    return db


def migrate(db: sqlite3.Connection) -> None:
    """Bring the schema of ``db`` to the current version (create it if it is new)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(f"has schema {version}, newer than this duskfall ({SCHEMA_VERSION})")
    if version in UPGRADES:
        _upgrade(db, version)
    elif version < SCHEMA_VERSION:
        # CREATE ... IF NOT EXISTS: a concurrent first use by another process is harmless
        db.executescript(
            f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        )


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """Schema ``version`` -> the current one in one transaction (unless another process just
    did it)."""
    db.execute("PRAGMA foreign_keys = OFF")  # else rebuilding games drops its seats
    try:
        db.execute("BEGIN IMMEDIATE")
        if db.execute("PRAGMA user_version").fetchone()[0] == version:
            for statement in UPGRADES[version].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")
        db.execute("PRAGMA foreign_keys = ON")
