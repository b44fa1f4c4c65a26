"""Classic mafia passes the variant test kit, with and without coordination and multi-role."""

from pathlib import Path

from duskfall.variants.mafia.scramble import scramble_hidden
from kit import VariantKit

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
    scramble=scramble_hidden,
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
    KIT.check_playouts()


def test_replay_reproduces_logs(tmp_path: Path) -> None:
    KIT.check_replay(tmp_path, games=3)


def test_no_seat_sees_hidden_information() -> None:
    KIT.check_no_leak()
