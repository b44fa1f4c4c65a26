"""New and resumed games are put together the same way: log, index, observers, seat feeds."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from duskfall.runtime.record import GameRecord, SeatFeed
from duskfall.session import GameSetup, PreparedGame, prepare_game, prepare_resume, run_game
from duskfall.session.record import GuardedLog
from duskfall.store.index import GameIndex
from duskfall.store.indexing import IndexObserver
from duskfall.store.log import LogWriter, read_log

AGENTS = "0=cognitive:scripted,default=heuristic"


def observer_kinds(record: GameRecord) -> list[str]:
    """The record's observers by type; a seat feed also names its seat."""
    return [
        f"SeatFeed(seat {o.seat})" if isinstance(o, SeatFeed) else type(o).__name__
        for o in record.observers
    ]


async def interrupted_game(path: Path, decisions: int) -> PreparedGame:
    """A game stopped after ``decisions`` rounds, as if its process had been killed."""
    game = prepare_game(GameSetup("mafia", seed=4, agents=AGENTS, log_path=path))
    game.scheduler.start()
    for _ in range(decisions):
        assert await game.scheduler.step()
    for observer in game.record.observers:
        if isinstance(observer, LogWriter | GuardedLog):
            observer.close()
    return game


def history_lines(path: Path) -> int:
    """Lines of the cognitive seat's history record (its feed writes one per visible event)."""
    files = list(path.parent.glob("**/seat-0/history.jsonl"))
    assert len(files) == 1, files
    return len(files[0].read_text().splitlines())


async def test_resumed_game_gets_the_seat_feeds_of_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    new = await interrupted_game(path, decisions=6)
    seen_before = history_lines(path)
    assert seen_before > 0

    resumed = prepare_resume(path)

    assert observer_kinds(resumed.game.record) == observer_kinds(new.record)
    assert "SeatFeed(seat 0)" in observer_kinds(resumed.game.record)
    await resumed.run()
    assert read_log(path).finished
    assert history_lines(path) > seen_before  # the feed kept recording after the resume


async def test_resumed_game_keeps_its_index_row_and_log(
    tmp_path: Path, private_index: Path
) -> None:
    path = tmp_path / "game.jsonl"
    new = await interrupted_game(path, decisions=3)
    kept = path.read_bytes()

    resumed = prepare_resume(path)
    assert any(isinstance(o, IndexObserver) for o in resumed.game.record.observers)
    await resumed.run()

    assert path.read_bytes().startswith(kept)
    header = json.loads(kept.splitlines()[0])
    assert header["game_id"] == new.game_id
    with GameIndex(private_index) as index:
        row = index.get(new.game_id)
    assert row.status == "finished"
    assert row.events == len(read_log(path).events)


def test_unlogged_game_has_no_writer_index_or_log_path() -> None:
    game = prepare_game(GameSetup("sports-mafia", seed=1, write_log=False))
    assert game.log_path is None
    assert observer_kinds(game.record) == []


async def test_a_game_set_up_to_keep_no_events_still_logs_them_all(tmp_path: Path) -> None:
    """``keep_events=False`` empties the record's list, not the log."""
    setup = GameSetup("werewolf", seed=2, agents="random", log_path=tmp_path / "g.jsonl")
    kept = await run_game(setup)
    lean_setup = dataclasses.replace(setup, log_path=tmp_path / "h.jsonl", keep_events=False)
    lean = await run_game(lean_setup)
    assert lean.record.events == [] and lean.record.recorded == len(kept.record.events)
    logged = read_log(tmp_path / "h.jsonl").events
    assert all(e.same_content(k) for e, k in zip(logged, kept.record.events, strict=True))
