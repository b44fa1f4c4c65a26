"""The board's model fitted to a tournament's games, with deal-bootstrap intervals: every
quantity the board reports (a skill, a difference, a side advantage, the chance one entrant
beats another) is a contrast or a function of the parameters, estimated at the fit and at
each resample (:mod:`duskfall.rating.intervals`), and given a number only where the games
determine it (:mod:`duskfall.rating.identified`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from duskfall.rating.bradley_terry import Design, Parameters, RatedGame, Vector, anchored, sigmoid
from duskfall.rating.identified import Identification
from duskfall.rating.intervals import DealResampler, critical, standard_error

LEVEL = 0.95


@dataclass(frozen=True)
class Estimate:
    """A point with its interval (NaN bounds: no interval could be formed). ``reason`` set:
    the games do not determine the quantity (:mod:`duskfall.rating.identified`), so it has no
    number at all and says why."""

    point: float
    low: float = math.nan
    high: float = math.nan
    se: float = math.nan
    reason: str = ""

    @property
    def measured(self) -> bool:
        return not self.reason

    @property
    def known(self) -> bool:
        return not math.isnan(self.low)

    def excludes_zero(self) -> bool:
        return self.known and (self.low > 0 or self.high < 0)

    def scaled(self, factor: float, offset: float = 0.0) -> Estimate:
        return Estimate(
            offset + factor * self.point,
            offset + factor * self.low,
            offset + factor * self.high,
            abs(factor) * self.se,
            self.reason,
        )

    def format(self, spec: str = "+.2f") -> str:
        """``point [low, high]`` with this format spec (``-``: no value; ``not measured``:
        the design does not determine it)."""
        if self.reason:
            return NOT_MEASURED
        if math.isnan(self.point):
            return "-"
        if not self.known:
            return format(self.point, spec)
        return f"{self.point:{spec}} [{self.low:{spec}}, {self.high:{spec}}]"

    def to_dict(self) -> dict[str, float | str | None]:
        out: dict[str, float | str | None] = {k: _json_float(getattr(self, k)) for k in _FIELDS}
        if self.reason:
            out["not_measured"] = self.reason
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Estimate:
        point, low, high, se = (
            math.nan if data.get(k) is None else float(data[k]) for k in _FIELDS
        )
        return cls(point, low, high, se, str(data.get("not_measured") or ""))


_FIELDS = ("point", "low", "high", "se")
NOT_MEASURED = "not measured"


def unmeasured(reason: str) -> Estimate:
    """A quantity the games do not determine (only the prior would give it a number)."""
    return Estimate(math.nan, reason=reason)


def _json_float(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 5)


Many = Callable[[NDArray[np.float64]], NDArray[np.float64]]
"""A quantity of the parameters, for every row of a matrix of parameter vectors at once."""


@dataclass
class Fit:
    """The model fitted to the games, and refitted to ``bootstrap`` deal resamples."""

    design: Design
    theta: Vector
    samples: list[Vector]
    reference: str | None
    multiplier: float | None = None  # replaces t(deals - 1) (a sequential look's boundary)
    _identification: Identification | None = field(default=None, repr=False)
    _matrix: NDArray[np.float64] | None = field(default=None, repr=False)

    @property
    def params(self) -> Parameters:
        return self.design.params

    @property
    def deals(self) -> int:
        return self.design.deals

    @property
    def sample_matrix(self) -> NDArray[np.float64]:
        """The resamples' parameters, one row each."""
        if self._matrix is None or len(self._matrix) != len(self.samples):
            size = self.params.size
            self._matrix = np.asarray(self.samples, dtype=np.float64).reshape(-1, size)
        return self._matrix

    def estimate(self, quantity: Callable[[Vector], float], level: float = LEVEL) -> Estimate:
        """A quantity of the parameters with its interval."""
        return self._interval(quantity(self.theta), [quantity(s) for s in self.samples], level)

    def linear(self, contrast: Vector, level: float = LEVEL) -> Estimate:
        """``contrast @ theta`` with its interval (every resample in one product)."""
        return self._interval(float(self.theta @ contrast), self.sample_matrix @ contrast, level)

    def many(self, quantity: Many, level: float = LEVEL) -> Estimate:
        """A vectorised quantity with its interval."""
        point = float(quantity(self.theta[None, :])[0])
        return self._interval(point, quantity(self.sample_matrix), level)

    def _interval(
        self, point: float, values: Sequence[float] | NDArray[np.float64], level: float
    ) -> Estimate:
        se = standard_error(values, self.deals)
        if math.isnan(se):
            return Estimate(point)
        multiplier = critical(level, self.deals) if self.multiplier is None else self.multiplier
        half = multiplier * se
        return Estimate(point, point - half, point + half, se)

    def skills(self, theta: Vector) -> Any:
        return anchored(self.params, theta, self.reference)

    @property
    def identification(self) -> Identification:
        if self._identification is None:
            self._identification = Identification(self.design)
        return self._identification

    def identified(self, kind: str, entrant: str) -> bool:
        """Whether the games measure this entrant's anchored ``deception``/``detection`` (with
        two entrants that only ever face each other, only their sum is measured)."""
        return self.identification.contrast(skill(self, kind, entrant))

    def measured(self, contrast: Vector, reason: Callable[[], str]) -> Estimate:
        """``contrast @ theta`` with its interval if the games determine it, else why not."""
        if not self.identification.contrast(contrast):
            return unmeasured(reason())
        return self.linear(contrast)

    def measured_many(self, quantity: Many, reason: Callable[[], str]) -> Estimate:
        """A nonlinear quantity, if the games determine it near the fit, else why not."""
        if not self.identification.quantity(lambda t: float(quantity(t[None, :])[0]), self.theta):
            return unmeasured(reason())
        return self.many(quantity)


