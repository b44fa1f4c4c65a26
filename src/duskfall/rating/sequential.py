"""``stop = "separated"``: look at planned points, stop once every pair is told apart or cannot
be within the cap, with error rates that hold however many looks are taken.

Looking at the intervals after every game and stopping as soon as they separate would declare
two copies of one agent different far more often than 5%: each look is another chance for luck
to cross the line. The rule here is *group-sequential with alpha spending* (Lan and DeMets,
with the O'Brien-Fleming-type spending function ``alpha(t) = 2 - 2 Phi(z_{alpha/2} / sqrt(t))``
over the information fraction ``t`` = games played / the cap):

* the looks are planned before the first game (``looks`` of them, at the ends of deals
  spread evenly up to the cap), so they cannot follow the data;
* at look ``k`` a pair is separated when ``|difference| / se`` reaches the look's boundary
  ``c_k``, computed so that the chance of ever crossing, for two equal entrants, is the
  spending function's ``alpha(t_k)`` by look k and ``alpha = 5%`` by the cap (the boundaries
  come from the joint normal law of the looks, by numerical integration); as at a fixed size,
  the boundary's nominal level is read on Student's t with deals - 1 degrees of freedom;
* a separated pair stays separated; a pair *cannot be separated within the cap* when the
  chance of crossing the last boundary is under 5% even were its true difference at the
  optimistic end of its current estimate (the upper bound of a one-sided 90% interval:
  conditional power under an optimistic drift, so that a real but still uncertain gap is
  not given up early); stopping for this never raises the false-separation rate;
* the tournament stops at the first look where every pair is one or the other.

Why this and not a confidence sequence: a confidence sequence allows a look after every game,
but pays for it with intervals about 1.5-2 times wider at any fixed size, so it needs more
games for the same gap. Planned looks are cheap here (a tournament can pause between deals)
and O'Brien-Fleming spending keeps the last boundary close to the fixed-size 1.96 (2.10 for 8
looks), so a tournament that runs to its cap loses almost nothing, while a clear gap stops at
an early look. The interval reported for a pair at a look is the repeated confidence interval
``difference +- c_k se``, valid simultaneously over all looks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import optimize, stats

ALPHA = 0.05
FUTILITY = 0.05  # conditional power below which a pair is given up
OPTIMISM = 1.2816  # the drift is the estimate plus this many standard errors (one-sided 90%)
GRID = 601
CAP = 40.0  # a boundary no z reaches (a look that spends nothing)
RULE = "group-sequential, Lan-DeMets O'Brien-Fleming alpha spending"


def spent(t: float, alpha: float = ALPHA) -> float:
    """The O'Brien-Fleming-type spending function: alpha used by information fraction t."""
    if t <= 0:
        return 0.0
    z = stats.norm.ppf(1 - alpha / 2)
    return float(2 - 2 * stats.norm.cdf(z / math.sqrt(min(t, 1.0))))


Grid = np.ndarray[Any, np.dtype[np.float64]]


@lru_cache(maxsize=64)
def boundaries(fractions: tuple[float, ...], alpha: float = ALPHA) -> tuple[float, ...]:
    """Two-sided |Z| boundaries at the looks with these information fractions (increasing,
    the last 1), so that two equal entrants cross one with probability ``alpha`` in all.

    Works on ``S = Z sqrt(t)``, a Brownian motion in information time: the sub-density of S
    over the paths that have not crossed yet is carried from look to look on a grid
    (trapezoid rule), and each boundary solves "the chance of crossing first here is what the
    spending function allows here"."""
    out: list[float] = []
    previous_t = 0.0
    grid: Grid | None = None  # S values where no boundary has been crossed
    density: Grid | None = None  # the sub-density of S there
    for t in fractions:
        target = spent(t, alpha) - spent(previous_t, alpha)
        if grid is None or density is None:
            c = float(stats.norm.isf(target / 2)) if target > 0 else CAP
        elif target > 1e-15:
            mass = _trapezoid(grid) * density
            step = math.sqrt(t - previous_t)
            c = float(optimize.brentq(_crossing, 0.1, CAP, args=(t, step, grid, mass, target)))
        else:
            c = CAP
        out.append(c)
        grid, density = _carry(grid, density, min(c, CAP) * math.sqrt(t), t, previous_t)
        previous_t = t
    return tuple(out)


def _crossing(c: float, t: float, step: float, grid: Grid, mass: Grid, target: float) -> float:
    """The chance of crossing the boundary ``c`` at fraction ``t``, less ``target``."""
    bound = c * math.sqrt(t)
    tail = stats.norm.sf((bound - grid) / step) + stats.norm.cdf((-bound - grid) / step)
    return float(mass @ tail) - target


