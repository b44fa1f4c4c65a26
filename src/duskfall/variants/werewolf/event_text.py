"""One line per Werewolf event, shared by the god view, the human view and the LLM prompts.

Every line is written with a :data:`Namer`, which decides how a seat is named: ``seat 3`` in
the god view (:func:`plain`), ``seat 3 (Cleo)`` for a player (:func:`namer`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.roles import describe_counts
from duskfall.variants.werewolf.units import UNITS

Namer = Callable[[int | None], str]


SPEECH_TAGS = {
    P.WOLF_CHAT: "[wolves] ",
    P.BADGE_SPEECH: "[campaign] ",
    P.LAST_WORDS: "[last words] ",
}


def namer(names: Sequence[str], you: int | None = None) -> Namer:
    """``seat 3 (Cleo)``; with ``you``, that seat is ``seat 3 (Cleo) (you)``."""

    def name(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if not 0 <= seat < len(names):
            return f"seat {seat}"
        return f"seat {seat} ({names[seat]})" + (" (you)" if seat == you else "")

    return name


def plain(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def _speech(p: Mapping[str, Any], name: Namer) -> str:
    text = p["text"] or "(says nothing)"
    return f"{SPEECH_TAGS.get(p['sub_phase'], '')}{name(p['seat'])}: {text}"


def casts(votes: Sequence[Mapping[str, Any]], name: Namer) -> str:
    """``seat 0 -> seat 4, seat 1 -> nobody``: who voted for whom."""
    return ", ".join(f"{name(c['seat'])} -> {name(c['target'])}" for c in votes)


def _tally(p: Mapping[str, Any], name: Namer) -> str:
    what = "sheriff vote" if p["sub_phase"] == P.BADGE_VOTE else "vote"
    tally = ", ".join(f"{name(t['seat'])} {t['votes']:g}" for t in p["tally"]) or "no votes"
    if p["chosen"] is not None:
        return f"{what} tally: {tally}"
    if p["tied"]:
        return f"{what} tally: {tally}; tie, nobody is chosen"
    return f"{what} tally: {tally}; nobody is chosen"


_LINES: dict[str, Callable[[Mapping[str, Any], Namer], str]] = {
    "game_start": lambda p, n: f"Werewolf begins with {describe_counts(p['roles_in_play'])}.",
    "roles_dealt": lambda p, n: "roles: " + ", ".join(f"{i}={r}" for i, r in enumerate(p["roles"])),
    "role_assigned": lambda p, n: f"{n(p['seat'])} is dealt the {p['role']} card",
    "wolf_team": lambda p, n: "[wolves] the werewolves are " + ", ".join(map(n, p["wolves"])),
    "night_start": lambda p, n: "Night falls.",
    "day_start": lambda p, n: "Day breaks.",
    "speech": _speech,
    "wolf_votes": lambda p, n: f"[wolves] no agreement yet: {casts(p['votes'], n)}",
    "werewolf_kill": lambda p, n: (
        f"[wolves] the werewolves attack {n(p['target'])}"
        if p["target"] is not None
        else "[wolves] the werewolves kill nobody tonight"
    ),
    "night_resolved": lambda p, n: (
        f"night: attacked {n(p['attacked'])}"
        + (" (saved)" if p["saved"] else "")
        + (" (guarded)" if p["guarded"] else "")
        + (f", poisoned {n(p['poisoned'])}" if p["poisoned"] is not None else "")
    ),
    "deaths": lambda p, n: (
        "Last night " + ", ".join(map(n, p["seats"])) + " died."
        if p["seats"]
        else "Last night was peaceful: nobody died."
    ),
    "badge_candidates": lambda p, n: (
        "Running for sheriff: " + ", ".join(map(n, p["candidates"]))
        if p["candidates"]
        else "Nobody runs for sheriff."
    ),
    "badge_withdrawals": lambda p, n: (
        "Withdrew from the race: "
        + (", ".join(map(n, p["withdrawn"])) or "nobody")
        + "; still running: "
        + (", ".join(map(n, p["remaining"])) or "nobody")
    ),
    "vote": lambda p, n: (
        (
            f"{n(p['seat'])} votes for {n(p['target'])}"
            if p["target"] is not None
            else f"{n(p['seat'])} abstains"
        )
        + (f" ({p['weight']:g} votes)" if p["weight"] != 1 else "")
    ),
    "vote_result": _tally,
    "sheriff_elected": lambda p, n: (
        f"{n(p['seat'])} is the sheriff ({p['reason']})"
        if p["seat"] is not None
        else f"No sheriff: {p['reason']}"
    ),
    "exiled": lambda p, n: f"{n(p['seat'])} is exiled.",
    "badge_passed": lambda p, n: (
        f"{n(p['seat'])} passes the sheriff's badge to {n(p['target'])}"
        if p["target"] is not None
        else f"{n(p['seat'])} tears up the sheriff's badge"
    ),
    "game_end": lambda p, n: (
        f"Game over: {p['winner'] or 'nobody'} wins ({p['reason']}). Roles: "
        + ", ".join(f"{n(i)}={r}" for i, r in enumerate(p["roles"]))
    ),
}


for _unit in UNITS.values():  # the lines of the events a role causes are the role's own
    _LINES.update(_unit.lines)


def event_line(kind: str, payload: Mapping[str, Any], name: Namer) -> str | None:
    """The line of one event (None for a kind this variant never emits)."""
    render = _LINES.get(kind)
    return render(payload, name) if render else None
