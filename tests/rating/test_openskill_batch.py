"""The vectorised OpenSkill updates give the library's own numbers, game by game."""

from __future__ import annotations

import random

import pytest

from duskfall.rating.bradley_terry import RatedGame, RatedSeat
from duskfall.rating.openskill import openskill_model, openskill_table, openskill_tables

NAMES = ["a", "b", "c", "d"]


def _games(n: int, seed: int) -> list[RatedGame]:
    """One entrant a side, shared sides (``mixed``: uneven shares, an entrant on both sides)
    and draws."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 3:
            evil, village = rng.sample(NAMES, 2)
            seats = [RatedSeat(evil, "w", "evil")] * 2 + [RatedSeat(village, "v", "village")] * 7
        else:
            seats = [
                RatedSeat(rng.choice(NAMES), "w" if s < 3 else "v", "evil" if s < 3 else "village")
                for s in range(10)
            ]
        result = rng.choice([0.0, 1.0, 1.0, 0.5])
        out.append(RatedGame("b", i, tuple(seats), result))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_order_gives_the_librarys_ratings(seed: int) -> None:
    games = _games(120, seed)
    orders = [list(range(len(games))), list(range(0, len(games), 2)), [5, 5, 9, 1]]
    model = openskill_model()
    for order, batch in zip(orders, openskill_tables(games, orders), strict=True):
        one_by_one = openskill_table([games[i] for i in order], model)
        assert set(batch) == set(one_by_one)
        for name, (mu, sigma) in one_by_one.items():
            assert batch[name][0] == pytest.approx(mu, abs=1e-9)
            assert batch[name][1] == pytest.approx(sigma, abs=1e-9)
