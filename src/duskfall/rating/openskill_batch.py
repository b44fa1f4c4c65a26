"""OpenSkill's Plackett-Luce updates for two-team games, run on many game sequences at once.

The board's comparison column rates every deal resample game by game (:mod:`duskfall.arena.
ratings`): 200 resamples of a 10,000-game tournament are two million updates, minutes one by
one. Every game here is a match of two teams (the evil side, the village side), so the update
of ``openskill.models.PlackettLuce.rate`` (defaults: ``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6,
``kappa`` 1e-4, ``tau`` 25/300, weights normalised to [1, 2], no balance, no sigma limit)
reduces to a few array operations, done here for step ``t`` of every sequence together. The
numbers are OpenSkill's own to rounding (a test compares them with the library's).

For the two teams, with ``c^2 = s2_evil + s2_village + 2 beta^2`` (team ``s2``: the sum of its
members' ``sigma^2 + tau^2``) and ``p`` the evil team's ``exp(mu/c)`` share: ``delta = p (1-p)``
for both teams; ``omega`` is ``result - p`` for the evil team and ``(1 - result) - (1 - p)`` for
the village (result 1 evil won, 0 village, 0.5 a draw). Each member then moves by
``sigma^2 / s2`` of its team's ``omega s2 / c`` (times its weight when ``omega >= 0``, divided by
it otherwise), and its sigma shrinks by ``sqrt(max(1 - sigma^2 / s2 * delta', kappa))`` with
``delta' = delta s2 / c^2 * sqrt(s2) / c``. An entrant on both sides of a game gets the sum of
its two moves of ``mu`` and the smaller ``sigma`` (as :func:`duskfall.rating.openskill.
openskill_table` does).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from duskfall.core.sides import EVIL
from duskfall.rating.bradley_terry import RatedGame

MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 0.0001, 25.0 / 300.0
WEIGHT_BOUNDS = (1.0, 2.0)

Array = NDArray[np.float64]


class TwoTeamGames:
    """Each game's two teams: per side, its members' entrant numbers (padded with a spare
    column ``k`` that absorbs nothing real), weights and mask; the seats each entrant holds
    per side; and for each village member, its slot on the evil side if it holds both."""

    def __init__(self, games: Sequence[RatedGame], entrants: Sequence[str]) -> None:
        self.entrants = list(entrants)
        index = {name: i for i, name in enumerate(self.entrants)}
        k, n = len(self.entrants), len(games)
        teams = [
            [Counter(s.entrant for s in game.seats if s.side == EVIL) for game in games],
            [Counter(s.entrant for s in game.seats if s.side != EVIL) for game in games],
        ]
        width = max((len(team) for side in teams for team in side), default=1)
        self.index = np.full((2, n, width), k, dtype=np.int64)
        self.weight = np.ones((2, n, width))
        self.mask = np.zeros((2, n, width))
        self.partner = np.full((n, width), -1, dtype=np.int64)
        self.seats = np.zeros((2, n, k))
        self.result = np.asarray([g.result for g in games], dtype=np.float64)
        for g in range(n):
            shared = len(teams[0][g]) > 1 or len(teams[1][g]) > 1
            for side in (0, 1):
                team = teams[side][g]
                weights = _normalised([c / team.total() for c in team.values()])
                for slot, ((name, count), w) in enumerate(zip(team.items(), weights, strict=True)):
                    self.index[side, g, slot] = index[name]
                    self.mask[side, g, slot] = 1.0
                    self.weight[side, g, slot] = w if shared else 1.0
                    self.seats[side, g, index[name]] = count
            evil_slots = {name: slot for slot, name in enumerate(teams[0][g])}
            for slot, name in enumerate(teams[1][g]):
                self.partner[g, slot] = evil_slots.get(name, -1)


def _normalised(values: list[float]) -> list[float]:
    """OpenSkill's weight normalisation to [1, 2] (one member: 2; all equal: 1)."""
    low, high = WEIGHT_BOUNDS
    if len(values) == 1:
        return [high]
    span = (max(values) - min(values)) or 0.0001
    return [(v - min(values)) / span * (high - low) + low for v in values]


