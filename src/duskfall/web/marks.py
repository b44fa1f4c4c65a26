"""What an event tells about players, for the cards and the timeline strip: names, deaths and
their causes, the badge, checks, potions and protections; and which ballot a vote belongs to.

Each mark is ``{"seat": n, "mark": what, "text": words}``. ``mark`` is one of ``dead``,
``exiled``, ``badge``, ``checked``, ``saved``, ``poisoned``, ``guarded``, ``protected``. A
mark comes from one event, so whoever may see the event may see the mark: nothing here decides
who sees what (that is :func:`duskfall.core.events.visible_to`, applied by the timeline).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event

Payload = Mapping[str, Any]
Mark = dict[str, Any]

#: Ballots as people call them (``sub_phase`` or kind of the vote's event).
BALLOT_NAMES = {
    "BADGE_VOTE": "sheriff election",
    "VOTE": "exile vote",
    "WOLF_KILL": "wolves' kill",
    "team_vote": "mafia's kill",
    "vote_result": "exile vote",
    "VOTES": "exile vote",
}

CAUSES = {
    "wolves": "killed by the wolves",
    "poison": "poisoned by the witch",
    "exile": "exiled",
    "hunter": "shot by the hunter",
    "mafia": "killed by the mafia",
    "vigilante": "shot by the vigilante",
}


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def ballot(event: Event) -> str:
    """The ballot a vote event belongs to: its sub-phase, else its kind (a round when given)."""
    key = event.payload.get("sub_phase") or event.kind
    name = BALLOT_NAMES.get(str(key), str(key).replace("_", " ").lower())
    round_no = event.payload.get("round")
    if event.kind == "VOTES" and isinstance(round_no, int) and round_no > 0:
        name = f"{name} (round {round_no + 1})"
    return name


def vote_weights(event: Event) -> dict[int, float]:
    """Weights of the casts an event records (1 unless it says otherwise)."""
    weight = event.payload.get("weight")
    seat = _int(event.payload.get("seat"))
    if isinstance(weight, int | float) and seat is not None:
        return {seat: float(weight)}
    return {}


def seat_names(event: Event) -> dict[int, str]:
    """Players' names an opening event announces (``players``: names, or ``{seat, name}``)."""
    players = event.payload.get("players")
    if not isinstance(players, list):
        return {}
    names: dict[int, str] = {}
    for i, entry in enumerate(players):
        if isinstance(entry, str):
            names[i] = entry
        elif isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            seat = _int(entry.get("seat"))
            names[i if seat is None else seat] = entry["name"]
    return names


def _mark(seat: Any, mark: str, text: str) -> list[Mark]:
    number = _int(seat)
    return [] if number is None else [{"seat": number, "mark": mark, "text": text}]


def _night(event: Event) -> str:
    return f"night {event.day}"


def _werewolf_night(event: Event) -> list[Mark]:
    out: list[Mark] = []
    for death in event.payload.get("deaths", []):
        cause = CAUSES.get(str(death.get("cause")), str(death.get("cause")))
        out += _mark(death.get("seat"), "dead", f"{cause}, {_night(event)}")
    return out


def _werewolf_witch(event: Event) -> list[Mark]:
    action = event.payload.get("action")
    if action == "ANTIDOTE":
        return _mark(event.payload.get("target"), "saved", f"saved (antidote), {_night(event)}")
    if action == "POISON":
        return _mark(event.payload.get("target"), "poisoned", f"poisoned, {_night(event)}")
    return []


def _werewolf_check(event: Event) -> list[Mark]:
    result = event.payload.get("result")
    return _mark(event.payload.get("target"), "checked", f"checked: {result}, {_night(event)}")


def _mafia_deaths(event: Event) -> list[Mark]:
    deaths = event.payload.get("deaths")
    if isinstance(deaths, Mapping):  # the night summary (god view): {seat: cause}
        out: list[Mark] = []
        for seat, cause in deaths.items():
            words = CAUSES.get(str(cause), str(cause))
            out += _mark(seat, "dead", f"{words}, {_night(event)}")
        return out
    return [
        m
        for death in deaths or []
        for m in _mark(death.get("seat"), "dead", f"found dead, {_night(event)}")
    ]


def _mafia_vote(event: Event) -> list[Mark]:
    return _mark(event.payload.get("eliminated"), "exiled", f"voted out, day {event.day}")


def _roles_words(payload: Payload) -> str:
    roles = payload.get("roles")
    return "+".join(str(r) for r in roles) if isinstance(roles, list) else str(roles)


MarkFinder = Callable[[Event], list[Mark]]

VARIANT_MARKS: dict[str, dict[str, MarkFinder]] = {
    "werewolf": {
        "night_resolved": _werewolf_night,
        "deaths": lambda e: [
            m for s in e.payload.get("seats", []) for m in _mark(s, "dead", f"died {_night(e)}")
        ],
        "exiled": lambda e: _mark(e.payload.get("seat"), "exiled", f"exiled, day {e.day}"),
        "hunter_shot": lambda e: _mark(
            e.payload.get("target"), "dead", f"shot by the hunter, day {e.day}"
        ),
        "sheriff_elected": lambda e: _mark(e.payload.get("seat"), "badge", "sheriff"),
        "badge_passed": lambda e: _mark(e.payload.get("target"), "badge", "sheriff (passed on)"),
        "seer_action": _werewolf_check,
        "witch_action": _werewolf_witch,
        "guard_action": lambda e: _mark(
            e.payload.get("target"), "guarded", f"guarded, {_night(e)}"
        ),
    },
    "mafia": {
        "night_summary": _mafia_deaths,
        "dawn": _mafia_deaths,
        "vote_result": _mafia_vote,
        "investigation": lambda e: _mark(
            e.payload.get("target"),
            "checked",
            f"investigated: {_roles_words(e.payload)}, {_night(e)}",
        ),
        "doctor_action": lambda e: _mark(
            e.payload.get("target"), "protected", f"protected by the doctor, {_night(e)}"
        ),
    },
    "sports-mafia": {
        "PLAYER_ELIMINATED": lambda e: _mark(
            e.payload.get("player_id"), "exiled", f"voted out, day {e.day}"
        ),
        "PLAYER_KILLED": lambda e: _mark(
            e.payload.get("player_id"), "dead", f"killed in the night, {_night(e)}"
        ),
        "SHERIFF_CHECK_RESULT": lambda e: _mark(
            e.payload.get("target"), "checked", f"checked: {e.payload.get('team')}, {_night(e)}"
        ),
        "DON_CHECK_RESULT": lambda e: _mark(
            e.payload.get("target"),
            "checked",
            ("the sheriff" if e.payload.get("is_sheriff") else "not the sheriff")
            + f" (don's check), {_night(e)}",
        ),
    },
}


def marks(variant_id: str, event: Event) -> list[Mark]:
    """The marks ``event`` puts on players (see the module docstring)."""
    finder = VARIANT_MARKS.get(variant_id, {}).get(event.kind)
    if finder is None:
        return []
    try:
        return finder(event)
    except (AttributeError, KeyError, TypeError, ValueError):
        return []  # an unexpected payload shape: no marks rather than a broken page
