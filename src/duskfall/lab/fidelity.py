"""Whether a fork played its parent's game again: the same events, apart from the clock.

A game's events are compared as written, but for the game id (a fork has its own) and what a
model call records of the server rather than of the game: how long it took (``latency_s``,
``queue_s``) and how much of the prompt its cache held (``cached_tokens``,
``cache_write_tokens``: a fork's server has not seen the parent's calls), which no seed
decides. :func:`first_difference` is the number of the first event that differs (or where
one log ends before the other), None for the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from duskfall.core.events import Event

TIMINGS = frozenset({"latency_s", "queue_s", "cached_tokens", "cache_write_tokens"})


def comparable(event: Event) -> dict[str, Any]:
    """``event`` as compared: without its game id and its timings."""
    data = {**event.to_dict(), "game_id": ""}
    payload = data.get("payload")
    if isinstance(payload, dict) and TIMINGS & payload.keys():
        data["payload"] = {k: v for k, v in payload.items() if k not in TIMINGS}
    return data


def first_difference(ours: Sequence[Event], theirs: Sequence[Event]) -> int | None:
    """The first event number at which two games differ (module docstring); None if none."""
    for number, (mine, other) in enumerate(zip(ours, theirs, strict=False)):
        if comparable(mine) != comparable(other):
            return number
    if len(ours) != len(theirs):
        return min(len(ours), len(theirs))
    return None
