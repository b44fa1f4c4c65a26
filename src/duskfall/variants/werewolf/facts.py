"""Werewolf's events and views in the common form of :mod:`duskfall.core.facts`: ballots,
the wolves' kills, claimed checks, what private events teach, decision modes, a seat's standing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.facts import Claim, GameFacts, Learnt, SeatFacts, players_of
from duskfall.core.spectator import Ballot, casts_of
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.bot_reading import CLAIM
from duskfall.variants.werewolf.roles import WOLF_TEAM
from duskfall.variants.werewolf.units import CHECKER, UNITS
from duskfall.variants.werewolf.units import MODES as UNIT_MODES

BALLOTS = {P.BADGE_VOTE: "sheriff election", P.VOTE: "exile vote", P.WOLF_KILL: "wolves' kill"}
BALLOT_KINDS = frozenset({"vote", "werewolf_kill", "wolf_votes"})
MODES = {
    P.WOLF_CHAT: "team_chat",
    P.WOLF_KILL: "kill",
    P.HUNTER_SHOT: "kill",
    P.BADGE_RUN: "badge",
    P.BADGE_WITHDRAW: "badge",
    P.BADGE_PASS: "badge",
    P.BADGE_SPEECH: "discussion",
    P.SPEECH: "discussion",
    P.LAST_WORDS: "discussion",
    P.BADGE_VOTE: "vote",
    P.VOTE: "vote",
}

TEACHES = {kind: teach for unit in UNITS.values() for kind, teach in unit.learnt.items()}
"""What each private event kind teaches its holder (the units declare it)."""


class WerewolfFacts(GameFacts):
    evil_words = ("werewolf", "wolf", "is evil", "suspicious")

    def ballot(self, event: Event) -> Ballot | None:
        if event.kind not in BALLOT_KINDS:
            return None
        casts = casts_of(event)
        if casts is None:
            return None
        key = str(event.payload.get("sub_phase") or event.kind)
        name = BALLOTS.get(key, key.replace("_", " ").lower())
        exile = event.kind == "vote" and key == P.VOTE
        return Ballot(name, tuple(casts), exile)

    def night_kills(self, event: Event) -> list[int]:
        if event.kind != "night_resolved":
            return []
        deaths = event.payload.get("deaths", [])
        return [d["seat"] for d in deaths if d.get("cause") == "wolves"]

    def claims(self, event: Event) -> list[Claim]:
        payload = event.payload
        if (
            event.kind == "speech"
            and payload.get("sub_phase") != P.WOLF_CHAT
            and CLAIM.search(str(payload.get("text", ""))) is not None
        ):
            return [Claim(payload["seat"], CHECKER.name.upper())]
        return []

    def learnt(self, kind: str, payload: Mapping[str, Any]) -> Learnt | None:
        if kind == "wolf_team":
            return Learnt(allies=frozenset(payload["wolves"]))
        teach = TEACHES.get(kind)
        return teach(payload) if teach is not None else None

    def mode(self, kind: str) -> str:
        return UNIT_MODES.get(kind) or MODES.get(kind, "other")

    def seat(self, observation: Mapping[str, Any]) -> SeatFacts:
        players, alive, names = players_of(observation)
        team = str(observation.get("team") or "unknown")
        return SeatFacts(
            role=str(observation.get("role") or "unknown"),
            team=team,
            evil=team == WOLF_TEAM,
            day=int(observation.get("day", 0)),
            phase=str(observation.get("phase", "")),
            players=tuple(players),
            alive=tuple(alive),
            names=names,
        )


FACTS = WerewolfFacts()
