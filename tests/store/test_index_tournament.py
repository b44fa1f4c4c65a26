"""Schema 4: games carry the tournament they belong to and their slot; older indexes upgrade."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from duskfall.store.index import SCHEMA_VERSION, GameIndex
from duskfall.store.log import LogHeader
from duskfall.store.rows import GameRow


def test_a_schema_3_index_gains_the_tournament_columns(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with GameIndex(db):
        pass
    with sqlite3.connect(db) as raw:  # back to schema 3: no tournament (nor parent) columns
        raw.executescript(
            """
            ALTER TABLE games DROP COLUMN seal;
            ALTER TABLE games DROP COLUMN chain;
            DROP INDEX games_by_parent;
            ALTER TABLE games DROP COLUMN parent_event;
            ALTER TABLE games DROP COLUMN parent;
            DROP INDEX games_by_tournament;
            ALTER TABLE games DROP COLUMN tournament_slot;
            ALTER TABLE games DROP COLUMN tournament;
            INSERT INTO games (id, variant, config, seed, status, started_at, updated_at)
                VALUES ('old-1', 'werewolf', '{}', '3', 'finished', '2026-01-01', '2026-01-01');
            PRAGMA user_version = 3;
            """
        )
    with GameIndex(db) as index:
        assert index.get("old-1").tournament is None
        header = LogHeader(
            "t-1", "werewolf", {}, 5, [], extra={"tournament": {"name": "cup", "slot": 7}}
        )
        index.record_start(header, tmp_path / "t-1.jsonl")
        index.add_rows(
            [GameRow("t-2", "werewolf", {}, 6, (), "finished", tournament="cup", tournament_slot=2)]
        )
        rows = index.tournament_games("cup")
    assert [(r.id, r.tournament_slot) for r in rows] == [("t-2", 2), ("t-1", 7)]
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
