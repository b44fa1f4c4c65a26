"""Intervals by deal: resample whole deals, and turn the spread into an interval.

The games of one deal are alike by design (the same cards, the same random streams), so they
are not independent: a bootstrap that resampled games one by one would count the luck of a
deal as if it were spread over unrelated games. :class:`DealResampler` draws whole deals with
replacement (every game of a drawn deal comes along, as often as the deal was drawn).

An interval is ``point +- q * se``: ``se`` is the standard deviation of the resampled values
times ``sqrt(D / (D - 1))`` (a bootstrap of D deals shrinks the variance of a mean by
``(D - 1) / D``), and ``q`` the two-sided quantile of Student's t with ``D - 1`` degrees of
freedom, the usual small-sample allowance when D clusters carry the information. The interval
is symmetric about its point, so it always holds it (a percentile interval of a shrunk or
order-dependent estimate need not).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from scipy import stats


class DealResampler:
    """Seeded resamples of a tournament's deals (``deal_of_game[i]``: game i's deal)."""

    def __init__(self, deal_of_game: Sequence[int], seed: int) -> None:
        order = list(dict.fromkeys(deal_of_game))  # deals in order of first game
        self.number = {deal: i for i, deal in enumerate(order)}
        self.games_of: list[list[int]] = [[] for _ in order]
        for game, deal in enumerate(deal_of_game):
            self.games_of[self.number[deal]].append(game)
        self.deals = len(order)
        self.rng = random.Random(seed)
        self._numpy = np.random.default_rng(seed)
        self._flat = np.asarray([g for games in self.games_of for g in games], dtype=np.int64)
        self._sizes = np.asarray([len(games) for games in self.games_of], dtype=np.int64)
        self._starts = np.cumsum(self._sizes) - self._sizes

    def counts(self) -> NDArray[np.int64]:
        """How often each deal is drawn in one resample (a multinomial of D draws)."""
        if self.deals == 0:
            return np.zeros(0, dtype=np.int64)
        return np.asarray(
            self._numpy.multinomial(self.deals, np.full(self.deals, 1 / self.deals)),
            dtype=np.int64,
        )

    def draw_in_order(self) -> list[int]:
        """The games of one resample, deals in their original order (repeats together)."""
        return [int(g) for g in self.draw_array()]

    def draw_array(self) -> NDArray[np.int64]:
        """:meth:`draw_in_order` as an array: ``D`` deals drawn uniformly from the seeded
        stream, sorted, each drawn deal's games in turn."""
        drawn = np.sort(
            np.floor(np.asarray([self.rng.random() for _ in range(self.deals)]) * self.deals)
        ).astype(np.int64)
        sizes = self._sizes[drawn]
        first = np.repeat(self._starts[drawn], sizes)
        within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        return self._flat[first + within]


def critical(level: float, deals: int) -> float:
    """The two-sided ``level`` quantile of t with ``deals - 1`` degrees of freedom."""
    if deals < 2:
        return math.inf
    return float(stats.t.ppf(0.5 + level / 2, deals - 1))


def standard_error(samples: Sequence[float] | NDArray[np.float64], deals: int) -> float:
    """The deal bootstrap's standard error (NaN without at least 2 samples and 2 deals)."""
    if len(samples) < 2 or deals < 2:
        return math.nan
    return float(np.std(np.asarray(samples, dtype=np.float64), ddof=1)) * math.sqrt(
        deals / (deals - 1)
    )


def symmetric_interval(
    point: float, samples: Sequence[float], deals: int, level: float = 0.95
) -> tuple[float, float]:
    """``point +- q se`` (NaNs when there is nothing to resample)."""
    se = standard_error(samples, deals)
    if math.isnan(se):
        return (math.nan, math.nan)
    half = critical(level, deals) * se
    return (point - half, point + half)
