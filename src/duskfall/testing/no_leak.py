"""The no-leak check: a seat's view, choices and prompts depend only on what it may know.

``scramble(state, seat, rng) -> State`` (a variant's ``info.scramble_hidden``) returns a copy
of ``state`` in which everything ``seat`` may not know (other seats' hidden roles, others'
private results, other teams' chats...) is randomised. At sampled decisions of random games
the check asserts that the seat's observation, legal actions and prompts are unchanged by it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from duskfall.core.rng import derive_rng
from duskfall.core.variant import State, Variant
from duskfall.testing.playouts import play_random_game

ScrambleFn = Callable[[Any, int, random.Random], Any]


def scramble_of(variant: Variant, scramble: ScrambleFn | None = None) -> ScrambleFn:
    """``scramble`` if given, else the variant's declared ``info.scramble_hidden``."""
    found = scramble or variant.info.scramble_hidden
    if found is None:
        raise AssertionError(
            f"variant {variant.id!r} declares no scramble_hidden: set "
            "VariantInfo(scramble_hidden=...) (conventionally in its testing.py) or pass "
            "scramble= to the kit"
        )
    return found


def _check_seat(
    variant: Variant, state: State, seat: int, scramble: ScrambleFn, rng: random.Random
) -> None:
    view = state.observe(seat)
    other: State = scramble(state, seat, rng)
    assert other is not state, "scramble must return a copy"
    assert other.observe(seat) == view, f"seat {seat}'s observation depends on hidden information"
    if seat not in {d.seat for d in state.pending()}:
        return
    legal, other_legal = state.legal(seat), other.legal(seat)
    assert legal.to_wire() == other_legal.to_wire(), (
        f"seat {seat}'s legal actions depend on hidden information"
    )
    assert legal.describe() == other_legal.describe()
    assert variant.render_prompts(view, legal, None) == variant.render_prompts(
        other.observe(seat), other_legal, None
    ), f"seat {seat}'s prompts depend on hidden information"


def check_no_leak(
    variant: Variant,
    configs: Iterable[Mapping[str, Any]],
    seeds: Iterable[int],
    scramble: ScrambleFn | None = None,
) -> int:
    """Scramble what sampled seats may not know at every decision; return how many were checked."""
    scramble_fn = scramble_of(variant, scramble)
    seed_list = list(seeds)
    checked = 0
    for config in configs:
        for seed in seed_list:
            rng = derive_rng(seed, "kit-leak")

            def at_decision(state: State, rng: random.Random = rng) -> None:
                nonlocal checked
                pending = [d.seat for d in state.pending()]
                sample = rng.sample(pending, min(2, len(pending)))
                for seat in {*sample, rng.randrange(state.num_seats)}:
                    _check_seat(variant, state, seat, scramble_fn, rng)
                    checked += 1

            play_random_game(variant, config, seed, on_decision=at_decision)
    assert checked > 0, "no decision was checked"
    return checked