def _carry(
    grid: Grid | None, density: Grid | None, bound: float, t: float, previous_t: float
) -> tuple[Grid, Grid]:
    """The grid and sub-density of S at fraction ``t`` inside ``[-bound, bound]``."""
    new_grid = np.linspace(-bound, bound, GRID)
    if grid is None or density is None:
        return new_grid, stats.norm.pdf(new_grid / math.sqrt(t)) / math.sqrt(t)
    step = math.sqrt(t - previous_t)
    kernel = stats.norm.pdf((new_grid[:, None] - grid[None, :]) / step) / step
    return new_grid, kernel @ (_trapezoid(grid) * density)


def _trapezoid(grid: Grid) -> Grid:
    h = grid[1] - grid[0] if len(grid) > 1 else 1.0
    w = np.full(len(grid), h)
    w[0] = w[-1] = h / 2
    return w


def nominal_level(boundary: float) -> float:
    """The two-sided nominal significance of a normal boundary."""
    return float(2 * stats.norm.sf(boundary))


def t_boundary(boundary: float, deals: int) -> float:
    """A normal boundary read on Student's t with ``deals - 1`` degrees of freedom (the same
    nominal level), as fixed-size intervals are."""
    if deals < 2:
        return math.inf
    return float(stats.t.isf(nominal_level(boundary) / 2, deals - 1))


def conditional_power(
    z: float, t: float, final_boundary: float, optimism: float = OPTIMISM
) -> float:
    """The chance that a pair at ``z`` at fraction ``t`` ends beyond the last boundary, were its
    true difference its current estimate plus ``optimism`` standard errors (Brownian motion in
    information time, total information 1: the estimate is ``z / sqrt(t)`` with se
    ``1 / sqrt(t)``)."""
    if t >= 1:
        return float(abs(z) >= final_boundary)
    s = z * math.sqrt(t)
    drift = math.copysign((abs(z) + optimism) / math.sqrt(t), z if z else 1.0)
    mean, sd = s + drift * (1 - t), math.sqrt(1 - t)
    up = stats.norm.sf((final_boundary - mean) / sd)
    down = stats.norm.cdf((-final_boundary - mean) / sd)
    return float(up + down)


@dataclass(frozen=True)
class LookPlan:
    """Where the looks are: after ``games[k]`` games of the schedule (whole deals), at
    information fraction ``fractions[k]``, with normal boundary ``boundaries[k]``."""

    games: tuple[int, ...]
    fractions: tuple[float, ...]
    boundaries: tuple[float, ...]
    cap: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": RULE,
            "alpha": ALPHA,
            "futility": FUTILITY,
            "cap": self.cap,
            "looks": [
                {"games": g, "fraction": round(f, 4), "boundary": round(b, 4)}
                for g, f, b in zip(self.games, self.fractions, self.boundaries, strict=True)
            ],
        }


def plan_looks(deal_sizes: Sequence[int], looks: int) -> LookPlan:
    """``looks`` looks at the ends of deals nearest to k/looks of the cap (games in deals of
    ``deal_sizes``, in schedule order); the last is the cap."""
    ends = list(np.cumsum(deal_sizes))
    cap = int(ends[-1]) if ends else 0
    chosen: list[int] = []
    for k in range(1, looks + 1):
        target = cap * k / looks
        end = min(ends, key=lambda e: (abs(e - target), e)) if ends else 0
        if end and (not chosen or end > chosen[-1]):
            chosen.append(int(end))
    if chosen and chosen[-1] != cap:
        chosen.append(cap)
    fractions = tuple(g / cap for g in chosen)
    return LookPlan(tuple(chosen), fractions, boundaries(fractions) if chosen else (), cap)


@dataclass
class PairLook:
    """One pair at one look."""

    difference: float
    se: float
    deals: int
    boundary: float  # on t, this look's
    z: float = field(init=False)

    def __post_init__(self) -> None:
        self.z = self.difference / self.se if self.se > 0 else 0.0


@dataclass
class PairState:
    """A pair's verdict so far under the rule."""

    separated_at: int | None = None  # look number (0-based) where it crossed
    futile_at: int | None = None

    @property
    def resolved(self) -> bool:
        return self.separated_at is not None or self.futile_at is not None


def judge(state: PairState, look: int, pair: PairLook, plan: LookPlan) -> PairState:
    """Update a pair's verdict with its figures at look ``look``."""
    if state.separated_at is not None:
        return state
    if pair.se > 0 and abs(pair.z) >= pair.boundary:
        return PairState(separated_at=look)
    final = t_boundary(plan.boundaries[-1], max(2, round(pair.deals / plan.fractions[look])))
    power = conditional_power(pair.z, plan.fractions[look], final)
    last = look == len(plan.games) - 1
    if last or power < FUTILITY:
        return PairState(futile_at=look)
    return PairState()
