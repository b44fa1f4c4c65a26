"""Shared builders for the cognitive agent's tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from duskfall.agents.cognitive.caller import StageCaller
from duskfall.agents.cognitive.context import SessionContext
from duskfall.agents.cognitive.records import SeatRecords
from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.llm import Model, Request, RetryPolicy, ScriptedProvider
from duskfall.runtime.record import SeatFeed

WEREWOLF = get_variant("werewolf")


def context(seat: int = 0, mode: str = "discussion", **changes: Any) -> SessionContext:
    values: dict[str, Any] = {
        "seat": seat,
        "variant": "werewolf",
        "decision": "SPEECH",
        "role": "Villager",
        "team": "village",
        "phase": "day",
        "mode": mode,
        "day": 2,
        "alive": (0, 1, 2, 3, 4, 5),
        "players": (0, 1, 2, 3, 4, 5),
        "names": {0: "Ada", 1: "Bram", 2: "Cleo", 3: "Dax", 4: "Edda", 5: "Finn"},
    }
    values.update(changes)
    facts = WEREWOLF.info.facts
    values.setdefault("evil", values["team"] == "werewolf")
    values.setdefault("evil_words", facts.evil_words)
    values.setdefault("good_words", facts.good_words)
    return SessionContext(**values)


def model(replies: Iterable[Any] | Callable[[Request], Any]) -> tuple[Model, ScriptedProvider]:
    provider = ScriptedProvider(replies)
    return Model(provider, retry=RetryPolicy(retries=0, format_retries=0)), provider


def caller(replies: Any, ctx: SessionContext | None = None) -> tuple[StageCaller, list[Event]]:
    events: list[Event] = []
    m, _ = model(replies)
    return StageCaller(m, ctx or context(), events.append), events


def step(**fields: Any) -> str:
    """A valid session step as JSON text; ``fields`` override the defaults."""
    value: dict[str, Any] = {
        "end_investigation": True,
        "session_type": "investigate_player",
        "target_players": ["p3"],
        "reasoning": "p3 jumped on a safe wagon.",
        "requested_tools": [],
        "suspicion_updates": [],
        "intermediate_hypotheses": {
            "likely_detective_candidates": [],
            "likely_doctor_candidates": [],
            "likely_easy_mislynches": [],
            "likely_strong_town": [],
        },
    }
    value.update(fields)
    return json.dumps(value)


def game_events() -> list[Event]:
    """A short werewolf-6 night and day: public, team, seat-only and admin events."""
    events = [
        Event("game_start", {"players": ["Ada", "Bram", "Cleo", "Dax", "Edda", "Finn"]}),
        Event("roles_dealt", {"roles": ["Werewolf"] * 2 + ["Seer"] + ["Villager"] * 3}, "admin"),
        Event("role_assigned", {"seat": 0, "role": "Werewolf"}, "seats:0"),
        Event("role_assigned", {"seat": 2, "role": "Seer"}, "seats:2"),
        Event("wolf_team", {"wolves": [0, 1]}, "team:werewolf"),
        Event("speech", {"seat": 1, "text": "Let us bite Cleo."}, "team:werewolf", 1, "NIGHT"),
        Event("seer_action", {"seat": 2, "target": 1, "result": "Werewolf"}, "seats:2", 1),
        Event("deaths", {"seats": [4]}, day=1, phase="DAY"),
        Event("speech", {"seat": 3, "text": "I suspect Bram."}, day=1, phase="DAY"),
        Event("speech", {"seat": 2, "text": "Bram is a wolf, I checked."}, day=1, phase="DAY"),
        Event("vote", {"seat": 3, "target": 1, "weight": 1.0}, day=1, phase="DAY"),
        Event("vote", {"seat": 0, "target": 2, "weight": 1.0}, day=1, phase="DAY"),
        Event("exiled", {"seat": 1}, day=1, phase="DAY"),
        Event("thought", {"seat": 2, "text": "I must protect my check."}, "admin", 1, "DAY"),
    ]
    for seq, event in enumerate(events):
        event.seq = seq
    return events


CHANNELS = {0: frozenset({"werewolf"}), 1: frozenset({"werewolf"})}


def fed_records(root: Path, seat: int, events: Iterable[Event] | None = None) -> SeatRecords:
    """A seat's records fed through the runtime's filter, as in a real game."""
    records = SeatRecords(root / f"seat-{seat}", seat, WEREWOLF)
    feed = SeatFeed(seat, lambda: CHANNELS.get(seat, frozenset()), records)
    for event in events if events is not None else game_events():
        feed.on_event(event)
    return records
