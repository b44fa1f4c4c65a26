"""Claim truthfulness in werewolf: public seer claims read from the speeches of the log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from duskfall.arena.metrics import SeatMetrics, seat_metrics
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
