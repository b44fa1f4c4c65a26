"""Fast games for training and evaluation: the engine loop, agents chosen per side.

``play(seed, red, black)`` deals sports-mafia game ``seed`` and lets ``red(seat, rng)`` play
every RED seat and ``black(seat, rng)`` every BLACK seat (each seat's rng derived from the
seed, as in every duskfall game), answering simultaneous decisions in ascending seat order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.stats import Proportion
from duskfall.core.variant import parse_config

Factory = Callable[[int, random.Random], Any]
VARIANT = "sports-mafia"
RED, BLACK = "RED", "BLACK"


def bot_factory(name: str) -> Factory:
    bots = get_variant(VARIANT).bots()
    return bots[name]


def play(seed: int, red: Factory, black: Factory) -> str | None:
    """The winning side of one game (None for a draw)."""
    variant = get_variant(VARIANT)
    state = variant.new_game(parse_config(variant, {}), seed)
    seats = {}
    for seat in range(state.num_seats):
        factory = red if state.team_of(seat) == RED else black
        seats[seat] = factory(seat, derive_rng(seed, f"agent:{seat}"))
    while (outcome := state.outcome()) is None:
        for decision in sorted(state.pending(), key=lambda d: d.seat):
            legal = state.legal(decision.seat)
            action = seats[decision.seat].act(state.observe(decision.seat), legal)
            state.apply(decision.seat, legal.parse(action))
    return outcome.winner


def win_rate(seeds: Iterable[int], side: str, red: Factory, black: Factory) -> Proportion:
    wins = games = 0
    for seed in seeds:
        games += 1
        wins += play(seed, red, black) == side
    return Proportion(wins, games)
