"""How a spectator sees sports mafia: lines (declarations in words), the roles an event
reveals (the black team, check results), the marks on players, the ballots and a seat's card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event
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
    seats_words,
)
from duskfall.core.variant import LegalActions
from duskfall.variants.sports_mafia.facts import FACTS
from duskfall.variants.sports_mafia.legal import EliminateAllChoice
from duskfall.variants.sports_mafia.roles import DON, MAFIA, SHERIFF

#: Each decision's question in plain words, for a person at the web page.
QUESTIONS = {
    "DECLARATION": (
        "Your turn to speak: say how you read each player (red +1 to +3: town, black -1 to -3: "
        "mafia, 0: no read), announce sheriff checks if you have any (true or not), and "
        "nominate a player for the vote if you wish."
    ),
    "VOTING": "Whom do you vote to eliminate?",
    "NIGHT_KILL": "Whom does the mafia kill tonight? The mafia may also kill nobody.",
    "NIGHT_DON": "As the don, whom do you check tonight: is that player the sheriff?",
    "NIGHT_SHERIFF": "As the sheriff, whom do you check tonight: red (town) or black (mafia)?",
}


def _colour(value: int) -> str:
    return f"red +{value}" if value > 0 else f"black {value}"


def declaration_words(action: Payload) -> str:
    """A declaration in words: the players it calls red or black, its claimed checks and its
    nomination."""
    vector = action.get("declaration") or []
    reads = [f"{i} {_colour(v)}" for i, v in enumerate(vector) if isinstance(v, int) and v]
    parts = ["reads " + ", ".join(reads) if reads else "gives no reads"]
    claims = action.get("sheriff_claims") or []
    for night, row in enumerate(claims):
        checked = [f"{i} {'red' if v > 0 else 'black'}" for i, v in enumerate(row) if v]
        if checked:
            parts.append(f"claims night {night + 1} checks: " + ", ".join(checked))
    nomination = action.get("nomination")
    if isinstance(nomination, int) and nomination >= 0:
        parts.append(f"nominates player {nomination}")
    return "; ".join(parts)


_LINES: dict[str, Callable[[Payload], str]] = {
    "GAME_STARTED": lambda p: f"The game starts with {p['players']} players",
    "ROLE_ASSIGNED": lambda p: f"player {p['player_id']} is dealt {p['role']}",
    "MAFIA_TEAM": lambda p: (
        f"the mafia team is {seats_words(p['members'])} (don: player {p['don']})"
    ),
    "VOTING_STARTED": lambda p: (
        f"voting on {seats_words(p.get('nominated', p.get('candidates', [])))}"
    ),
    "DECLARATION": lambda p: f"player {p['player_id']} {declaration_words(p)}",
    "ROLES_DEALT": lambda p: roles_line(p["roles"]),
}

_MARKS: dict[str, MarkFinder] = {
    "PLAYER_ELIMINATED": lambda e: mark(
        e.payload.get("player_id"), "exiled", f"voted out, day {e.day}"
    ),
    "PLAYER_KILLED": lambda e: mark(
        e.payload.get("player_id"), "dead", f"killed in the night, {night_of(e)}"
    ),
    "SHERIFF_CHECK_RESULT": lambda e: mark(
        e.payload.get("target"), "checked", f"checked: {e.payload.get('team')}, {night_of(e)}"
    ),
    "DON_CHECK_RESULT": lambda e: mark(
        e.payload.get("target"),
        "checked",
        ("the sheriff" if e.payload.get("is_sheriff") else "not the sheriff")
        + f" (don's check), {night_of(e)}",
    ),
}


class SportsMafiaSpectator(Spectator):
    mark_finders = _MARKS

    def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
        render = _LINES.get(event.kind) if event.source == "rules" else None
        return render(event.payload) if render is not None else None

    def action_words(self, action: Payload) -> str | None:
        if "declaration" in action:
            return f"declaration: {declaration_words(action)}"
        return None

    def reveals(self, event: Event) -> dict[int, str]:
        p = event.payload
        kind = event.kind
        if kind == "ROLE_ASSIGNED":
            return {int(p["player_id"]): str(p["role"])}
        if kind == "ROLES_DEALT":
            return dict(enumerate(p["roles"]))
        if kind == "MAFIA_TEAM":
            return {**{int(m): MAFIA for m in p["members"]}, int(p["don"]): DON}
        if kind == "SHERIFF_CHECK_RESULT":
            return {int(p["target"]): f"{p['team']} (checked)"}
        if kind == "DON_CHECK_RESULT":
            return {int(p["target"]): SHERIFF if p["is_sheriff"] else "not sheriff (checked)"}
        return {}

    def ballot(self, event: Event) -> Ballot | None:
        return FACTS.ballot(event)

    def seat_card(self, observation: Payload) -> SeatCard:
        private = observation.get("private_info")
        private = private if isinstance(private, Mapping) else {}

        def facts(name: Any) -> list[str]:
            lines = []
            for key, what in (("sheriff_checks", "team"), ("don_checks", "sheriff?")):
                for target, result in (private.get(key) or {}).items():
                    lines.append(f"{name(int(target))}: {what} {result}")
            return lines

        return card(observation, private.get("mafia_team") or (), facts)

    def question(self, legal: LegalActions) -> str | None:
        if isinstance(legal, EliminateAllChoice):
            return "The vote is tied. Do you vote to eliminate every tied player?"
        return QUESTIONS.get(legal.kind)


SPECTATOR = SportsMafiaSpectator()
