"""Werewolf passes the variant test kit, for every preset and the rule options (a few games in
the quick tier, the rest slow)."""

from pathlib import Path

import pytest

from duskfall.testing import VariantKit

CONFIGS = [
    {"preset": "werewolf-12"},
    {"preset": "werewolf-9", "win_condition": "all-kill", "guarded_and_saved": "dies"},
    {"preset": "werewolf-6", "badge": False, "hunter_shot": False, "day_limit": 3},
]
KIT = VariantKit(
    "werewolf",
    configs=CONFIGS,
    playouts=700,
    leak_games=7,
)


def test_api_contract() -> None:
    KIT.check_api(seeds=range(3))


def test_determinism_by_seed() -> None:
    KIT.check_determinism(seeds=range(6))


def test_runtime_determinism(tmp_path: Path) -> None:
    KIT.check_runtime_determinism(tmp_path)


def test_random_playouts_terminate() -> None:
    KIT.check_playouts(range(100))


@pytest.mark.slow
def test_many_random_playouts_terminate() -> None:
    KIT.check_playouts(range(100, KIT.playouts))


def test_replay_reproduces_logs(tmp_path: Path) -> None:
    KIT.check_replay(tmp_path, agents="heuristic", games=3)
    KIT.check_replay(tmp_path, agents="random", games=3)


def test_no_seat_sees_hidden_information() -> None:
    KIT.check_no_leak(range(1))


@pytest.mark.slow
def test_no_seat_sees_hidden_information_in_many_games() -> None:
    KIT.check_no_leak(range(1, KIT.leak_games))


def test_prompts_show_the_whole_visible_history_and_nothing_else() -> None:
    KIT.check_prompt_history(seeds=range(2))


def test_prompt_examples_fit_the_decision_schemas() -> None:
    KIT.check_prompt_contract(seeds=range(4))
