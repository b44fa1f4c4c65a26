"""The SQLite game index: rows, filters, lookups, concurrent writers, clear errors."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from duskfall.core.outcome import Outcome, Termination
from duskfall.session import GameSetup, run_game
from duskfall.store.index import GameIndex, GameIndexError, UnknownGame
from duskfall.store.indexing import IndexObserver
from duskfall.store.log import LogHeader
from duskfall.store.paths import default_db_path
from duskfall.store.rows import GameRow, SeatRow, Usage, model_of


def header(game_id: str, agents: list[str], variant: str = "sports-mafia") -> LogHeader:
    roster = [{"seat": s, "agent": a} for s, a in enumerate(agents)]
    return LogHeader(game_id, variant, {"day_limit": 30}, 7, roster)


def summary(game_id: str, status: str = "finished", agent: str = "random") -> GameRow:
    return GameRow(
        id=game_id,
        variant="werewolf",
        config={},
        seed=1,
        seats=(SeatRow(0, agent, model_of(agent)), SeatRow(1, "random")),
        status=status,
        started_at=f"2026-01-01T00:00:{len(game_id):02d}",
    )


def test_model_of_agent_strings() -> None:
    assert model_of("llm:openai:gpt-4o-mini") == "openai:gpt-4o-mini"
    assert model_of("cognitive:local") == "local"
    assert model_of("heuristic") is None
    assert model_of("human") is None


def test_observer_keeps_the_row_current(private_index: Path) -> None:
    index = GameIndex(private_index)
    observer = IndexObserver(
        GameIndex(private_index), header("g1", ["llm:local", "random"]), "g1.jsonl"
    )
    row = index.get("g1")
    assert row.status == "running"
    assert row.seats == (SeatRow(0, "llm:local", "local"), SeatRow(1, "random", None))
    assert row.log_path == str(Path("g1.jsonl").resolve())
    from duskfall.core.events import Event

    call = {"prompt_tokens": 100, "completion_tokens": 20, "cost_usd": 0.5}
    observer.on_event(Event("llm_call", call, "admin", 1, "DAY", source="llm"))
    observer.on_event(Event("llm_call", call, "admin", 2, "DAY", source="llm"))
    observer.on_phase_end()
    row = index.get("g1")
    assert (row.days, row.events, row.tokens, row.cost_usd) == (2, 2, 240, 1.0)
    assert row.cached_tokens == 0  # calls recorded without cache fields read as uncached
    cached = {**call, "cached_tokens": 80, "cache_write_tokens": 15}
    observer.on_event(Event("llm_call", cached, "admin", 2, "NIGHT", source="llm"))
    observer.on_game_end(Outcome("town", Termination.WIN))
    row = index.get("g1")
    assert (row.status, row.winner, row.termination) == ("finished", "town", "win")
    assert (row.prompt_tokens, row.cached_tokens, row.cache_write_tokens) == (300, 80, 15)
    assert row.finished_at is not None and row.pid is None


def test_aborted_game(private_index: Path) -> None:
    observer = IndexObserver(GameIndex(private_index), header("g2", ["random"]), None)
    observer.on_game_end(Outcome(None, Termination.ABORTED, "server stopped"))
    assert GameIndex(private_index).get("g2").status == "aborted"


def test_filters_limit_and_offset(private_index: Path) -> None:
    index = GameIndex(private_index)
    index.add_rows(
        [
            summary("a-game", agent="llm:openai:gpt-4o"),
            summary("bb-game", status="running"),
            summary("ccc-game", agent="heuristic"),
        ]
    )
    IndexObserver(index, header("dddd-game", ["heuristic"]), "x.jsonl")
    ids = lambda rows: [r.id for r in rows]  # noqa: E731
    assert ids(index.list_games()) == ["dddd-game", "ccc-game", "bb-game", "a-game"]
    assert ids(index.list_games(variant="werewolf", status="running")) == ["bb-game"]
    assert ids(index.list_games(agent="llm")) == ["a-game"]
    assert ids(index.list_games(agent="openai:gpt-4o")) == ["a-game"]
    assert ids(index.list_games(agent="heuristic")) == ["dddd-game", "ccc-game"]
    assert ids(index.list_games(limit=2, offset=1)) == ["ccc-game", "bb-game"]
    assert index.count_games(agent="random") == 3
    with pytest.raises(GameIndexError, match="unknown status"):
        index.list_games(status="won")


def test_get_by_prefix_and_unknown_ids(private_index: Path) -> None:
    index = GameIndex(private_index)
    index.add_rows([summary("werewolf-1-aaa"), summary("werewolf-1-aab"), summary("mafia-2")])
    assert index.get("maf").id == "mafia-2"
    with pytest.raises(UnknownGame, match="several games"):
        index.get("werewolf-1-aa")
    with pytest.raises(UnknownGame, match="no game 'nope'"):
        index.get("nope")
    with pytest.raises(UnknownGame):
        index.get("%")


def test_bad_paths_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(GameIndexError, match="no such directory"):
        GameIndex(tmp_path / "missing" / "x.db")
    with pytest.raises(GameIndexError, match="is a directory"):
        GameIndex(tmp_path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(GameIndexError, match="cannot open game index"):
        GameIndex(junk)


def test_default_db_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUSKFALL_DB")
    assert default_db_path() == Path("duskfall.db")
    monkeypatch.setenv("DUSKFALL_DB", "off")
    assert default_db_path() is None
    monkeypatch.setenv("DUSKFALL_DB", "/x/y.db")
    assert default_db_path() == Path("/x/y.db")


async def test_played_games_are_indexed(private_index: Path, tmp_path: Path) -> None:
    game = await run_game(GameSetup("sports-mafia", seed=3, log_path=tmp_path / "g.jsonl"))
    row = GameIndex(private_index).get(game.game_id)
    outcome = game.state.outcome()
    assert outcome is not None
    assert (row.status, row.winner, row.seed) == ("finished", outcome.winner, 3)
    assert row.events == len(game.record.events)
    assert row.days == game.state.day
    assert len(row.seats) == game.state.num_seats


async def test_unlogged_games_are_not_indexed(private_index: Path) -> None:
    await run_game(GameSetup("sports-mafia", seed=3, write_log=False))
    assert GameIndex(private_index).list_games() == []


def _write_many(db: str, worker: int) -> None:
    index = GameIndex(db)
    for n in range(40):
        observer = IndexObserver(index, header(f"w{worker}-{n}", ["random"]), None)
        observer.on_phase_end()
        index.record_end(observer.game_id, Usage(days=1), "town", "win")


@pytest.mark.subprocess
def test_concurrent_writers(private_index: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_many, args=(str(private_index), w)) for w in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(60)
        assert process.exitcode == 0
    index = GameIndex(private_index)
    assert index.count_games(status="finished") == 160
