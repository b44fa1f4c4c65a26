"""Bot tournaments end to end: logged, indexed, tagged games; resume; budgets; ratings."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from arena.tournament_kit import bot_config, outcomes, report, run
from duskfall.arena.progress import tournament_progress
from duskfall.arena.tournament_config import parse_tournament
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log


@pytest.mark.parametrize("schedule", ["mixed", "sides"])
def test_a_bot_tournament_runs_end_to_end_and_again_to_the_same_results(
    tmp_path: Path, schedule: str
) -> None:
    config = bot_config(schedule)
    summary = run(config, tmp_path / "a")
    assert summary.played == 8 and not summary.failed and summary.stopped_by is None
    with GameIndex(tmp_path / "a" / "index.db") as index:
        rows = index.tournament_games(config.name)
    assert sorted(r.tournament_slot for r in rows) == list(range(8))
    for row in rows:
        assert row.status == "finished" and row.log_path is not None
        header = read_log(row.log_path).header
        assert header.extra["tournament"]["name"] == config.name
        assert Path(row.log_path).parent == tmp_path / "a" / "games"
    first = report(config, tmp_path / "a")
    assert {e.name for e in first.entrants} == {"smart", "naive"}
    assert first.games_played == 8 and {g.variant for g in first.games} == {
        "sports-mafia",
        "werewolf",
    }
    if schedule == "sides":
        assert first.board.pair("smart", "naive").record[1] == 8
    run(config, tmp_path / "b")
    second = report(config, tmp_path / "b")
    assert outcomes(first) == outcomes(second)
    assert first.board.to_dict() == second.board.to_dict()


def test_resume_plays_only_the_missing_games_from_any_dead_driver(tmp_path: Path) -> None:
    """Slot 1 was in flight when its driver died on another host (its game never came back);
    slot 2 has a row left ``running`` by a driver of before the driver owned the record. The
    lock is free, so both drivers are known to be gone: resume plays both slots again."""
    config = bot_config("sides")
    run(config, tmp_path / "whole")
    where = tmp_path / "cut"
    run(config, where)
    db = where / "index.db"
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("DELETE FROM games WHERE tournament_slot = 1")
        raw.execute(
            "UPDATE tournament_slots SET state = 'running', driver = 'elsewhere:4242' "
            "WHERE slot = 1"
        )
        raw.execute(
            "UPDATE games SET status = 'running', winner = NULL, termination = NULL, "
            "host = 'elsewhere', pid = 4242 WHERE tournament_slot = 2"
        )
    with GameIndex(db) as index:
        state = tournament_progress(config, index)
    assert [s.index for s in state.missing] == [1, 2] and len(state.running) == 1
    assert [r.slot for r in state.in_flight] == [1]
    summary = run(config, where)
    assert summary.played == 2 and summary.lost_before == 1
    assert outcomes(report(config, where)) == outcomes(report(config, tmp_path / "whole"))
    with GameIndex(db) as index:
        again = tournament_progress(config, index)
    assert not again.missing and not again.running and not again.in_flight
    assert {r.state for r in again.slots.values()} == {"played"}
    with GameIndex(db) as index:  # one row per slot: a slot's game is written once
        assert len(index.tournament_games(config.name)) == 8


def test_a_changed_config_is_refused_under_the_same_name(tmp_path: Path) -> None:
    run(bot_config(games=2), tmp_path)
    with pytest.raises(Exception, match="another config"):
        run(bot_config(games=2, seed=99), tmp_path)


def test_budgets_stop_scheduling_new_games(tmp_path: Path) -> None:
    scripted = {"talker": "llm:scripted", "bot": "heuristic"}
    blocks = [{"variant": "werewolf", "preset": "werewolf-6"}]
    config = bot_config(
        games=6, entrants=scripted, variants=blocks, parallel_games=1, budget={"max_tokens": 1}
    )
    summary = run(config, tmp_path / "total")
    assert summary.played == 1 and "max_tokens" in (summary.stopped_by or "")
    per_entrant = bot_config(
        games=6,
        entrants=scripted,
        variants=blocks,
        parallel_games=1,
        budget={"per_entrant_max_tokens": 1},
    )
    summary = run(per_entrant, tmp_path / "entrant")
    assert summary.played == 1 and "talker" in (summary.stopped_by or "")


def test_heuristic_is_rated_above_random_with_separate_intervals_in_sports_mafia(
    tmp_path: Path,
) -> None:
    config = bot_config("sides", games=40, variants=[{"variant": "sports-mafia"}])
    run(config, tmp_path)
    board = report(config, tmp_path, bootstrap=50).board
    smart, naive = board.entrants
    assert (smart.name, naive.name) == ("smart", "naive")
    pair = board.pair("smart", "naive")
    assert pair.verdict == "separated" and pair.overall.low > 0
    assert not math.isnan(smart.overall.low) and smart.overall.point > naive.overall.point
    smart_wins, naive_wins = (e.win_rates["all"] for e in (smart, naive))
    assert smart_wins.wins / smart_wins.games > naive_wins.wins / naive_wins.games


@pytest.mark.parametrize("talker", ["llm:scripted", "cognitive:scripted"])
def test_model_seats_with_daily_beliefs_get_brier_scores(tmp_path: Path, talker: str) -> None:
    config = bot_config(
        games=2,
        entrants={"talker": talker, "bot": "heuristic"},
        variants=[{"variant": "werewolf", "preset": "werewolf-6"}],
        beliefs="daily",
    )
    run(config, tmp_path)
    board = report(config, tmp_path)
    score = board.calibration.overall["talker"]
    assert score.n > 0 and score.brier is not None and 0 <= score.brier <= 1
    assert set(board.calibration.by_day["talker"]) >= {1}
    entrant = next(e for e in board.entrants if e.name == "talker")
    assert entrant.metrics.llm_calls > 0 and entrant.metrics.prompt_tokens > 0
    with GameIndex(tmp_path / "index.db") as index:
        rows = index.tournament_games(config.name)
    asked = [e for row in rows for e in read_log(row.log_path).events if e.kind == "beliefs"]
    assert asked and {event.day for event in asked} >= {1}  # the seats were asked, daily
    if talker.startswith("cognitive:"):  # its seats' record folders came back with the games
        for row in rows:
            folder = Path(row.log_path or "").with_name(f"{row.id}.records")
            assert list(folder.glob("seat-*/history.jsonl")), folder


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"entrants": {"solo": "random"}}, "at least two entrants"),
        ({"entrants": {"a": "random", "b": "nonsense"}}, "unknown agent 'nonsense'"),
        ({"entrants": {"a": "random", "b": "human"}}, "unattended"),
        ({"variants": [{"variant": "chess"}]}, "chess"),
        ({"schedule": "swiss"}, "schedule"),
        ({"games": 3, "schedule": "sides"}, "must be even"),
        ({"name": "a b"}, "name"),
        ({"budget": {"max_cost_usd": -1}}, "max_cost_usd"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_configs_are_one_clear_error(change: dict[str, object], needle: str) -> None:
    data: dict[str, object] = {
        "name": "t",
        "entrants": {"a": "random", "b": "heuristic"},
        "variants": [{"variant": "sports-mafia"}],
        "games": 2,
    }
    data.update(change)
    with pytest.raises(Exception, match="tournament config") as caught:
        parse_tournament(data)
    message = str(caught.value)
    assert needle in message and "\n" not in message