def fit_games(
    games: Sequence[RatedGame],
    entrants: Sequence[str],
    *,
    reference: str | None = None,
    role_effects: bool = False,
    bootstrap: int = 200,
    seed: int = 0,
) -> Fit:
    """Fit the model and its deal resamples (seeded: the same games give the same numbers).
    Each resample's fit starts from the full fit (warm: a few Newton steps)."""
    design = Design(games, entrants, role_effects=role_effects)
    theta = design.fit()
    samples = []
    if design.deals > 1:
        resampler = DealResampler([g.deal for g in design.games], seed)
        for _ in range(bootstrap):
            counts = resampler.counts()
            samples.append(design.fit(design.deal_weights(counts), start=theta))
    return Fit(design, theta, samples, reference)


def skill(fit: Fit, kind: str, name: str) -> Vector:
    """The contrast of an anchored skill (``deception``, ``detection`` or ``overall``)."""
    if kind == "overall":
        return (skill(fit, "deception", name) + skill(fit, "detection", name)) / 2
    return fit.design.skill_contrast(kind, name, fit.reference)


def difference(fit: Fit, kind: str, a: str, b: str) -> Vector:
    return skill(fit, kind, a) - skill(fit, kind, b)


def role_effect(fit: Fit, number: int) -> Vector:
    c = np.zeros(fit.params.size)
    c[fit.params.role(number)] = 1.0
    return c


def side_contrast(fit: Fit, block: str) -> Vector:
    """The block's side advantage with the anchor's shift (:func:`anchored`)."""
    p = fit.params
    c = np.zeros(p.size)
    c[p.side(p.blocks.index(block))] = 1.0
    d = fit.design.skill_contrast("deception", p.entrants[0], fit.reference)
    t = fit.design.skill_contrast("detection", p.entrants[0], fit.reference)
    d[p.deception(0)] -= 1.0  # left: minus the anchor of deception
    t[p.detection(0)] -= 1.0
    return c - d + t


def beats(fit: Fit, a: str, b: str, shares: Mapping[str, float]) -> Many:
    """Logit of the chance that ``a`` beats ``b``: a's evil side against b's village and the
    other way round, equally, averaged over the blocks by their share of the games (the anchor
    cancels out of ``h + deception - detection``)."""
    p = fit.params
    i, j = p.entrants.index(a), p.entrants.index(b)
    columns = [p.side(p.blocks.index(block)) for block in shares]
    weights = np.asarray(list(shares.values()), dtype=np.float64)

    def get(theta: NDArray[np.float64]) -> NDArray[np.float64]:
        h = theta[:, columns]
        as_evil = sigmoid(h + (theta[:, p.deception(i)] - theta[:, p.detection(j)])[:, None])
        as_village = 1 - sigmoid(h + (theta[:, p.deception(j)] - theta[:, p.detection(i)])[:, None])
        chance = np.clip(((as_evil + as_village) / 2) @ weights, 1e-9, 1 - 1e-9)
        return np.asarray(np.log(chance / (1 - chance)), dtype=np.float64)

    return get


def logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def probability(estimate: Estimate) -> Estimate:
    """A logit estimate as a probability (the interval mapped through, so it still holds)."""
    p = [
        logistic(v) if not math.isnan(v) else math.nan
        for v in (estimate.point, estimate.low, estimate.high)
    ]
    return Estimate(p[0], p[1], p[2], math.nan, estimate.reason)


def pair_differences(fit: Fit) -> dict[tuple[str, str], tuple[float, float]]:
    """(difference, se) of overall skill for every pair of entrants (in entrant order);
    (NaN, NaN) for a pair the games do not measure."""
    out = {}
    for a, b in itertools.combinations(fit.params.entrants, 2):
        contrast = difference(fit, "overall", a, b)
        if not fit.identification.contrast(contrast):
            out[a, b] = (math.nan, math.nan)
            continue
        samples = fit.sample_matrix @ contrast
        out[a, b] = (float(fit.theta @ contrast), standard_error(samples, fit.deals))
    return out
