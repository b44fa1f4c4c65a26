"""Claim truthfulness in werewolf: public seer claims read from the speeches of the log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from duskfall.report.metrics import SeatMetrics, seat_metrics
from duskfall.session import GameSetup, prepare_game
from duskfall.store.log import read_log


def _metrics_and_roles(seed: int, where: Path) -> tuple[dict[int, SeatMetrics], dict[int, str]]:
    path = where / f"{seed}.jsonl"
    setup = GameSetup(
        "werewolf", seed=seed, agents="heuristic", config={"preset": "werewolf-9"}, log_path=path
    )
    game = prepare_game(setup)
    asyncio.run(game.run())
    return seat_metrics(read_log(path)), game.state.roles()


def test_seer_claims_are_true_for_the_seer_and_false_for_a_wolf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")
    by_role: dict[str, SeatMetrics] = {}
    for seed in range(2):  # seed 1: a bold wolf runs on a fake seer claim
        metrics, roles = _metrics_and_roles(seed, tmp_path)
        for seat, found in metrics.items():
            by_role[roles[seat]] = by_role.get(roles[seat], SeatMetrics()) + found
    assert by_role["Seer"].claims > 0 and by_role["Seer"].claim_truthfulness == 1.0
    assert by_role["Werewolf"].claims > 0 and by_role["Werewolf"].claim_truthfulness == 0.0
    assert by_role["Villager"].claims == 0  # wolf chat ("kill seat N") is no claim


def test_an_eliminate_all_rounds_yes_and_no_are_not_exile_votes_on_seats_0_and_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sports mafia's eliminate-all round records ``{voter: true|false}``; those answers name
    no player (they were once counted as votes on seat 1 and seat 0)."""
    monkeypatch.setenv("DUSKFALL_DB", "off")
    for seed in range(40):
        path = tmp_path / f"sm-{seed}.jsonl"
        asyncio.run(prepare_game(GameSetup("sports-mafia", seed=seed, log_path=path)).run())
        log = read_log(path)
        votes = [e.payload["votes"] for e in log.events if e.kind == "VOTES"]
        if any(isinstance(v, bool) for round_ in votes for v in round_.values()):
            break
    else:
        pytest.fail("no eliminate-all round in 40 random games")
    on_seats = sum(
        isinstance(t, int) and not isinstance(t, bool) for r in votes for t in r.values()
    )
    counted = sum(m.exile_votes for m in seat_metrics(log).values())
    assert counted == on_seats
