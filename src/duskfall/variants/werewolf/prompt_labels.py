"""Every seat named as a given seat sees it now: ``seat 3 (Cleo) (fellow werewolf) (dead)``.

The labels come from the observation only: the seat itself, its team-mates (werewolves), the
sheriff, the results of its own checks, the guard's last protection, the player the witch was
told the werewolves attacked tonight, and the dead.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any


def player_names(obs: Mapping[str, Any]) -> list[str]:
    return [p["name"] for p in obs["players"]]


def seat_labels(seat: int, obs: Mapping[str, Any]) -> list[str]:
    """What ``obs``'s seat knows of ``seat``, as short labels."""
    labels = []
    if seat == obs["seat"]:
        labels.append("you")
    elif seat in obs.get("wolves", ()):
        labels.append("fellow werewolf")
    if obs.get("sheriff") == seat:
        labels.append("sheriff")
    labels.extend(f"checked: {c['result']}" for c in obs.get("checks", ()) if c["target"] == seat)
    if obs.get("last_guarded", -1) == seat:
        labels.append("guarded last night")
    if obs.get("attacked_tonight", -1) == seat:
        labels.append("attacked tonight")
    players = obs["players"]
    if 0 <= seat < len(players) and not players[seat]["alive"]:
        labels.append("dead")
    return labels


def labelled(seat: int, obs: Mapping[str, Any], skip: Collection[str] = ()) -> str:
    """``seat 3 (Cleo)`` followed by the labels of that seat for ``obs``'s seat (but those in
    ``skip``, which the sentence already says)."""
    names = player_names(obs)
    name = f"seat {seat} ({names[seat]})" if 0 <= seat < len(names) else f"seat {seat}"
    labels = (label for label in seat_labels(seat, obs) if label not in skip)
    return name + "".join(f" ({label})" for label in labels)


def labelled_list(seats: Sequence[int], obs: Mapping[str, Any], skip: Collection[str] = ()) -> str:
    return ", ".join(labelled(s, obs, skip) for s in seats) or "none"
