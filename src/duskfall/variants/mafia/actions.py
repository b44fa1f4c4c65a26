"""Mafia actions in their wire form, and the lenient reading of a player named in an answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from duskfall.core.errors import IllegalAction

KILL = "KILL"
PROTECT = "PROTECT"
INVESTIGATE = "INVESTIGATE"
SHOOT = "SHOOT"
VOTE = "VOTE"
PASS = "PASS"
ABSTAIN = "ABSTAIN"
SAY = "SAY"


@dataclass(frozen=True, slots=True)
class Say:
    """A chat or discussion message: ``target`` optionally names the player it is about,
    ``claim`` optionally claims a role in public (true or not)."""

    says: str
    target: int | None = None
    claim: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": SAY, "says": self.says}
        if self.target is not None:
            data["target"] = self.target
        if self.claim is not None:
            data["claim"] = self.claim
        return data


@dataclass(frozen=True, slots=True)
class Choose:
    """A targeted night action or vote (``KILL``, ``PROTECT``...), or ``PASS``/``ABSTAIN``."""

    type: str
    target: int | None = None
    reasoning: str = ""
    says: str = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "target": self.target}
        if self.reasoning:
            data["reasoning"] = self.reasoning
        if self.says:
            data["says"] = self.says
        return data


_SEAT_TEXT = re.compile(r"^(?:seat|player|p|#)?\s*#?\s*(-?\d+)$")
_SEAT_INSIDE = re.compile(r"\b(?:seat|player)\s*#?\s*(\d+)\b")


def resolve_player(value: Any, names: Sequence[str]) -> int:
    """A seat from a seat number or a player's name (exact, then unique partial match)."""
    if isinstance(value, bool) or value is None:
        raise IllegalAction(f"name a player (by name or seat number), not {value!r}", "bad_format")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        raise IllegalAction(f"name a player by name or seat number, not {value!r}", "bad_format")
    text = value.strip().casefold()
    match = _SEAT_TEXT.match(text)
    if match:
        return int(match.group(1))
    folded = [n.casefold() for n in names]
    if text in folded:
        return folded.index(text)
    for candidates in (
        [i for i, n in enumerate(folded) if text and text in n],
        [i for i, n in enumerate(folded) if re.search(rf"\b{re.escape(n)}\b", text)],
    ):
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            options = ", ".join(names[i] for i in candidates)
            raise IllegalAction(f"{value!r} could mean {options}; give one name", "invalid_target")
    inside = _SEAT_INSIDE.search(text)
    if inside:
        return int(inside.group(1))
    raise IllegalAction(
        f"no player called {value!r}; players are {', '.join(names)}", "invalid_target"
    )
