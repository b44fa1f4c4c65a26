"""Classic mafia's events and views in the common form of :mod:`duskfall.core.facts`: ballots,
the mafia's kills, what private events teach, decision modes, a seat's standing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.facts import GameFacts, Learnt, SeatFacts, players_of, roles_text
from duskfall.core.spectator import Ballot, casts_of
from duskfall.variants.mafia import phases as P
from duskfall.variants.mafia.roles import MAFIA

TEAM_BALLOTS = {"mafia": "mafia's kill", "doctors": "doctors' protection"}
MODES = {
    P.MAFIA_CHAT: "team_chat",
    P.MAFIA_VOTE: "kill",
    P.DOCTOR_COORDINATION: "protect",
    P.DOCTOR_PROTECTION_VOTE: "protect",
    P.DOCTOR_ACTION: "protect",
    P.SHERIFF_ACTION: "inspect",
    P.VIGILANTE_COORDINATION: "kill",
    P.VIGILANTE_ACTION: "kill",
    P.DAY_DISCUSSION: "discussion",
    P.DAY_VOTE: "vote",
}
MAFIA_TEAM = "mafia"


class MafiaFacts(GameFacts):
    evil_words = ("mafia", "is evil", "suspicious")
    good_words = ("innocent", "is good", "is town", "trust", "cleared")

    def ballot(self, event: Event) -> Ballot | None:
        if event.kind == "vote_result":
            casts = casts_of(event)
            return None if casts is None else Ballot("exile vote", tuple(casts), exile=True)
        if event.kind == "team_vote":
            casts = casts_of(event)
            channel = str(event.payload.get("channel", "mafia"))
            name = TEAM_BALLOTS.get(channel, f"{channel}' vote")
            return None if casts is None else Ballot(name, tuple(casts))
        return None

    def night_kills(self, event: Event) -> list[int]:
        payload = event.payload
        target = payload.get("mafia_target")
        if event.kind != "night_summary" or not isinstance(target, int):
            return []
        return [target] if str(target) in (payload.get("deaths") or {}) else []

    def learnt(self, kind: str, payload: Mapping[str, Any]) -> Learnt | None:
        if kind == "team":
            return Learnt(allies=frozenset(payload["members"]))
        if kind == "investigation" and isinstance(payload.get("target"), int):
            evil = any(str(role).upper() == MAFIA for role in payload.get("roles") or ())
            return Learnt(checks={payload["target"]: evil})
        return None

    def mode(self, kind: str) -> str:
        return MODES.get(kind, "other")

    def seat(self, observation: Mapping[str, Any]) -> SeatFacts:
        players, alive, names = players_of(observation)
        role = roles_text(observation)
        team = str(observation.get("team") or "unknown")
        return SeatFacts(
            role=role,
            team=team,
            evil=team == MAFIA_TEAM or MAFIA in role.upper().split("+"),
            day=int(observation.get("day", 0)),
            phase=str(observation.get("phase", "")),
            players=tuple(players),
            alive=tuple(alive),
            names=names,
        )


FACTS = MafiaFacts()
