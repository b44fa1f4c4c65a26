"""A finished game is freed by reference counting: it leaves no cyclic garbage behind.

A game caught in a reference cycle is only freed by the cyclic garbage collector, after it
has been promoted to the oldest generation; every full collection then scans the whole heap,
which was a third of the time of bot games through the scheduler.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from duskfall.session import GameSetup, run_game


@pytest.fixture
def no_automatic_collection() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("variant", "agents"),
    [("sports-mafia", "random"), ("mafia", "random"), ("werewolf", "heuristic")],
)
def test_a_played_game_leaves_no_cycles(
    no_automatic_collection: None, variant: str, agents: str
) -> None:
    asyncio.run(run_game(GameSetup(variant, seed=3, agents=agents, write_log=False)))
    gc.collect()  # what asyncio.run itself leaves (its loop), then one more game
    game = asyncio.run(run_game(GameSetup(variant, seed=4, agents=agents, write_log=False)))
    assert game.state.outcome() is not None
    del game
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        found = gc.collect()
        kinds = sorted({type(item).__name__ for item in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert found == 0, f"cyclic garbage left by a game: {kinds}"
