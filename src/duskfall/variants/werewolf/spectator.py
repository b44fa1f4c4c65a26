"""How a spectator sees Werewolf: lines (with the players' names where known), the roles an
event reveals, the marks it puts on players, the ballots and a seat's card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.legal import LegalActions
from duskfall.core.spectator import (
    Ballot,
    Payload,
    SeatCard,
    Spectator,
    card,
    mark,
    night_of,
    roles_line,
)
from duskfall.variants.werewolf import event_text
from duskfall.variants.werewolf.facts import FACTS
from duskfall.variants.werewolf.role_unit import Reveal
from duskfall.variants.werewolf.roles import WEREWOLF
from duskfall.variants.werewolf.units import UNIT_CHOICES, UNITS

CAUSES = {
    "wolves": "killed by the wolves",
    "poison": "poisoned by the witch",
    "exile": "exiled",
    "hunter": "shot by the hunter",
}


def _night_deaths(event: Event) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for death in event.payload.get("deaths", []):
        cause = CAUSES.get(str(death.get("cause")), str(death.get("cause")))
        out += mark(death.get("seat"), "dead", f"{cause}, {night_of(event)}")
    return out


_MARKS = {
    "night_resolved": _night_deaths,
    "deaths": lambda e: [
        m for s in e.payload.get("seats", []) for m in mark(s, "dead", f"died {night_of(e)}")
    ],
    "exiled": lambda e: mark(e.payload.get("seat"), "exiled", f"exiled, day {e.day}"),
    "sheriff_elected": lambda e: mark(e.payload.get("seat"), "badge", "sheriff"),
    "badge_passed": lambda e: mark(e.payload.get("target"), "badge", "sheriff (passed on)"),
}


_REVEALS: dict[str, Reveal] = {}
for _unit in UNITS.values():  # the marks and reveals of the events a role causes are its own
    _MARKS.update(_unit.marks)
    _REVEALS.update(_unit.reveals)


def _game_end(p: Payload) -> str:
    return f"Game over: {p['winner'] or 'nobody'} wins ({p['reason']}). " + roles_line(p["roles"])


def _card_facts(observation: Payload) -> Any:
    def facts(name: Any) -> list[str]:
        lines = [
            f"Night {check['night']}: {name(check['target'])} is {check['result']}"
            for check in observation.get("checks") or []
        ]
        for potion in ("antidote", "poison"):
            if isinstance(observation.get(potion), bool):
                lines.append(f"{potion.capitalize()}: {'left' if observation[potion] else 'used'}")
        if observation.get("attacked_tonight") is not None:
            lines.append(f"The wolves attacked {name(observation['attacked_tonight'])} tonight")
        if observation.get("last_guarded") is not None:
            lines.append(f"You guarded {name(observation['last_guarded'])} last night")
        sheriff, me = observation.get("sheriff"), observation.get("seat")
        if isinstance(sheriff, int):
            mine = sheriff == me
            lines.append("You hold the sheriff's badge" if mine else f"Sheriff: {name(sheriff)}")
        return lines

    return facts


class WerewolfSpectator(Spectator):
    mark_finders = _MARKS

    def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
        if event.source != "rules":
            return None
        payload = event.payload
        if event.kind == "roles_dealt":
            return roles_line(payload["roles"])
        if event.kind == "game_end":
            return _game_end(payload)
        if names:
            listed = [names.get(i, f"seat {i}") for i in range(max(names) + 1)]
            return event_text.event_line(event.kind, payload, event_text.namer(listed))
        return None

    def reveals(self, event: Event) -> dict[int, str]:
        payload = event.payload
        if event.kind == "role_assigned":
            return {int(payload["seat"]): str(payload["role"])}
        if event.kind in ("roles_dealt", "game_end"):
            return dict(enumerate(payload["roles"]))
        if event.kind == "wolf_team":
            return {int(w): WEREWOLF for w in payload["wolves"]}
        reveal = _REVEALS.get(event.kind)
        return reveal(payload) if reveal is not None else {}

    def ballot(self, event: Event) -> Ballot | None:
        return FACTS.ballot(event)

    def seat_card(self, observation: Payload) -> SeatCard:
        return card(observation, observation.get("wolves") or (), _card_facts(observation))

    def question(self, legal: LegalActions) -> str | None:
        """A role's own night turn in plain words (the buttons carry the choices)."""
        if isinstance(legal, UNIT_CHOICES):
            words: str = legal.words()
            return words
        return None


SPECTATOR = WerewolfSpectator()
