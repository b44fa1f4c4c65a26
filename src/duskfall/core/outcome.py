"""How a game ended."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Why a game ended."""

    WIN = "win"
    DAY_LIMIT = "day_limit"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: ``winner`` is a team name, or None for a draw."""

    winner: str | None
    termination: Termination
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "termination": self.termination.value, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(data["winner"], Termination(data["termination"]), data.get("reason", ""))
