"""Sports mafia passes the variant test kit (a few games in the quick tier, the rest slow)."""

from pathlib import Path

import pytest

from duskfall.testing import VariantKit

KIT = VariantKit("sports-mafia", configs=[{}, {"day_limit": 2}])


def test_api_contract() -> None:
    KIT.check_api(range(4))


@pytest.mark.slow
def test_api_contract_many_games() -> None:
    KIT.check_api(range(4, 30))


def test_determinism_by_seed() -> None:
    KIT.check_determinism()


def test_runtime_determinism(tmp_path: Path) -> None:
    KIT.check_runtime_determinism(tmp_path)


def test_random_playouts_terminate() -> None:
    KIT.check_playouts(range(200))


@pytest.mark.slow
def test_many_random_playouts_terminate() -> None:
    KIT.check_playouts(range(200, KIT.playouts))


def test_replay_reproduces_logs(tmp_path: Path) -> None:
    KIT.check_replay(tmp_path)


def test_no_seat_sees_hidden_information() -> None:
    KIT.check_no_leak(range(4))


@pytest.mark.slow
def test_no_seat_sees_hidden_information_in_many_games() -> None:
    KIT.check_no_leak(range(4, KIT.leak_games))


def test_prompts_show_the_whole_visible_history_and_nothing_else() -> None:
    KIT.check_prompt_history(seeds=range(2))


def test_prompt_examples_fit_the_decision_schemas() -> None:
    KIT.check_prompt_contract(seeds=range(4))
