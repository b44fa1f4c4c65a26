"""What the games determine: a quantity of the board's model is *measured* only when the games
played fix it, whatever the prior says.

The board's model (:mod:`duskfall.rating.bradley_terry`) has more parameters than some designs
can tell apart. A quantity ``q(theta)`` is estimable when its gradient lies in the span of the
design rows of the games played (the likelihood moves with it); otherwise some change of the
parameters leaves every game's predicted outcome unchanged and moves ``q``: only the prior
decides it, and its "interval" is the prior's, not the games'. Two designs measure less than
they seem to:

* two entrants that only ever meet each other (``sides`` or ``duplicate`` with two): a win
  as the evil side is one's deception or the other's poor detection, so only the sum of each
  one's skills (its overall skill, relative to the other) is measured, never the two apart;
* every entrant holding the same number of seats at every table (``mixed`` before its shares
  varied): an entrant's village seats are then fixed by its evil seats, the games measure one
  blend of its deception and detection (weighted by side sizes), and not their mean, overall.

Role effects are shrunk deviations from an entrant's side skill, identified by their prior by
design, so their columns are left out of the check.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from duskfall.core.sides import EVIL
from duskfall.rating.bradley_terry import Design, RatedGame, Vector

STEP = 1e-5  # central differences of a nonlinear quantity
TOLERANCE = 1e-6

SAME_SHARES = (
    "every entrant holds the same number of seats at every table, so its village seats are "
    "fixed by its evil seats: the games measure one blend of its deception and detection, "
    "not their mean (vary the shares: the mixed schedule does, or play duplicate)"
)
ONLY_EACH_OTHER = (
    "two entrants that only meet each other: a win as the evil side is one's deception or the "
    "other's poor detection, so only the sum (overall) is measured, never the two apart"
)
NOT_DETERMINED = "the games played do not determine it (entrants never compared this way)"


class Identification:
    """The row space of a design's played games, to test quantities against."""

    def __init__(self, design: Design) -> None:
        self.design = design
        n, _ = design.totals()
        rows = design.rows[n > 0]
        self.columns = 2 * design.params.k + len(design.params.blocks)  # no role columns
        rows = rows[:, : self.columns]
        if len(rows):
            _, singular, vt = np.linalg.svd(rows, full_matrices=False)
            rank = int(np.sum(singular > TOLERANCE * max(1.0, float(singular[0]))))
            self.basis = vt[:rank]
        else:
            self.basis = np.zeros((0, self.columns))

    def contrast(self, c: Vector) -> bool:
        """Whether ``c @ theta`` is fixed by the games."""
        c = np.asarray(c[: self.columns], dtype=np.float64)
        norm = float(np.linalg.norm(c))
        if norm == 0.0:
            return True
        residual = c - self.basis.T @ (self.basis @ c)
        return float(np.linalg.norm(residual)) <= 1e-6 * norm

    def quantity(self, q: Callable[[Vector], float], theta: Vector) -> bool:
        """Whether ``q`` is fixed by the games near ``theta`` (its gradient is a contrast)."""
        gradient = np.zeros(len(theta))
        for i in range(self.columns):
            up, down = theta.copy(), theta.copy()
            up[i] += STEP
            down[i] -= STEP
            gradient[i] = (q(up) - q(down)) / (2 * STEP)
        return self.contrast(gradient)


def diagnosis(games: Sequence[RatedGame]) -> str:
    """Why a design may leave quantities unmeasured, in one sentence (see the module doc)."""
    entrants = sorted({s.entrant for g in games for s in g.seats})
    meetings = {
        frozenset(s.entrant for s in g.seats) for g in games if len({s.side for s in g.seats}) > 1
    }
    if len(entrants) == 2 and all(_one_a_side(g) for g in games) and meetings:
        return ONLY_EACH_OTHER
    counts: defaultdict[str, set[int]] = defaultdict(set)
    shared = False
    for game in games:
        held = Counter(s.entrant for s in game.seats)
        shared |= not _one_a_side(game)
        for name in entrants:
            counts[name].add(held.get(name, 0))
    if shared and all(len(c) == 1 for c in counts.values()):
        return SAME_SHARES
    return NOT_DETERMINED


def _one_a_side(game: RatedGame) -> bool:
    evil = {s.entrant for s in game.seats if s.side == EVIL}
    village = {s.entrant for s in game.seats if s.side != EVIL}
    return len(evil) == 1 and len(village) == 1
