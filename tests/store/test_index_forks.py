"""Schema 5: a fork's row names its parent and the parent's event it left at; older indexes
upgrade, and a game's children are listed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from duskfall.store.index import SCHEMA_VERSION, GameIndex
from duskfall.store.log import LogHeader
from duskfall.store.rows import GameRow


def _fork_header(game_id: str, parent: str, event: int) -> LogHeader:
    origin = {"parent": parent, "event": event, "chain": "0" * 64, "prefix": event}
    return LogHeader(game_id, "werewolf", {}, 5, [], extra={"fork": origin})


def test_a_schema_4_index_gains_the_parent_columns_and_lists_children(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with GameIndex(db):
        pass
    with sqlite3.connect(db) as raw:  # back to schema 4: no parent columns
        raw.executescript(
            """
            ALTER TABLE games DROP COLUMN seal;
            ALTER TABLE games DROP COLUMN chain;
            DROP INDEX games_by_parent;
            DROP INDEX games_by_start_id;
            ALTER TABLE games DROP COLUMN parent_event;
            ALTER TABLE games DROP COLUMN parent;
            INSERT INTO games (id, variant, config, seed, status, started_at, updated_at)
                VALUES ('root', 'werewolf', '{}', '3', 'finished', '2026-01-01', '2026-01-01');
            PRAGMA user_version = 4;
            """
        )
    with GameIndex(db) as index:
        assert index.get("root").parent is None
        index.record_start(_fork_header("late", "root", 90), tmp_path / "late.jsonl")
        index.add_rows(
            [GameRow("early", "werewolf", {}, 6, (), "finished", parent="root", parent_event=12)]
        )
        index.record_start(_fork_header("grandchild", "early", 40), tmp_path / "g.jsonl")
        children = index.children("root")
        assert index.get("late").parent_event == 90
        assert [row.id for row in index.children("early")] == ["grandchild"]
        assert index.children("grandchild") == []
    assert [(row.id, row.parent, row.parent_event) for row in children] == [
        ("early", "root", 12),
        ("late", "root", 90),
    ]
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    indexes = {
        name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    assert "games_by_start_id" in indexes  # the list's order, deep pages read from it
