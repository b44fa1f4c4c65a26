"""Whole games played by bots, stopping at every decision to look at what the seat is asked."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from duskfall.core.variant import parse_config
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.rules import WerewolfState

CONFIGS: list[dict[str, Any]] = [
    {"preset": "werewolf-12"},
    {"preset": "werewolf-9", "win_condition": "all-kill", "guarded_and_saved": "dies"},
    {"preset": "werewolf-6", "badge": False, "hunter_shot": False, "day_limit": 3},
    {"roles": ["Werewolf", "Werewolf", "Villager", "Villager", "Hunter", "Guard"], "day_limit": 4},
]


def new_state(config: Mapping[str, Any], seed: int) -> WerewolfState:
    state = VARIANT.new_game(parse_config(VARIANT, config), seed)
    assert isinstance(state, WerewolfState)
    return state


def decisions(
    state: WerewolfState, seed: int, bot: str = "heuristic"
) -> Iterator[tuple[int, Any, Any]]:
    """Play ``state`` to the end with ``bot`` at every seat; yield (seat, observation, legal)
    before each decision."""
    factory = VARIANT.bots()[bot]
    bots = {s: factory(s, random.Random(seed * 100 + s)) for s in range(state.num_seats)}
    while state.outcome() is None:
        seat = state.pending()[0].seat
        obs, legal = state.observe(seat), state.legal(seat)
        yield seat, obs, legal
        state.apply(seat, bots[seat].act(obs, legal))


def play(config: Mapping[str, Any], seed: int, bot: str = "heuristic") -> WerewolfState:
    """A whole game, played by ``bot``."""
    state = new_state(config, seed)
    for _ in decisions(state, seed, bot):
        pass
    return state
