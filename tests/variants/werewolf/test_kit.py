"""Werewolf passes the variant test kit, for every preset and the rule options."""

from pathlib import Path

from duskfall.variants.werewolf.testing import scramble_hidden
from kit import VariantKit

CONFIGS = [
    {"preset": "werewolf-12"},
    {"preset": "werewolf-9", "win_condition": "all-kill", "guarded_and_saved": "dies"},
    {"preset": "werewolf-6", "badge": False, "hunter_shot": False, "day_limit": 3},
]
KIT = VariantKit(
    "werewolf",
    configs=CONFIGS,
    scramble=scramble_hidden,
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
    KIT.check_playouts()


def test_replay_reproduces_logs(tmp_path: Path) -> None:
    KIT.check_replay(tmp_path, agents="heuristic", games=3)
    KIT.check_replay(tmp_path, agents="random", games=3)


def test_no_seat_sees_hidden_information() -> None:
    KIT.check_no_leak()
