"""``simulate`` on the tournament machinery: the same games, seed for seed, as before it was
rebuilt on it, whether played on the event loop or in worker processes."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from duskfall.arena.game_job import GameJob, play_job
from duskfall.arena.simulate import simulate
from duskfall.store.log import read_log
from duskfall.store.packed import write_log_file

# recorded with the simulate of before (its own worker loop), seeds 100..159 (given as they
# are: ``first_seed`` derives each game's seed by a keyed hash, see test_seeds_are_derived)
RECORDED = [
    ("sports-mafia", {}, "random", {"BLACK": 52, "RED": 8}, 218, 4363),
    ("sports-mafia", {}, "heuristic", {"BLACK": 37, "RED": 23}, 170, 3119),
    ("werewolf", {"preset": "werewolf-6"}, "heuristic", {"village": 24, "werewolf": 36}, 120, 2368),
]


@pytest.fixture(autouse=True)
def no_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")


CASES = [(*case, 1) for case in RECORDED] + [(*RECORDED[1], 2)]  # one case on two workers


@pytest.mark.parametrize(
    ("variant", "config", "agents", "wins", "days", "decisions", "workers"), CASES
)
def test_simulate_plays_the_recorded_games(
    variant: str,
    config: dict[str, Any],
    agents: str,
    wins: dict[str, int],
    days: int,
    decisions: int,
    workers: int,
) -> None:
    report = simulate(
        variant, 60, agents=agents, config=config, seeds=range(100, 160), workers=workers
    )
    assert dict(report.wins) == wins
    assert (report.total_days, report.total_decisions, report.total_fallbacks) == (
        days,
        decisions,
        0,
    )
    assert report.games == 60 and report.terminations.total() == 60


@pytest.mark.parametrize("variant", ["sports-mafia", "mafia"])
async def test_an_unlogged_game_counts_what_its_log_would_hold(
    variant: str, tmp_path: Path
) -> None:
    """Nobody follows an unlogged game of bots, so its events are not even built; its index
    row and result still count every event, decision and day its log would show."""
    job = GameJob(variant, 7, {}, "random", (), {}, keep_row=True)
    unlogged = await play_job(job)
    logged = await play_job(dataclasses.replace(job, keep_log=True, keep_row=False))
    assert unlogged.log is None and logged.log is not None and logged.row is None
    write_log_file(tmp_path / "game.jsonl", logged.log)
    log = read_log(tmp_path / "game.jsonl")
    assert unlogged.row is not None and unlogged.row.events == len(log.events)
    assert unlogged.row.days == max(event.day for event in log.events) == logged.days
    actions = sum(event.kind == "action" for event in log.events)
    assert unlogged.decisions == logged.decisions == actions > 0
    assert (unlogged.winner, unlogged.days) == (logged.winner, logged.days)


def test_aborted_games_are_left_out_of_the_rates() -> None:
    """A game that ended without a result (a seat kept failing) is no draw: it is left out of
    every rate, and counted apart."""
    from duskfall.arena.game_job import GameResult
    from duskfall.arena.simulate import SimulationReport

    report = SimulationReport("werewolf", "heuristic")
    for slot, (winner, termination) in enumerate(
        [("village", "win"), ("werewolf", "win"), (None, "day_limit"), (None, "aborted")]
    ):
        report.add(GameResult(slot, f"g{slot}", winner, termination, {}))
    assert (report.games, report.aborted) == (4, 1)
    assert [str(report.win_rate(t)) for t in ("village", "draw")] == [
        "33.3% [6.1%, 79.2%] (1/3)",
        "33.3% [6.1%, 79.2%] (1/3)",
    ]
