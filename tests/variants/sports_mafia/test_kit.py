"""Sports mafia passes the variant test kit."""

from pathlib import Path

from duskfall.variants.sports_mafia.testing import scramble_hidden
from kit import VariantKit

KIT = VariantKit("sports-mafia", configs=[{}, {"day_limit": 2}], scramble=scramble_hidden)


def test_api_contract() -> None:
    KIT.check_api()


def test_determinism_by_seed() -> None:
    KIT.check_determinism()


def test_runtime_determinism(tmp_path: Path) -> None:
    KIT.check_runtime_determinism(tmp_path)


def test_random_playouts_terminate() -> None:
    KIT.check_playouts()


def test_replay_reproduces_logs(tmp_path: Path) -> None:
    KIT.check_replay(tmp_path)


def test_no_seat_sees_hidden_information() -> None:
    KIT.check_no_leak()
