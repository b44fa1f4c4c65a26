"""The discrete action menu shared by every variant's environment.

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

from dataclasses import dataclass


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
