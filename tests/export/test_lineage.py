"""A fork family in the dataset: each game names its parent and fork point, the rows a fork
copied from its parent's prefix are marked and credited to the agents that made them, and
the family is read back from the exported files alone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from duskfall.export.dataset import export_games
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.session import GameSetup, run_game
from duskfall.store.index import GameIndex
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import read_log
from duskfall.store.paths import use_db


def rows(out: Path, table: str, key: str) -> list[dict[str, Any]]:
    """The rows of a table, its public and hidden parts joined on their key."""
    joined: dict[Any, dict[str, Any]] = {}
    for name in (f"{table}.jsonl", f"{table}_hidden.jsonl"):
        for line in (out / name).open():
            row = json.loads(line)
            joined.setdefault((row["game_id"], row.get(key)), {}).update(row)
    return list(joined.values())


def test_a_fork_family_round_trips_through_the_export(tmp_path: Path, monkeypatch: Any) -> None:
    db = tmp_path / "games.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    use_db(db)
    parent = tmp_path / "parent.jsonl"
    setup = GameSetup("werewolf", seed=6, agents="llm:scripted", config={"preset": "werewolf-6"},
                      log_path=parent)  # fmt: skip
    asyncio.run(run_game(setup))
    child = tmp_path / "child.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, at="day:1", agents="heuristic", log_path=child)))
    grandchild = tmp_path / "grandchild.jsonl"
    asyncio.run(run_fork(ForkRequest(child, at="night:2", agents="random", log_path=grandchild)))
    logs = {p: read_log(p) for p in (parent, child, grandchild)}
    ids = {p: log.header.game_id for p, log in logs.items()}
    with GameIndex(db) as index:
        indexed = index.list_games(limit=-1)
    out = tmp_path / "out"
    result = export_games(indexed, out, "jsonl", "test")
    assert result.games == 3

    games = {r["game_id"]: r for r in rows(out, "games", "game_id")}
    assert games[ids[parent]]["parent_game_id"] is None
    assert games[ids[child]]["parent_game_id"] == ids[parent]
    assert games[ids[grandchild]]["parent_game_id"] == ids[child]
    for path in (child, grandchild):
        origin = ForkOrigin.of(logs[path].header)
        assert origin is not None
        assert games[ids[path]]["fork_event"] == origin.event
        assert games[ids[path]]["fork_prefix"] == origin.prefix

    decisions = rows(out, "decisions", "decision")
    by_game: dict[str, list[dict[str, Any]]] = {}
    for row in decisions:
        by_game.setdefault(row["game_id"], []).append(row)
    assert not any(r["inherited"] for r in by_game[ids[parent]])
    child_cut = games[ids[child]]["fork_prefix"]
    grand_cut = games[ids[grandchild]]["fork_prefix"]
    actions = {
        path: [e for e in logs[path].events if e.kind == "action"] for path in (child, grandchild)
    }
    for path, cut in ((child, child_cut), (grandchild, grand_cut)):
        flags = [r["inherited"] for r in sorted(by_game[ids[path]], key=lambda r: r["decision"])]
        assert flags == [e.seq < cut for e in actions[path]]
        assert any(flags) and not all(flags)
    # the copied rows are credited to those who made them, with their model calls
    for row in by_game[ids[child]]:
        assert row["agent"] == ("llm:scripted" if row["inherited"] else "heuristic")
    for row in by_game[ids[grandchild]]:
        seq = actions[grandchild][row["decision"]].seq
        expected = (
            "llm:scripted" if seq < child_cut else "heuristic" if seq < grand_cut else "random"
        )
        assert row["agent"] == expected, (seq, row)
        assert (row["llm_calls"] > 0) == (expected == "llm:scripted")
    # the family rebuilt from the exported rows: a copied decision is its parent's, the same
    # action at the same place
    hidden = {(r["game_id"], r["decision"]): r for r in decisions}
    for row in by_game[ids[child]]:
        if row["inherited"]:
            theirs = hidden[(ids[parent], row["decision"])]
            assert hidden[(ids[child], row["decision"])]["action"] == theirs["action"]
    # a fork's own model calls only: the grandchild made none
    assert games[ids[grandchild]]["llm_calls"] == 0 and games[ids[parent]]["llm_calls"] > 0
    events = [r for r in rows(out, "events", "seq") if r["game_id"] == ids[child]]
    assert sum(r["inherited"] for r in events) == child_cut


def test_a_fork_whose_parent_is_gone_credits_its_copied_rows_to_nobody(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from duskfall.export.rows import game_rows
    from duskfall.lab.lineage import prefix_credit

    monkeypatch.setenv("DUSKFALL_DB", "off")
    use_db(None)
    parent = tmp_path / "parent.jsonl"
    setup = GameSetup("werewolf", seed=6, agents="heuristic", config={"preset": "werewolf-6"},
                      log_path=parent)  # fmt: skip
    asyncio.run(run_game(setup))
    child = tmp_path / "child.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, at="day:1", agents="random", log_path=child)))
    parent.unlink()
    log = read_log(child)
    credit = prefix_credit(log, child)
    origin = ForkOrigin.of(log.header)
    assert origin is not None and credit.ancestors == ((origin.parent, origin.prefix, None),)

    row = SimpleNamespace(  # what game_rows reads of an index row
        id=log.header.game_id, variant="werewolf", status="finished", winner=None,
        termination=None, days=0, prompt_tokens=0, cached_tokens=0, completion_tokens=0,
        cost_usd=0.0, tournament=None, tournament_slot=None, started_at="", log_path=child,
    )  # fmt: skip
    rows = game_rows(row, log, credit)  # type: ignore[arg-type]
    agents = {r["agent"] for r in rows.decisions if r["inherited"]}
    assert agents == {"unknown"}
    assert {r["agent"] for r in rows.decisions if not r["inherited"]} == {"random"}
