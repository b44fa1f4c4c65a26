"""One vocabulary of choices for every variant: a seat, nobody, yes or no, free text.

A legal view reads what a program, a model or a person sends with these: :func:`read_seat`
(a seat number, ``"seat 3"``, ``"3 (Dax)"``, a name, or one of :data:`NOBODY_WORDS`: None),
:func:`is_nobody`, :func:`read_yes_no` (:data:`YES_WORDS`, :data:`NO_WORDS`) and
:func:`read_text` (whitespace collapsed, cut to a length). A choice of seats falls back and
samples the same way in every variant: :func:`default_seat` is nobody where nobody is a
choice, else a seeded random seat; :func:`sample_seat` draws among the seats and, last,
nobody. How a variant spells nobody on the wire (``null``, ``-1``, a ``PASS`` type) stays its
own (the wire protocol does not change), as does the wording of its refusals.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from duskfall.core.errors import IllegalAction

NOBODY_WORDS = frozenset(
    {
        "none",
        "null",
        "nobody",
        "no one",
        "noone",
        "abstain",
        "skip",
        "pass",
        "-1",
        "no kill",
        "hold",
    }
)
YES_WORDS = frozenset({"yes", "y", "true", "1", "run", "withdraw", "ok", "sure"})
NO_WORDS = frozenset({"no", "n", "false", "0", "stay", "pass", "skip", "keep"})
_LEADING_SEAT = re.compile(r"^\s*(?:seat|player)?\s*#?\s*(-?\d+)\b", re.IGNORECASE)


def is_nobody(value: Any) -> bool:
    """Whether ``value`` is a word for nobody (``abstain``, ``skip``, ``none``...)."""
    return isinstance(value, str) and value.strip().strip(".!\"'").strip().lower() in NOBODY_WORDS


def read_seat(value: Any, names: Sequence[str]) -> int | None:
    """A seat from a number, ``"3"``, ``"seat 3"``, ``"3 (Dax)"`` or a name (exact, or the one
    name a text mentions); None for nobody (None, -1, a word of :data:`NOBODY_WORDS`).
    Anything else raises IllegalAction."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise IllegalAction("expected a seat number or a name, got a boolean", "bad_format")
    if isinstance(value, int):
        return None if value == -1 else value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        raise IllegalAction(
            f"expected a seat number or a name, got {type(value).__name__}", "bad_format"
        )
    text = value.strip().strip(".!\"'").strip()
    low = text.lower()
    if low in NOBODY_WORDS:
        return None
    match = _LEADING_SEAT.match(text)
    if match:
        number = int(match.group(1))
        return None if number == -1 else number
    exact = [seat for seat, name in enumerate(names) if name.lower() == low]
    if exact:
        return exact[0]
    words = set(re.findall(r"[\w'-]+", low))
    mentioned = [seat for seat, name in enumerate(names) if name.lower() in words]
    if len(mentioned) == 1:
        return mentioned[0]
    raise IllegalAction(f"{value!r} is not a seat number or a player's name", "invalid_target")


def read_yes_no(value: Any) -> bool | None:
    """True or False from a boolean or a word of :data:`YES_WORDS`/:data:`NO_WORDS`; None
    for anything else (the caller refuses it in its own words)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        low = value.strip().strip(".!").lower()
        if low in YES_WORDS:
            return True
        if low in NO_WORDS:
            return False
    return None


def read_text(value: str, max_chars: int) -> str:
    """Free text as it is kept: runs of whitespace made one space, cut to ``max_chars``."""
    return " ".join(value.split())[:max_chars]


def default_seat(rng: random.Random, seats: Sequence[int], nobody: bool) -> int | None:
    """The documented fallback of a choice of seats: nobody where it is a choice, else a
    seeded random seat."""
    return None if nobody else rng.choice(seats)


def sample_seat(rng: random.Random, seats: Sequence[int], nobody: bool) -> int | None:
    """A random choice: one draw among ``seats`` and, last, nobody (where it is a choice)."""
    i = rng.randrange(len(seats) + 1 if nobody else len(seats))
    return seats[i] if i < len(seats) else None
