"""Random play: the kit's game driver and the "every random game ends" check."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.outcome import Termination
from duskfall.core.rng import derive_rng
from duskfall.core.variant import State, Variant, parse_config

MAX_STEPS = 20_000


class RandomGame:
    """A finished random game: its final state, its rules events and how many decisions it took."""

    __slots__ = ("decisions", "events", "state")

    def __init__(self, state: State, events: list[Event], decisions: int) -> None:
        self.state = state
        self.events = events
        self.decisions = decisions


def play_random_game(
    variant: Variant,
    config: Mapping[str, Any],
    seed: int,
    *,
    on_decision: Callable[[State], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> RandomGame:
    """Play ``seed`` with uniformly random legal actions: a random pending seat acts each step.

    ``on_decision(state)`` is called before every decision (the kit's checks hook in there).
    The choices come from ``derive_rng(seed, "kit")``, so a seed always plays the same game.
    """
    state = variant.new_game(parse_config(variant, config), seed)
    events = list(state.opening_events())
    rng = derive_rng(seed, "kit")
    for step in range(max_steps):
        if state.outcome() is not None:
            return RandomGame(state, events, step)
        pending = state.pending()
        assert pending, f"seed {seed}: no outcome but nobody to act"
        if on_decision is not None:
            on_decision(state)
        decision = pending[rng.randrange(len(pending))]
        action = state.legal(decision.seat).sample(rng)
        events.extend(state.apply(decision.seat, action))
    raise AssertionError(f"game with seed {seed} did not end within {max_steps} steps")


def play_random(
    variant: Variant,
    config: Mapping[str, Any],
    seed: int,
    *,
    on_decision: Callable[[State], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> tuple[State, list[Event]]:
    """:func:`play_random_game`, returning the final state and the rules events."""
    game = play_random_game(variant, config, seed, on_decision=on_decision, max_steps=max_steps)
    return game.state, game.events


def check_playouts(
    variant: Variant, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]
) -> None:
    """Every random game ends, with a winner among the variant's teams or a draw."""
    seed_list = list(seeds)
    for config in configs:
        for seed in seed_list:
            outcome = play_random_game(variant, config, seed).state.outcome()
            assert outcome is not None
            if outcome.termination is Termination.WIN:
                assert outcome.winner in variant.teams, (
                    f"seed {seed}: winner {outcome.winner!r} is not one of {variant.teams}"
                )
            else:
                assert outcome.winner is None, f"seed {seed}: a draw with a winner"
