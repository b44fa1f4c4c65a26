"""``stop = "separated"`` and ``plan`` on real bot tournaments: the run pauses at its planned
looks, stops once the pairs are told apart, and the report says why and what it saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.tournament_kit import bot_config, report, run
from duskfall.arena.plan import make_plan
from duskfall.arena.progress import tournament_progress
from duskfall.arena.tournament_run import Looks
from duskfall.store.index import GameIndex

WEREWOLF_9 = [{"variant": "werewolf", "preset": "werewolf-9"}]


def test_the_run_pauses_at_each_look_until_the_games_before_it_are_done(tmp_path: Path) -> None:
    config = bot_config("sides", games=24, variants=WEREWOLF_9, parallel_games=4)
    seen: list[tuple[int, set[int]]] = []

    def check(prefix: int) -> None:
        with GameIndex(tmp_path / "index.db") as index:
            rows = index.tournament_games(config.name)
        seen.append(
            (prefix, {row.tournament_slot for row in rows if row.tournament_slot is not None})
        )

    summary = run(config, tmp_path, looks=Looks([6, 12, 18], check))  # type: ignore[arg-type]
    assert summary.played == 24 and summary.stopped_by is None
    assert [prefix for prefix, _ in seen] == [6, 12, 18]
    for prefix, started in seen:  # every game before the look done, none after it started
        assert set(range(prefix)) <= started and max(started) < prefix


@pytest.mark.slow
def test_a_clear_gap_stops_at_an_early_look_and_the_report_says_what_it_saved(
    tmp_path: Path,
) -> None:
    config = bot_config("sides", games=400, variants=WEREWOLF_9, stop="separated", seed=4)
    summary = run(config, tmp_path)
    assert summary.stopped_by == "every pair separated" and summary.played < 400
    board = report(config, tmp_path, bootstrap=100).board
    stopping = board.stopping
    assert stopping is not None and stopping.stopped and stopping.reason == summary.stopped_by
    assert stopping.games_saved == 400 - summary.played > 0
    assert stopping.looks_taken < len(stopping.plan["looks"])
    pair = board.pair("smart", "naive")
    assert pair.verdict == "separated" and pair.separated_at == stopping.looks_taken
    assert pair.overall.low > 0  # the repeated confidence interval excludes 0 too


@pytest.mark.slow
def test_two_copies_of_one_agent_are_not_separated_and_the_rule_gives_up_early(
    tmp_path: Path,
) -> None:
    config = bot_config(
        "sides",
        games=400,
        variants=WEREWOLF_9,
        stop="separated",
        entrants={"one": "heuristic", "other": "heuristic"},
        seed=12,  # (with another seed it may be one of the 5% declared apart by luck)
    )
    summary = run(config, tmp_path)
    board = report(config, tmp_path, bootstrap=100).board
    assert board.pair("one", "other").verdict == "not yet"
    assert board.stopping is not None and board.stopping.stopped
    assert "cannot be" in (summary.stopped_by or "") and summary.played < 400


@pytest.mark.slow
def test_resume_after_a_stop_plays_nothing_more(tmp_path: Path) -> None:
    config = bot_config("sides", games=400, variants=WEREWOLF_9, stop="separated", seed=4)
    first = run(config, tmp_path)
    again = run(config, tmp_path)
    assert again.played == 0 and again.stopped_by == first.stopped_by


@pytest.mark.slow
def test_plan_from_the_variant_and_from_a_pilot(tmp_path: Path) -> None:
    config = bot_config("duplicate", games=40, variants=WEREWOLF_9)
    plan = make_plan(config, gap_elo=100, proxy_games=40)
    needs = {need.schedule: need for need in plan.schedules}
    assert set(needs) == {"duplicate", "sides", "mixed"}
    assert plan.pilot is not None and "entrants themselves" in plan.source  # bots: played now
    assert needs["duplicate"].games < needs["mixed"].games
    assert needs["duplicate"].games % 2 == 0 and 0.3 < plan.evil_win["werewolf:werewolf-9"] < 0.9
    run(config, tmp_path)
    with GameIndex(tmp_path / "index.db") as index:
        progress = tournament_progress(config, index)
    from duskfall.report.leaderboard import rated_by_slot
    from duskfall.report.results import played_game

    games = [played_game(row) for _, row in sorted(progress.done.items())]
    pilot = [g for _, g in sorted(rated_by_slot(progress, games).items()) if g is not None]
    piloted = make_plan(config, gap_elo=100, pilot=pilot)
    assert piloted.pilot is not None and piloted.pilot.games == 40 and piloted.pilot.deals == 20
    assert piloted.pilot.se > 0 and piloted.pilot.se_games > 0 and piloted.pilot.needed > 0
    assert "pilot" in piloted.source
