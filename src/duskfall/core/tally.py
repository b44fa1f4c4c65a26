"""One vote tally for every variant: weights, abstentions, the leaders and ties.

:func:`count` adds up casts ``(voter, target)`` in the order given: a target of None is an
abstention, left out of the counts unless ``nobody_counts`` (the wolves may agree on killing
nobody); ``weight`` gives a voter more than one vote (a sheriff's 1.5), counted then as floats.
What a tie means (nobody is chosen, a re-vote, a seeded draw) is each variant's own rule; the
counting is this one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

Target = int | None


@dataclass(frozen=True, slots=True)
class Tally:
    """``counts``: target -> votes, in the order the targets were first voted for; ``top``:
    the highest count (0 without votes); ``leaders``: the targets with it, in the order they
    were first voted for; ``abstained``: voters whose None was not counted."""

    counts: dict[Target, float]
    top: float
    leaders: tuple[Target, ...]
    abstained: tuple[int, ...]

    @property
    def winner(self) -> Target:
        """The one leader; None for a tie or no votes."""
        return self.leaders[0] if len(self.leaders) == 1 else None


def count(
    casts: Iterable[tuple[int, int | None]],
    weight: Callable[[int], float] | None = None,
    *,
    nobody_counts: bool = False,
) -> Tally:
    """The tally of ``casts`` (see the module docstring); counts are ints unless ``weight``."""
    counts: dict[Target, float] = {}
    abstained: list[int] = []
    for voter, target in casts:
        if target is None and not nobody_counts:
            abstained.append(voter)
            continue
        if weight is None:
            counts[target] = counts.get(target, 0) + 1
        else:
            counts[target] = counts.get(target, 0.0) + weight(voter)
    top = max(counts.values(), default=0.0 if weight is not None else 0)
    leaders = tuple(t for t, n in counts.items() if n == top)
    return Tally(counts, top, leaders, tuple(abstained))


def seats(tally: Tally) -> list[int]:
    """The leaders that are seats, ascending (a tie's list as the variants report it)."""
    return sorted(t for t in tally.leaders if t is not None)


def seats_of(tally: Tally) -> list[int]:
    """Every seat voted for, in the order first voted for."""
    return [t for t in tally.counts if t is not None]
