"""How a spectator sees classic mafia: lines, the roles an event reveals (a seat's own, the
eliminated player's, the investigated player's), the marks on players (the private channels a
seat shares, its checks, deaths...), the ballots and a seat's card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.legal import LegalActions
from duskfall.core.spectator import (
    Ballot,
    MarkFinder,
    Payload,
    SeatCard,
    Spectator,
    card,
    mark,
    night_of,
    roles_line,
    seat_or_none,
    seats_words,
)
from duskfall.variants.mafia.facts import FACTS

CAUSES = {"mafia": "killed by the mafia", "vigilante": "shot by the vigilante"}
#: Each decision's question in plain words, for a person at the web page.
QUESTIONS = {
    "MAFIA_CHAT": "Talk privately with the mafia about tonight's kill.",
    "MAFIA_VOTE": "Whom does the mafia kill tonight?",
    "DOCTOR_COORDINATION": "Talk privately with the other doctors about whom to protect.",
    "DOCTOR_PROTECTION_VOTE": "Whom should the doctors protect tonight?",
    "DOCTOR_ACTION": "Whom do you protect from the mafia tonight?",
    "SHERIFF_COORDINATION": "Talk privately with the other sheriffs about whom to investigate.",
    "SHERIFF_INVESTIGATION_ASSIGNMENT": "Whom should the sheriffs investigate tonight?",
    "SHERIFF_ACTION": "Whose role do you investigate tonight?",
    "VIGILANTE_COORDINATION": "Talk privately with the other vigilantes about whom to shoot.",
    "VIGILANTE_ACTION": "Whom do you shoot tonight? You may hold your fire.",
    "DAY_DISCUSSION": (
        "Speak to the town. You may say whom your message is about and claim a role in public."
    ),
    "DAY_VOTE": "Whom do you vote to eliminate? You may abstain.",
}


def _roles(value: Any) -> str:
    return "+".join(str(r) for r in value) if isinstance(value, list) else str(value)


def _night(p: Payload) -> str:
    deaths = p.get("deaths") or {}
    died = (
        ", ".join(f"seat {s} {CAUSES.get(str(c), str(c))}" for s, c in deaths.items())
        or "nobody died"
    )
    saved = "; the doctor saved the target" if p.get("saved") else ""
    target = p.get("mafia_target")
    aimed = f"the mafia aimed at seat {target}" if target is not None else "no mafia kill"
    return f"night {p.get('night', '')}: {aimed}{saved}; {died}"


_LINES: dict[str, Callable[[Payload], str]] = {
    "setup": lambda p: (
        "players: " + ", ".join(f"{e['name']} (seat {e['seat']})" for e in p["players"])
    ),
    "deal": lambda p: roles_line(p["roles"]),
    "role": lambda p: f"seat {p['seat']} is dealt {'+'.join(p['roles'])} (team {p['team']})",
    "team": lambda p: f"the {p['channel']} team is {seats_words(p['members'])}",
    "night_summary": _night,
}


def _deaths(event: Event) -> list[dict[str, Any]]:
    deaths = event.payload.get("deaths")
    if isinstance(deaths, Mapping):  # the night summary (god view): {seat: cause}
        out: list[dict[str, Any]] = []
        for seat, cause in deaths.items():
            words = CAUSES.get(str(cause), str(cause))
            out += mark(seat, "dead", f"{words}, {night_of(event)}")
        return out
    return [
        m
        for death in deaths or []
        for m in mark(death.get("seat"), "dead", f"found dead, {night_of(event)}")
    ]


_MARKS: dict[str, MarkFinder] = {
    "night_summary": _deaths,
    "dawn": _deaths,
    "vote_result": lambda e: mark(e.payload.get("eliminated"), "exiled", f"voted out, day {e.day}"),
    "investigation": lambda e: mark(
        e.payload.get("target"),
        "checked",
        f"investigated: {_roles(e.payload.get('roles'))}, {night_of(e)}",
    ),
    "doctor_action": lambda e: mark(
        e.payload.get("target"), "protected", f"protected by the doctor, {night_of(e)}"
    ),
    "team": lambda e: _channel(e.payload),
}


def _channel(payload: Payload) -> list[dict[str, Any]]:
    """A private channel's members (``mafia``, ``doctors``...): a channel, not a role, so it is
    a mark (a seat in two channels shows both) and never overwrites a seat's roles."""
    channel = payload.get("channel")
    if not isinstance(channel, str):
        return []
    return [m for seat in payload.get("members") or [] for m in mark(seat, "channel", channel)]


def _seat_roles(seat: Any, roles: Any) -> dict[int, str]:
    number = seat_or_none(seat)
    if number is None or not isinstance(roles, list) or not roles:
        return {}
    return {number: _roles(roles)}


def _all_roles(roles: Any) -> dict[int, str]:
    if not isinstance(roles, Mapping):
        return {}
    return {int(s): _roles(r) for s, r in roles.items() if seat_or_none(s) is not None}


class MafiaSpectator(Spectator):
    mark_finders = _MARKS

    def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
        render = _LINES.get(event.kind) if event.source == "rules" else None
        return render(event.payload) if render is not None else None

    def reveals(self, event: Event) -> dict[int, str]:
        payload = event.payload
        kind = event.kind
        if kind == "role":
            return _seat_roles(payload.get("seat"), payload.get("roles"))
        if kind == "investigation":  # the investigated player's roles, not the sheriff's
            return _seat_roles(payload.get("target"), payload.get("roles"))
        if kind == "vote_result":  # the eliminated player's roles (none if nobody went out)
            return _seat_roles(payload.get("eliminated"), payload.get("roles"))
        if kind == "dawn":
            found: dict[int, str] = {}
            for death in payload.get("deaths") or []:
                found.update(_seat_roles(death.get("seat"), death.get("roles")))
            return found
        if kind in ("deal", "game_end"):
            return _all_roles(payload.get("roles"))
        return {}

    def ballot(self, event: Event) -> Ballot | None:
        return FACTS.ballot(event)

    def seat_card(self, observation: Payload) -> SeatCard:
        allies = observation.get("allies")
        mates = [m for members in allies.values() for m in members] if allies else []

        def facts(name: Any) -> list[str]:
            return [
                f"Night {check['night']}: {name(check['target'])} is "
                + "+".join(check.get("roles") or [])
                for check in observation.get("investigations") or []
            ]

        return card(observation, mates, facts)

    def question(self, legal: LegalActions) -> str | None:
        question = QUESTIONS.get(legal.kind)
        limit = getattr(legal, "max_chars", None)
        if question and isinstance(limit, int):
            question += f" (at most {limit} characters)"
        return question


SPECTATOR = MafiaSpectator()
