"""Sports mafia's events and views in the common form of :mod:`duskfall.core.facts`: ballots,
the night kills, sheriff claims, what private events teach, decision modes, a seat's standing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.facts import Claim, GameFacts, Learnt, SeatFacts
from duskfall.core.spectator import Ballot, casts_of
from duskfall.variants.sports_mafia.roles import BLACK, BLACK_ROLES, RED, SHERIFF

MODES = {
    "DECLARATION": "discussion",
    "VOTING": "vote",
    "NIGHT_KILL": "kill",
    "NIGHT_DON": "inspect",
    "NIGHT_SHERIFF": "inspect",
}


class SportsMafiaFacts(GameFacts):
    evil_words = ("mafia", "is black", "is evil", "suspicious")
    good_words = ("innocent", "is good", "is red", "trust", "cleared")

    def ballot(self, event: Event) -> Ballot | None:
        """A round of votes (an eliminate-all round's yes/no answers name no target)."""
        if event.kind != "VOTES":
            return None
        casts = casts_of(event)
        if casts is None:
            return None
        round_no = event.payload.get("round")
        name = "exile vote"
        if isinstance(round_no, int) and round_no > 0:
            name = f"{name} (round {round_no + 1})"
        return Ballot(name, tuple(casts), exile=True)

    def night_kills(self, event: Event) -> list[int]:
        return [int(event.payload["player_id"])] if event.kind == "PLAYER_KILLED" else []

    def claims(self, event: Event) -> list[Claim]:
        if event.kind == "DECLARATION":
            claims = event.payload.get("sheriff_claims") or []
            if any(any(row) for row in claims):
                return [Claim(int(event.payload["player_id"]), SHERIFF)]
        return []

    def learnt(self, kind: str, payload: Mapping[str, Any]) -> Learnt | None:
        if kind == "MAFIA_TEAM":
            return Learnt(allies=frozenset(payload["members"]))
        if kind == "SHERIFF_CHECK_RESULT" and isinstance(payload.get("target"), int):
            return Learnt(checks={payload["target"]: str(payload["team"]).upper() == BLACK})
        return None

    def mode(self, kind: str) -> str:
        return MODES.get(kind, "other")

    def seat(self, observation: Mapping[str, Any]) -> SeatFacts:
        role = str(observation.get("role") or "unknown")
        team = BLACK if role in BLACK_ROLES else RED if role != "unknown" else "unknown"
        players = [
            p["player_id"] for p in observation.get("players") or () if isinstance(p, Mapping)
        ]
        alive = [p for p in observation.get("alive_players") or () if isinstance(p, int)]
        turn = observation.get("turn")
        return SeatFacts(
            role=role,
            team=team,
            evil=team == BLACK,
            day=turn + 1 if isinstance(turn, int) else 0,
            phase=str(observation.get("phase", "")),
            players=tuple(players or alive),
            alive=tuple(alive),
        )


FACTS = SportsMafiaFacts()
