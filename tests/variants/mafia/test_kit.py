"""Classic mafia passes the variant test kit, with and without coordination and multi-role
(a few games in the quick tier, the rest slow)."""

import random
from pathlib import Path

import pytest

from duskfall.core.variant import parse_config
from duskfall.testing import VariantKit
from duskfall.variants.mafia import VARIANT
from duskfall.variants.mafia.actions import Say

from .helpers import quiet

MULTI_ROLE = {
    "roles": [
        "MAFIA+DOCTOR",
        "DOCTOR",
        "MAFIA+SHERIFF",
        "SHERIFF",
        "VIGILANTE",
        "VIGILANTE",
        "VILLAGER",
        "VILLAGER",
        "VILLAGER",
    ],
    "allow_multi_role": True,
}
TWO_OF_EACH = {
    "roles": [
        "MAFIA",
        "MAFIA",
        "DOCTOR",
        "DOCTOR",
        "SHERIFF",
        "SHERIFF",
        "VIGILANTE",
        "VIGILANTE",
        "VILLAGER",
    ]
}

KIT = VariantKit(
    "mafia",
    configs=[
        {},
        {"players": 5, "day_limit": 2},
        TWO_OF_EACH,
        {**TWO_OF_EACH, "coordination": False},
        MULTI_ROLE,
    ],
    playouts=300,
    leak_games=12,
)


def test_api_contract() -> None:
    KIT.check_api(range(2))


def test_determinism_by_seed() -> None:
    KIT.check_determinism(range(5))


def test_runtime_determinism(tmp_path: Path) -> None:
    KIT.check_runtime_determinism(tmp_path)


def test_random_playouts_terminate() -> None:
    KIT.check_playouts(range(60))


@pytest.mark.slow
def test_many_random_playouts_terminate() -> None:
    KIT.check_playouts(range(60, KIT.playouts))


def test_replay_reproduces_logs(tmp_path: Path) -> None:
    KIT.check_replay(tmp_path, games=3)


def test_no_seat_sees_hidden_information() -> None:
    KIT.check_no_leak(range(2))


@pytest.mark.slow
def test_no_seat_sees_hidden_information_in_many_games() -> None:
    KIT.check_no_leak(range(2, KIT.leak_games))


def test_scramble_really_hides_things() -> None:
    """The no-leak check is only as good as the scramble: it must change hidden facts."""
    state = VARIANT.new_game(parse_config(VARIANT, MULTI_ROLE), 1)
    state.opening_events()
    while state.phase == "NIGHT" and state.pending()[0].kind != "DOCTOR_COORDINATION":
        decision = state.pending()[0]
        secret = Say(f"secret from {decision.seat}")
        state.apply(
            decision.seat, secret if decision.kind == "MAFIA_CHAT" else quiet(state, decision.seat)
        )
    scramble_hidden = VARIANT.info.scramble_hidden
    assert scramble_hidden is not None
    villager = next(s for s, r in state.roles().items() if r == "VILLAGER")
    rng = random.Random(5)
    scrambled = [scramble_hidden(state, villager, rng) for _ in range(20)]
    assert any(other.roles() != state.roles() for other in scrambled)
    assert all(other.channel_logs["mafia"] != state.channel_logs["mafia"] for other in scrambled)
    assert all(other.observe(villager) == state.observe(villager) for other in scrambled)
    mafioso = next(s for s, r in state.roles().items() if r == "MAFIA+SHERIFF")
    for other in (scramble_hidden(state, mafioso, rng) for _ in range(20)):
        assert other.channel_logs["mafia"] == state.channel_logs["mafia"]
        assert {s for s in range(9) if "MAFIA" in other.seat_roles[s]} == {
            s for s in range(9) if "MAFIA" in state.seat_roles[s]
        }


def test_prompts_show_the_whole_visible_history_and_nothing_else() -> None:
    KIT.check_prompt_history(seeds=range(2))


def test_prompt_examples_fit_the_decision_schemas() -> None:
    KIT.check_prompt_contract(seeds=range(4))
