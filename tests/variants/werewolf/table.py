"""Helpers for scripted Werewolf tables: fixed seating, and answering decisions by kind."""

from __future__ import annotations

from typing import Any

from duskfall.core.events import Event
from duskfall.core.variant import parse_config
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.rules import WerewolfState

# seats 0-3 wolves, 4-7 villagers, 8 seer, 9 witch, 10 hunter, 11 guard
TWELVE = ["Werewolf"] * 4 + ["Villager"] * 4 + ["Seer", "Witch", "Hunter", "Guard"]
WOLVES, VILLAGERS, SEER, WITCH, HUNTER, GUARD = [0, 1, 2, 3], [4, 5, 6, 7], 8, 9, 10, 11
QUIET_NIGHT = {"WOLF_CHAT": "", "WITCH": "pass", "GUARD": None, "SEER": 3}
QUIET_DAY = {"SPEECH": "", "LAST_WORDS": "", "VOTE": None, "BADGE_PASS": None}
NO_BADGE = {"BADGE_RUN": False}


def game(roles: list[str] | None = None, **options: Any) -> WerewolfState:
    """A game with ``roles`` seated in order (default: the 12-seat layout above)."""
    config = parse_config(VARIANT, {"roles": roles or TWELVE, "deal": "in_order", **options})
    state = VARIANT.new_game(config, seed=1)
    assert isinstance(state, WerewolfState)
    return state


def kinds(state: WerewolfState) -> dict[int, str]:
    return {d.seat: d.kind for d in state.pending()}


def settle(state: WerewolfState, **answers: Any) -> list[Event]:
    """Answer pending decisions while their kind has an answer; return the events.

    An answer is a value for every seat, or a dict ``{seat: value, "*": default}``. It stops
    at the first decision whose kind has no answer, or at the end of the game.
    """
    events: list[Event] = []
    while state.outcome() is None:
        pending = state.pending()
        if not pending or pending[0].kind not in answers:
            break
        for decision in pending:
            answer = answers[decision.kind]
            if isinstance(answer, dict):
                answer = answer[decision.seat] if decision.seat in answer else answer["*"]
            events.extend(state.apply(decision.seat, answer))
    return events


def find(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.payload for e in events if e.kind == kind]


def one(events: list[Event], kind: str) -> dict[str, Any]:
    found = find(events, kind)
    assert len(found) == 1, f"expected one {kind}, got {found}"
    return found[0]


def batch(state: WerewolfState, answer: Any) -> list[Event]:
    """Answer exactly the decisions pending now (``answer`` as in :func:`settle`)."""
    events: list[Event] = []
    for decision in state.pending():
        value = answer
        if isinstance(answer, dict):
            value = answer[decision.seat] if decision.seat in answer else answer["*"]
        events.extend(state.apply(decision.seat, value))
    return events
