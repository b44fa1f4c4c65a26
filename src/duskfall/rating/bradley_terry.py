"""The board's rating model: a Bradley-Terry (logistic) model of who wins, fitted to every game
of a tournament at once by penalised maximum likelihood.

For a game of block ``b`` (a variant and preset), the log-odds that the evil side wins are::

    logit P(evil wins) = h_b + sum over evil seats s of w_s (d[e_s] + r[e_s, role_s])
                             - sum over village seats s of w_s (t[e_s] + r[e_s, role_s])

* ``d[e]``: entrant ``e``'s *deception* skill (as the evil side), ``t[e]`` its *detection* skill
  (as the village); ``h_b``: how much the block favours the evil side between equal players;
* ``w_s``: the seat's share of its side (1 / seats on that side), so a side held by one entrant
  counts that entrant fully and a shared side splits it by seats held;
* ``r[e, role]``: optional per-role deviations of an entrant from its side skill (a seer who
  plays far better than the same entrant's villagers), shrunk towards 0 by a tight prior.

A draw counts as half a win for each side. Every parameter has a weak normal prior (the skills
``N(0, 2.5^2)``, the side advantage ``N(0, 4^2)``, role effects ``N(0, 0.5^2)``), which keeps
the fit finite when one entrant always wins and barely moves it otherwise. The fit is Newton's
method on the penalised log-likelihood, over the distinct design rows of the games (games with
the same seating pattern and block share a row), so refitting a bootstrap resample (deal
weights) costs a few small matrix products.

The likelihood only sees differences: adding ``c`` to every ``d`` (or every ``t``) is the same
model with ``h`` moved by ``c``. Reported skills are therefore anchored (:func:`anchored`): to a
named reference entrant, or to the field's mean.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from duskfall.core.sides import EVIL

SKILL_PRIOR_SD = 2.5
SIDE_PRIOR_SD = 4.0
ROLE_PRIOR_SD = 0.5
ELO_PER_LOGIT = 400 / math.log(10)  # an Elo gap of 400 is 10:1 odds
NEWTON_STEPS = 50
TOLERANCE = 1e-9

Vector = NDArray[np.float64]


@dataclass(frozen=True)
class RatedSeat:
    entrant: str
    role: str
    side: str  # "evil" or "village"


@dataclass(frozen=True)
class RatedGame:
    """One finished game as the model sees it. ``result``: 1 the evil side won, 0 the
    village, 0.5 a draw. ``deal`` groups the games played on one deal (resampled together)."""

    block: str
    deal: int
    seats: tuple[RatedSeat, ...]
    result: float


@dataclass
class Parameters:
    """Where each parameter sits in the vector: skills, side advantages, role effects."""

    entrants: list[str]
    blocks: list[str]
    roles: list[tuple[str, str, str]] = field(default_factory=list)  # (entrant, block, role)

    @property
    def k(self) -> int:
        return len(self.entrants)

    def deception(self, i: int) -> int:
        return i

    def detection(self, i: int) -> int:
        return self.k + i

    def side(self, b: int) -> int:
        return 2 * self.k + b

    def role(self, r: int) -> int:
        return 2 * self.k + len(self.blocks) + r

    @property
    def size(self) -> int:
        return 2 * self.k + len(self.blocks) + len(self.roles)

    def prior_precision(self) -> Vector:
        sd = np.concatenate(
            [
                np.full(2 * self.k, SKILL_PRIOR_SD),
                np.full(len(self.blocks), SIDE_PRIOR_SD),
                np.full(len(self.roles), ROLE_PRIOR_SD),
            ]
        )
        return np.asarray(1.0 / sd**2, dtype=np.float64)


class Design:
    """The games of a tournament as distinct design rows, ready to fit and refit.

    ``games`` may include entrants or blocks seen nowhere else (their parameters stay at the
    prior). ``role_effects`` adds the per-(entrant, role) deviations."""

    def __init__(
        self,
        games: Sequence[RatedGame],
        entrants: Sequence[str],
        *,
        role_effects: bool = False,
    ) -> None:
        blocks = sorted({g.block for g in games})
        roles = (
            sorted({(s.entrant, g.block, s.role) for g in games for s in g.seats})
            if role_effects
            else []
        )
        self.params = Parameters(list(entrants), blocks, roles)
        self._entrant = {name: i for i, name in enumerate(entrants)}
        self._block = {name: i for i, name in enumerate(blocks)}
        self._role = {key: i for i, key in enumerate(roles)}
        self.games = list(games)
        rows: dict[tuple[tuple[int, float], ...], int] = {}
        row_of_game = []
        for game in self.games:
            key = self._row(game)
            row_of_game.append(rows.setdefault(key, len(rows)))
        self.rows = np.zeros((len(rows), self.params.size))
        for key, number in rows.items():
            for column, value in key:
                self.rows[number, column] += value
        self.row_of_game = np.asarray(row_of_game, dtype=np.int64)
        self.results = np.asarray([g.result for g in self.games], dtype=np.float64)
        deals = sorted({g.deal for g in self.games})
        deal_number = {d: i for i, d in enumerate(deals)}
        self.deal_of_game = np.asarray([deal_number[g.deal] for g in self.games], dtype=np.int64)
        self.deals = len(deals)

    def _row(self, game: RatedGame) -> tuple[tuple[int, float], ...]:
        p = self.params
        evil_seats = sum(seat.side == EVIL for seat in game.seats)
        village_seats = len(game.seats) - evil_seats
        entries: dict[int, float] = {}
        if game.block in self._block:  # an unseen block: no side advantage (the prior's 0)
            entries[p.side(self._block[game.block])] = 1.0
        for seat in game.seats:
            evil = seat.side == EVIL
            weight = 1.0 / evil_seats if evil else -1.0 / village_seats
            i = self._entrant.get(seat.entrant)
            if i is None:
                continue
            column = p.deception(i) if evil else p.detection(i)
            entries[column] = entries.get(column, 0.0) + weight
            r = self._role.get((seat.entrant, game.block, seat.role))
            if r is not None:
                entries[p.role(r)] = entries.get(p.role(r), 0.0) + weight
        return tuple(sorted(entries.items()))

    def totals(self, game_weights: Vector | None = None) -> tuple[Vector, Vector]:
        """Per design row: games (weighted) and evil wins (weighted, draws half)."""
        w = np.ones(len(self.games)) if game_weights is None else game_weights
        rows = len(self.rows)
        n = np.bincount(self.row_of_game, weights=w, minlength=rows)
        s = np.bincount(self.row_of_game, weights=w * self.results, minlength=rows)
        return n.astype(np.float64), s.astype(np.float64)

    def deal_weights(self, deal_counts: NDArray[np.int64]) -> Vector:
        """Game weights of a resample that took deal ``i`` ``deal_counts[i]`` times."""
        return np.asarray(deal_counts[self.deal_of_game], dtype=np.float64)

    def fit(self, game_weights: Vector | None = None, start: Vector | None = None) -> Vector:
        """The penalised maximum-likelihood parameters (Newton's method)."""
        x, n, s = self._played(game_weights)
        precision = self.params.prior_precision()
        theta = np.zeros(self.params.size) if start is None else start.copy()
        for _ in range(NEWTON_STEPS):
            p = sigmoid(x @ theta)
            gradient = _gradient(x, n, s, p, precision, theta)
            hessian = (x.T * (n * p * (1 - p))) @ x + np.diag(precision)
            step = np.linalg.solve(hessian, gradient)
            theta = theta + step
            if float(np.max(np.abs(step))) < TOLERANCE:
                break
        return theta

    def _played(self, game_weights: Vector | None) -> tuple[NDArray[np.float64], Vector, Vector]:
        """The design rows of the games played (weight above 0), their games and evil wins."""
        n, s = self.totals(game_weights)
        used = n > 0
        return self.rows[used], n[used], s[used]

    def log_posterior(self, theta: Vector, game_weights: Vector | None = None) -> float:
        """The penalised log-likelihood the fit maximises (up to a constant): each row's
        binomial log-likelihood of its evil wins plus the normal priors' log densities."""
        x, n, s = self._played(game_weights)
        z = x @ theta
        prior = 0.5 * float(self.params.prior_precision() @ theta**2)
        return float(s @ z - n @ np.logaddexp(0.0, z)) - prior

    def gradient(self, theta: Vector, game_weights: Vector | None = None) -> Vector:
        """The gradient of :meth:`log_posterior` (the one Newton's method follows)."""
        x, n, s = self._played(game_weights)
        return _gradient(x, n, s, sigmoid(x @ theta), self.params.prior_precision(), theta)

    def estimable(self, contrast: Vector) -> bool:
        """Whether the games determine ``contrast @ theta`` (it lies in the span of the design
        rows of played games); else only the prior decides it."""
        n, _ = self.totals()
        rows = self.rows[n > 0]
        if not len(rows):
            return False
        weights, *_ = np.linalg.lstsq(rows.T, contrast, rcond=None)
        residual = float(np.linalg.norm(rows.T @ weights - contrast))
        return residual <= 1e-8 * max(1.0, float(np.linalg.norm(contrast)))

    def skill_contrast(self, kind: str, entrant: str, reference: str | None) -> Vector:
        """The vector of an anchored skill (``deception`` or ``detection``) of ``entrant``."""
        p = self.params
        c = np.zeros(p.size)
        offset = 0 if kind == "deception" else p.k
        c[offset + p.entrants.index(entrant)] += 1.0
        if reference is None:
            c[offset : offset + p.k] -= 1.0 / p.k
        else:
            c[offset + p.entrants.index(reference)] -= 1.0
        return c

    def predict(self, theta: Vector, games: Sequence[RatedGame]) -> Vector:
        """P(evil wins) of each game under ``theta`` (blocks or roles unseen in the fit: 0)."""
        rows = np.zeros((len(games), self.params.size))
        for i, game in enumerate(games):
            for column, value in self._row(game):
                rows[i, column] += value
        return sigmoid(rows @ theta)


def _gradient(
    x: NDArray[np.float64], n: Vector, s: Vector, p: Vector, precision: Vector, theta: Vector
) -> Vector:
    return np.asarray(x.T @ (s - n * p) - precision * theta, dtype=np.float64)


def sigmoid(z: Vector) -> Vector:
    return np.asarray(0.5 * (1 + np.tanh(0.5 * z)), dtype=np.float64)


@dataclass(frozen=True)
class Skills:
    """Anchored skills of every entrant (logits) and each block's side advantage."""

    deception: Mapping[str, float]
    detection: Mapping[str, float]
    side_advantage: Mapping[str, float]
    roles: Mapping[tuple[str, str, str], float]

    def overall(self, entrant: str) -> float:
        return (self.deception[entrant] + self.detection[entrant]) / 2


def anchored(params: Parameters, theta: Vector, reference: str | None = None) -> Skills:
    """``theta`` shifted so the reference entrant's skills (or the field's means) are 0; the
    side advantages absorb the shift, so every prediction is unchanged."""
    k = params.k
    d, t = theta[:k], theta[k : 2 * k]
    if reference is not None:
        i = params.entrants.index(reference)
        a, b = float(d[i]), float(t[i])
    else:
        a, b = float(d.mean()), float(t.mean())
    blocks = theta[2 * k : 2 * k + len(params.blocks)]
    roles = theta[2 * k + len(params.blocks) :]
    return Skills(
        {e: float(d[i]) - a for i, e in enumerate(params.entrants)},
        {e: float(t[i]) - b for i, e in enumerate(params.entrants)},
        {blk: float(blocks[i]) + a - b for i, blk in enumerate(params.blocks)},
        {key: float(roles[i]) for i, key in enumerate(params.roles)},
    )
