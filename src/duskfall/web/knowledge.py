"""What a seat knows, in plain words, from its own observation (never from the full state):
"You are Cleo (seat 2), the Witch", its teammates, its checks, potions left, the badge.

The observation is the variant's ``observe(state, seat)``: whatever it holds this seat may
know, so nothing here can leak. Keys the variants use are read where present.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.web.forms import seat_label

Obs = Mapping[str, Any]


def observed_names(observation: Obs) -> dict[int, str]:
    """Players' names from an observation's ``players`` list, if it names them."""
    names: dict[int, str] = {}
    for entry in observation.get("players") or []:
        if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            seat = entry.get("seat", entry.get("player_id"))
            if isinstance(seat, int):
                names[seat] = entry["name"]
    return names


def _role(observation: Obs) -> str | None:
    roles = observation.get("roles")
    if isinstance(roles, list) and roles:
        return "+".join(str(r).capitalize() for r in roles)
    role = observation.get("role")
    return str(role).capitalize() if role else None


def _teammates(observation: Obs, me: int | None) -> list[int]:
    mates: list[int] = list(observation.get("wolves") or [])
    allies = observation.get("allies")
    if isinstance(allies, Mapping):
        for members in allies.values():
            mates += list(members)
    private = observation.get("private_info")
    if isinstance(private, Mapping):
        mates += list(private.get("mafia_team") or [])
    return sorted({m for m in mates if isinstance(m, int) and m != me})


def _checks(observation: Obs, name: Any) -> list[str]:
    lines = []
    for check in observation.get("checks") or []:
        lines.append(f"Night {check['night']}: {name(check['target'])} is {check['result']}")
    for check in observation.get("investigations") or []:
        roles = "+".join(check.get("roles") or [])
        lines.append(f"Night {check['night']}: {name(check['target'])} is {roles}")
    private = observation.get("private_info")
    if isinstance(private, Mapping):
        for key, what in (("sheriff_checks", "team"), ("don_checks", "sheriff?")):
            for target, result in (private.get(key) or {}).items():
                lines.append(f"{name(int(target))}: {what} {result}")
    return lines


def knowledge(observation: Obs) -> dict[str, Any]:
    """``{"headline": ..., "lines": [...]}``: the seat's card (see the module docstring)."""
    names = observed_names(observation)

    def name(seat: Any) -> str:
        return seat_label(int(seat), names) if isinstance(seat, int) else "nobody"

    me = observation.get("seat", observation.get("player_id"))
    role = _role(observation)
    who = name(me) if isinstance(me, int) else "this seat"
    headline = f"You are {who}" + (f", the {role}" if role else "")
    lines: list[str] = []
    if observation.get("team"):
        lines.append(f"Your team: {observation['team']}")
    mates = _teammates(observation, me if isinstance(me, int) else None)
    if mates:
        lines.append("Your teammates: " + ", ".join(name(m) for m in mates))
    lines += _checks(observation, name)
    for potion in ("antidote", "poison"):
        if isinstance(observation.get(potion), bool):
            lines.append(f"{potion.capitalize()}: {'left' if observation[potion] else 'used'}")
    if observation.get("attacked_tonight") is not None:
        lines.append(f"The wolves attacked {name(observation['attacked_tonight'])} tonight")
    if observation.get("last_guarded") is not None:
        lines.append(f"You guarded {name(observation['last_guarded'])} last night")
    sheriff = observation.get("sheriff")
    if isinstance(sheriff, int):
        badge = "You hold the sheriff's badge" if sheriff == me else f"Sheriff: {name(sheriff)}"
        lines.append(badge)
    if observation.get("alive") is False:
        lines.append("You are dead")
    return {"headline": headline, "lines": lines}