def rate_sequences(
    games: TwoTeamGames, sequences: NDArray[np.int64]
) -> tuple[Array, Array, NDArray[np.bool_]]:
    """``mu``, ``sigma`` and whether rated, per sequence and entrant, after rating the games
    ``sequences[r]`` in order (``-1``: no game, for sequences shorter than the longest)."""
    r, steps = sequences.shape
    k = len(games.entrants)
    mu = np.full((r, k + 1), MU)
    sigma = np.full((r, k + 1), SIGMA)
    seen = np.zeros((r, k + 1), dtype=bool)
    rows = np.arange(r)
    full = np.asarray((sequences >= 0).all(axis=0), dtype=bool)
    for t in range(steps):
        g = sequences[:, t]
        if full[t]:
            _step(games, g, rows, mu, sigma, seen)
        else:
            live = g >= 0
            _step(games, g[live], rows[live], mu, sigma, seen)
    return mu[:, :k], sigma[:, :k], seen[:, :k]


def _step(
    games: TwoTeamGames,
    g: NDArray[np.int64],
    chosen: NDArray[np.int64],
    mu: Array,
    sigma: Array,
    seen: NDArray[np.bool_],
) -> None:
    index = games.index[:, g]  # (2, R, M)
    mask = games.mask[:, g]
    weight = games.weight[:, g]
    where = chosen[None, :, None]
    start_mu = mu[where, index]
    inflated2 = sigma[where, index] ** 2 + TAU**2
    team_mu = (mask * start_mu).sum(axis=2)  # (2, R)
    team_s2 = (mask * inflated2).sum(axis=2)
    c = np.sqrt(team_s2[0] + team_s2[1] + 2 * BETA**2)
    e = np.exp(team_mu / c)
    p_evil = e[0] / (e[0] + e[1])
    result = games.result[g]
    omega = np.empty_like(team_s2)
    omega[0] = result - p_evil
    omega[1] = (1 - result) - (1 - p_evil)
    omega *= team_s2 / c
    delta = (p_evil * (1 - p_evil)) * team_s2 / c**2 * (np.sqrt(team_s2) / c)
    share = inflated2 / team_s2[:, :, None]  # (2, R, M)
    scale = np.where((omega >= 0)[:, :, None], weight, 1.0 / weight)
    moved = share * omega[:, :, None] * scale * mask
    new_sigma = np.sqrt(inflated2 * np.maximum(1 - share * delta[:, :, None] * scale, KAPPA))
    rows = chosen[:, None]
    mu[rows, index[0]] = start_mu[0] + moved[0]
    mu[rows, index[1]] += moved[1]  # after the evil side's move: one on both sides gets both
    sigma[rows, index[0]] = new_sigma[0]
    partner = games.partner[g]
    both = partner >= 0
    if both.any():  # an entrant on both sides keeps the smaller sigma
        evil_sigma = new_sigma[0][np.arange(len(g))[:, None], np.maximum(partner, 0)]
        sigma[rows, index[1]] = np.where(both, np.minimum(new_sigma[1], evil_sigma), new_sigma[1])
    else:
        sigma[rows, index[1]] = new_sigma[1]
    seen[rows, index[0]] = True
    seen[rows, index[1]] = True


def predict_evil(games: TwoTeamGames, g: NDArray[np.int64], mu: Array, sigma: Array) -> Array:
    """OpenSkill's ``predict_win`` for the evil team of games ``g`` with these (per entrant)
    ratings: ``Phi((mu_evil - mu_village) / sqrt(2 beta^2 + s2_evil + s2_village))``."""
    members = games.seats[:, g] > 0  # (2, G, K)
    team_mu = members @ mu
    team_s2 = members @ (sigma**2)
    z = (team_mu[0] - team_mu[1]) / np.sqrt(2 * BETA**2 + team_s2[0] + team_s2[1])
    return np.asarray(0.5 * (1 + _erf(z / math.sqrt(2))), dtype=np.float64)


def _erf(x: Array) -> Array:
    from scipy.special import erf

    return np.asarray(erf(x), dtype=np.float64)
