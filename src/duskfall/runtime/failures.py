"""Failing seats: decisions a seat failed in a row (every attempt raised: no answer at all).

The scheduler notes every settled round; once a seat has failed ``limit`` decisions in a row,
:meth:`FailureStreaks.note` says why, so that the game can stop (``on_seat_failure="abort"``)
instead of playing a broken seat's fallbacks to the end. Any answer, even a refused one, or a
timeout (a person may walk away; a server seat has its stand-ins) ends a seat's streak.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from duskfall.runtime.handler import HandlerResult


class FailureStreaks:
    """How many decisions in a row each seat has failed."""

    def __init__(self, limit: int, describe: Callable[[int], str]) -> None:
        self.limit = limit
        self.describe = describe
        self.streaks: dict[int, int] = {}

    def note(self, results: Iterable[HandlerResult]) -> str | None:
        """Count a round's decisions; the reason to stop if a seat reached the limit."""
        stop: str | None = None
        for result in results:
            if not result.failures and not self.streaks:
                continue  # nobody failed, nobody is on a streak (almost every round)
            for seat in result.actions:
                error = result.failures.get(seat)
                if error is None:
                    self.streaks.pop(seat, None)
                    continue
                streak = self.streaks[seat] = self.streaks.get(seat, 0) + 1
                if streak >= self.limit and stop is None:
                    stop = (
                        f"seat {seat} ({self.describe(seat)}) failed {streak} decisions in a "
                        f"row (last: {error})"
                    )
        return stop
