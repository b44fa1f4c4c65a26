"""Match the names a game master writes to the players of the game.

A name matches exactly, then ignoring case, spaces and decoration (``@``, quotes, ``*``,
trailing punctuation), then by a unique substring in either direction ("Alpha" finds
"AI-Alpha"; "AI-Alpha (seat 1)" finds it too).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from duskfall.core.errors import ConfigError, DuskfallError

_DECORATION = re.compile(r"[\s@*\"'“”‘’「」『』《》<>`~.,;!?。，；！？、]+")
MIN_SUBSTRING = 2


class UnknownPlayer(DuskfallError):
    """A name in a marker matches no player, or several."""


def normalise_name(name: str) -> str:
    """Case-folded, without spaces and decoration."""
    return _DECORATION.sub("", name).casefold()


def resolve_name(name: str, players: Sequence[str]) -> str:
    """The player ``name`` refers to; raise :class:`UnknownPlayer` saying why it does not."""
    if name in players:
        return name
    key = normalise_name(name)
    if not key:
        raise UnknownPlayer(f"{name!r} is not a player name")
    same = [p for p in players if normalise_name(p) == key]
    if len(same) == 1:
        return same[0]
    if len(key) >= MIN_SUBSTRING:
        partial = [
            p
            for p in players
            if key in normalise_name(p)
            or (len(normalise_name(p)) >= MIN_SUBSTRING and normalise_name(p) in key)
        ]
        if len(partial) == 1:
            return partial[0]
        if partial:
            raise UnknownPlayer(f"{name!r} is ambiguous: it could be {', '.join(partial)}")
    raise UnknownPlayer(f"unknown player {name!r}; the players are {', '.join(players)}")


def check_roster(names: Sequence[str]) -> None:
    """Refuse rosters whose names cannot be told apart or could break the markers."""
    seen: dict[str, str] = {}
    for name in names:
        if not name.strip():
            raise ConfigError("a player name is empty")
        bad = [c for c in "[]【】|｜" if c in name]
        if bad:
            raise ConfigError(f"player name {name!r} may not contain {''.join(bad)!r}")
        key = normalise_name(name)
        if not key:
            raise ConfigError(f"player name {name!r} has no letters or digits")
        if key in seen:
            raise ConfigError(f"player names {seen[key]!r} and {name!r} are too alike")
        seen[key] = name
