"""The private results of classic mafia a fork may tell otherwise (:mod:`duskfall.core.planted`):
a sheriff's investigation, which tells the target's exact roles.

A planted investigation changes the three records of it: the event, the game's list of
investigations (what the sheriff's view shows), and the entry of the sheriff's private log or
of the sheriffs' channel (its history). ``flip`` tells a member of the mafia a plain villager,
and anyone else mafia.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from duskfall.core.planted import PrivateFact
from duskfall.variants.mafia.roles import DOCTOR, MAFIA, SHERIFF, VIGILANTE, VILLAGER

KIND = "investigation"


def _believe(state: Any, payload: Mapping[str, Any], value: Any) -> None:
    """The game's records of the investigation ``payload`` tells now say ``value``."""
    key = (payload.get("day"), payload.get("seat"), payload.get("target"))
    records = state.investigations
    found = [n for n, i in enumerate(records) if (i.night, i.sheriff, i.target) == key]
    if not found:
        raise ValueError(f"no investigation of seat {key[2]} by seat {key[1]} to change")
    records[found[-1]] = replace(records[found[-1]], roles=tuple(value))
    for log in (*state.private_logs.values(), *state.channel_logs.values()):
        for entry in log:
            if entry.get("kind") == KIND and (entry["day"], entry["seat"], entry["target"]) == key:
                entry["roles"] = list(value)


def _flip(told: Any) -> list[str]:
    return [VILLAGER] if isinstance(told, list) and MAFIA in told else [MAFIA]


INVESTIGATION = PrivateFact(
    KIND,
    "investigation",
    "roles",
    {
        "mafia": [MAFIA],
        "villager": [VILLAGER],
        "town": [VILLAGER],
        "doctor": [DOCTOR],
        "sheriff": [SHERIFF],
        "vigilante": [VIGILANTE],
    },
    _believe,
    _flip,
)

PRIVATE_FACTS = {KIND: INVESTIGATION}
"""By event kind: what a fork may plant in a mafia game (``--set-result SEQ=mafia``)."""
