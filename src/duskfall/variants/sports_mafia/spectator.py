"""How a spectator sees sports mafia: lines (declarations in words), the roles an event
reveals (the black team, check results), the marks on players, the ballots and a seat's card."""

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
)
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


def _players(seats: Any) -> str:
    """``seat 3``, ``seats 3 and 9``, ``seats 1, 4 and 7``."""
    if not isinstance(seats, list) or not seats:
        return "nobody"
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def declaration_words(action: Payload) -> str:
    """A declaration in words: the players it calls red or black, its claimed checks and its
    nomination."""
    vector = action.get("declaration") or []
    reads = [f"seat {i} {_colour(v)}" for i, v in enumerate(vector) if isinstance(v, int) and v]
    parts = ["calls " + ", ".join(reads) if reads else "calls nobody red or black"]
    claims = action.get("sheriff_claims") or []
    for night, row in enumerate(claims):
        checked = [f"seat {i} {'red' if v > 0 else 'black'}" for i, v in enumerate(row) if v]
        if checked:
            parts.append(f"claims night {night + 1} checks: " + ", ".join(checked))
    nomination = action.get("nomination")
    if isinstance(nomination, int) and nomination >= 0:
        parts.append(f"nominates seat {nomination}")
    return "; ".join(parts)


def votes_words(p: Payload) -> str:
    """A round of votes as people count it: ``re-vote: 5 for seat 0 (seats 2, 3, 4, 8 and
    9), 2 for seat 6 (seats 0 and 7)``; an eliminate-all round's answers as yes/no."""
    by_target: dict[str, list[int]] = {}
    for voter, target in (p.get("votes") or {}).items():
        if isinstance(target, bool):
            key = "yes" if target else "no"
        elif isinstance(target, int) and target >= 0:
            key = f"seat {target}"
        else:
            key = "nobody"
        by_target.setdefault(key, []).append(int(voter))
    ranked = sorted(by_target.items(), key=lambda item: (-len(item[1]), item[0]))
    counts = ", ".join(f"{len(v)} for {k} ({_players(sorted(v))})" for k, v in ranked)
    name = "votes" if not p.get("round") else "re-vote"
    return f"{name}: {counts or 'no votes'}"


_LINES: dict[str, Callable[[Payload], str]] = {
    "GAME_STARTED": lambda p: f"The game starts with {p['players']} players",
    "DAY_STARTED": lambda p: f"Day {p['turn'] + 1}: seat {p['first_speaker']} speaks first",
    "PLAYER_NOMINATED": lambda p: f"seat {p['by']} nominates seat {p['player_id']}",
    "VOTES": votes_words,
    "REVOTE_STARTED": lambda p: f"{_players(p['tied']).capitalize()} are tied: they vote again",
    "ELIMINATE_ALL_STARTED": lambda p: (
        f"{_players(p['tied']).capitalize()} are tied again: eliminate them all?"
    ),
    "ELIMINATE_ALL_RESULT": lambda p: (
        f"Eliminate {_players(p['tied'])}? {p['yes']} yes, {p['no']} no"
    ),
    "PLAYER_ELIMINATED": lambda p: f"seat {p['player_id']} is voted out",
    "NIGHT_STARTED": lambda p: "Night falls",
    "PLAYER_KILLED": lambda p: f"seat {p['player_id']} is killed in the night",
    "NO_KILL": lambda p: "nobody is killed tonight",
    "DON_CHECK_RESULT": lambda p: (
        f"the don checks seat {p['target']}: "
        + ("the sheriff" if p["is_sheriff"] else "not the sheriff")
    ),
    "SHERIFF_CHECK_RESULT": lambda p: (
        f"the sheriff checks seat {p['target']}: {p['team'].lower()}"
        f" ({'mafia' if str(p['team']).upper() == 'BLACK' else 'town'})"
    ),
    "ROLE_ASSIGNED": lambda p: f"seat {p['player_id']} is dealt {p['role']}",
    "MAFIA_TEAM": lambda p: (
        f"the mafia team is {_players(p['members'])} (the don: seat {p['don']})"
    ),
    "VOTING_STARTED": lambda p: (
        f"voting on {_players(p.get('nominated', p.get('candidates', [])))}"
    ),
    "DECLARATION": lambda p: f"seat {p['player_id']} {declaration_words(p)}",
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
            for target, team in (private.get("sheriff_checks") or {}).items():
                lines.append(f"{name(int(target))}: checked, {str(team).lower()}")
            for target, sheriff in (private.get("don_checks") or {}).items():
                found = "the sheriff" if sheriff else "not the sheriff"
                lines.append(f"{name(int(target))}: checked, {found}")
            return lines

        return card(observation, private.get("mafia_team") or (), facts)

    def question(self, legal: LegalActions) -> str | None:
        if isinstance(legal, EliminateAllChoice):
            return "The vote is tied. Do you vote to eliminate every tied player?"
        return QUESTIONS.get(legal.kind)


SPECTATOR = SportsMafiaSpectator()
