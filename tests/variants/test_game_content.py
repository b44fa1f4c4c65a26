"""Random games of werewolf-12 and mafia-8 keep their exact content (not just their outcome).

The golden files pin each seed's decision count and outcome; these digests pin every event
(kind, payload, visibility, day, phase, in order), the observation of the seat asked at every
decision and the outcome, over a few dozen seeds of the test kit's random play. Speed work on
the rules must leave them unchanged; a deliberate rules change updates them (and the golden
files) after review.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.variant import State
from duskfall.testing.playouts import play_random_game

SEEDS = 30
DIGESTS = {
    ("werewolf", "werewolf-12"): "ab19ac68b0eae83e",
    ("mafia", "mafia-8"): "81fc962b345e66b8",
}
CONFIGS: dict[str, dict[str, Any]] = {
    "werewolf-12": {"preset": "werewolf-12"},
    "mafia-8": {"players": 8},
}


def game_content_digest(variant_id: str, config: dict[str, Any], seeds: int) -> str:
    digest = hashlib.sha256()

    def observe_asked(state: State) -> None:
        seat = state.pending()[0].seat
        digest.update(repr((seat, dict(state.observe(seat)))).encode())

    for seed in range(seeds):
        game = play_random_game(get_variant(variant_id), config, seed, on_decision=observe_asked)
        digest.update(repr([event.to_dict() for event in game.events]).encode())
        digest.update(repr(game.state.outcome()).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("variant_id", "table"), list(DIGESTS))
def test_random_games_play_exactly_as_recorded(variant_id: str, table: str) -> None:
    assert game_content_digest(variant_id, CONFIGS[table], SEEDS) == DIGESTS[variant_id, table]
