"""The kit's own behaviour: its exports, clear errors, and the random player's game records."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import duskfall.testing
from duskfall.core.errors import MissingDependency
from duskfall.core.registry import get_variant
from duskfall.testing import VariantKit, play_random, play_random_game
from duskfall.testing.api import check_api_game


def test_every_export_resolves() -> None:
    for name in duskfall.testing.__all__:
        assert getattr(duskfall.testing, name) is not None
    with pytest.raises(AttributeError):
        duskfall.testing.no_such_thing  # noqa: B018


def test_play_random_counts_decisions_and_repeats_itself() -> None:
    variant = get_variant("mafia")
    game = play_random_game(variant, {"players": 5}, 3)
    state, events = play_random(variant, {"players": 5}, 3)
    assert game.decisions > 0 and game.state.outcome() == state.outcome()
    assert [e.to_dict() for e in game.events] == [e.to_dict() for e in events]


def test_jsonschema_is_a_clear_missing_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    from duskfall.testing import api

    monkeypatch.setitem(sys.modules, "jsonschema", None)
    monkeypatch.setattr(api, "_VALIDATORS", {})
    with pytest.raises(MissingDependency, match=r"pip install 'duskfall\[test\]'"):
        check_api_game(get_variant("mafia"), {"players": 5}, 0)


def test_unknown_check_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="api, determinism"):
        VariantKit("mafia").run("speed", tmp_path)
