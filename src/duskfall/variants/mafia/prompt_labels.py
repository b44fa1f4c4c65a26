"""Players in a seat's prompts: ``Cleo (seat 3)``, and what this seat knows of each one.

Everything here reads the seat's observation only: its fixed allies (private channels), the
roles it knows (its own, the dead, investigated players) and its own night history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Obs = Mapping[str, Any]

FELLOW: dict[str, str] = {
    "mafia": "fellow mafia",
    "doctors": "fellow doctor",
    "sheriffs": "fellow sheriff",
    "vigilantes": "fellow vigilante",
}
NIGHT, DAY = "NIGHT", "DAY"


def who(obs: Obs, seat: Any) -> str:
    """``Cleo (seat 3)``; a seat the game does not have is shown by its number."""
    players = obs["players"]
    if isinstance(seat, int) and 0 <= seat < len(players):
        return f"{players[seat]['name']} (seat {seat})"
    return f"seat {seat}"


def roles_text(roles: Iterable[str] | None) -> str:
    """``MAFIA+DOCTOR``; ``?`` when unknown."""
    return "+".join(roles or ()) or "?"


def seats_text(obs: Obs, seats: Iterable[int]) -> str:
    return ", ".join(who(obs, s) for s in seats) or "none"


def fellows(obs: Obs) -> dict[int, list[str]]:
    """Seat -> how it is allied to this seat (``fellow doctor``...), from its private channels."""
    me = obs["seat"]
    out: dict[int, list[str]] = {}
    for channel, members in obs["allies"].items():
        for seat in members:
            if seat != me:
                out.setdefault(seat, []).append(FELLOW.get(channel, f"fellow {channel}"))
    return out


def protections(obs: Obs) -> dict[int, int]:
    """Night -> the player this seat protected that night (its private notes)."""
    return {e["day"]: e["target"] for e in obs["private_log"] if e["kind"] == "protection"}


def protection_labels(obs: Obs) -> dict[int, str]:
    """Seat -> ``protected last night`` / ``protected tonight``, for this seat's protections."""
    done, day = protections(obs), obs["day"]
    out: dict[int, str] = {}
    if obs["phase"] == NIGHT:
        if day - 1 in done:
            out[done[day - 1]] = "protected last night"
        if day in done:
            out[done[day]] = "protected tonight"
    elif obs["phase"] == DAY and day in done:
        out[done[day]] = "protected last night"
    return out


def checked(obs: Obs) -> dict[int, Sequence[str]]:
    """Seat -> roles found by the investigations this seat knows of."""
    return {i["target"]: i["roles"] for i in obs["investigations"]}


def labels(obs: Obs, seat: int) -> list[str]:
    """What this seat knows of ``seat``: alive or dead (with the roles revealed), ``you``,
    allies, investigation results and its own protections."""
    player = obs["players"][seat]
    out = ["alive"] if player["alive"] else [f"dead: {roles_text(player['roles'])}"]
    if seat == obs["seat"]:
        out.append("you")
    out += fellows(obs).get(seat, [])
    found = checked(obs).get(seat)
    if found is not None:
        out.append(f"checked: {roles_text(found)}")
    protected = protection_labels(obs).get(seat)
    if protected is not None:
        out.append(protected)
    return out


def labelled(obs: Obs, seat: int) -> str:
    """``Cleo (seat 3): alive, fellow doctor``."""
    return f"{who(obs, seat)}: {', '.join(labels(obs, seat))}"
