"""Numeric helpers of the variants' learning encoders (numpy; see :mod:`duskfall.core.learning`).

An encoder belongs to one seat of one game: ``features`` turns the seat's observation
(``observe``, so nothing the seat may not know) into a fixed-size float32 vector, incrementally
where it reads the history; ``mask`` (given the legal view and the same observation) marks the
entries of the :class:`Menu` the legal view allows; ``action`` turns an index back into the
variant's action. Decisions nobody asks of the seat get the NONE entry only.

The menu:

With ``N`` seats an action is an index in ``0 .. 4N+2`` (``size(N)`` of them):

====================  =====================================================================
index                 meaning
====================  =====================================================================
``i`` (0..N-1)        TARGET seat ``i``: vote, kill, check, protect, poison, nominate...
``N``                 NONE: abstain, pass, skip, "no" (and "say nothing" in a speech)
``N+1``               YES: a yes/no question's yes; the witch's antidote
``N+2+i``             ACCUSE seat ``i`` (a statement: "I suspect seat i")
``2N+2+i``            CLAIM_BAD seat ``i``: claim the investigating role, say ``i`` is evil
``3N+2+i``            CLAIM_GOOD seat ``i``: claim the investigating role, say ``i`` is good
``4N+2``              DEFEND: "I am on the good side"
====================  =====================================================================

The statements replace free text: each variant's encoder turns them into the plain sentences
(or structured speech) its rules and bots read, and masks the ones a decision cannot use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

MORE = object()
"""Returned by :meth:`SeatEncoder.action` for the first step of a two-step decision: the seat
is asked again (with another mask) before anything is applied."""


class Features:
    """A float32 vector filled block by block (each block's offset fixed by its order)."""

    def __init__(self, size: int) -> None:
        self.vec = np.zeros(size, dtype=np.float32)
        self.at = 0

    def one_hot(self, index: int | None, width: int) -> None:
        if index is not None and 0 <= index < width:
            self.vec[self.at + index] = 1.0
        self.at += width

    def values(self, values: Iterable[float] | np.ndarray, width: int) -> None:
        arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
        self.vec[self.at : self.at + width] = arr.reshape(-1)[:width]
        self.at += width

    def scalar(self, value: float) -> None:
        self.vec[self.at] = value
        self.at += 1

    def seats(self, seats: Iterable[int], width: int, value: float = 1.0) -> None:
        for seat in seats:
            if 0 <= seat < width:
                self.vec[self.at + seat] = value
        self.at += width

    def done(self) -> np.ndarray:
        assert self.at == len(self.vec), f"filled {self.at} of {len(self.vec)} features"
        return np.clip(self.vec, -1.0, 1.0, out=self.vec)


def none_only(menu: Menu) -> np.ndarray:
    mask = np.zeros(menu.size, dtype=np.int8)
    mask[menu.none] = 1
    return mask


def target_mask(menu: Menu, targets: Sequence[int], none: bool) -> np.ndarray:
    mask = np.zeros(menu.size, dtype=np.int8)
    mask[list(targets)] = 1
    if none:
        mask[menu.none] = 1
    return mask


def index_of(values: Sequence[str], value: str | None) -> int | None:
    return values.index(value) if value in values else None


@dataclass(frozen=True)
class Menu:
    """Index arithmetic of the menu for ``seats`` seats."""

    seats: int

    @property
    def size(self) -> int:
        return 4 * self.seats + 3

    @property
    def none(self) -> int:
        return self.seats

    @property
    def yes(self) -> int:
        return self.seats + 1

    def target(self, seat: int) -> int:
        return seat

    def accuse(self, seat: int) -> int:
        return self.seats + 2 + seat

    def claim_bad(self, seat: int) -> int:
        return 2 * self.seats + 2 + seat

    def claim_good(self, seat: int) -> int:
        return 3 * self.seats + 2 + seat

    @property
    def defend(self) -> int:
        return 4 * self.seats + 2

    def read(self, index: int) -> tuple[str, int | None]:
        """``(slot, seat)``: slot is TARGET, NONE, YES, ACCUSE, CLAIM_BAD, CLAIM_GOOD, DEFEND."""
        n = self.seats
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the menu 0..{self.size - 1}")
        if index < n:
            return "TARGET", index
        if index == n:
            return "NONE", None
        if index == n + 1:
            return "YES", None
        if index == self.defend:
            return "DEFEND", None
        block, seat = divmod(index - n - 2, n)
        return ("ACCUSE", "CLAIM_BAD", "CLAIM_GOOD")[block], seat
