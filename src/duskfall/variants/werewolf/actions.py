"""Werewolf actions: small frozen values whose ``to_dict()`` is their wire form.

The legal choices of a decision, which parse and check them, are in :mod:`.legal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from duskfall.variants.werewolf import phases as P


@dataclass(frozen=True, slots=True)
class Say:
    """A speech: wolf chat, campaign speech, day speech or last words."""

    kind: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "says": self.text}


@dataclass(frozen=True, slots=True)
class Pick:
    """A choice of one seat, or ``None`` (no kill, abstain, hold fire, tear up the badge)."""

    kind: str
    target: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "target": self.target}


YES_NO_FIELDS = {P.BADGE_RUN: "run", P.BADGE_WITHDRAW: "withdraw"}


@dataclass(frozen=True, slots=True)
class YesNo:
    """Run for sheriff, or withdraw from the race."""

    kind: str
    yes: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, YES_NO_FIELDS[self.kind]: self.yes}


class UnitAction(Protocol):
    """The action of a role's own night turn (declared by its unit)."""

    @property
    def kind(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...


Action = Say | Pick | YesNo | UnitAction
