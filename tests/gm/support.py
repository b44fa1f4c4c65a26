"""Scripted models and a small game builder for the GM tests."""

from __future__ import annotations

from duskfall.core.events import Event
from duskfall.testing.gm_games import NO_RETRY, build_game, echo_player, scripted

__all__ = ["NO_RETRY", "build_game", "echo_player", "scripted"]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def chat_lines(events: list[Event]) -> list[str]:
    return [e.payload["text"] for e in of_kind(events, "chat")]


def prompt_text(event: Event) -> str:
    return "\n".join(m["content"] for m in event.payload["messages"])


def gm_calls(events: list[Event]) -> list[Event]:
    return [e for e in of_kind(events, "llm_call") if e.payload["role"] == "gm"]


def player_calls(events: list[Event]) -> list[Event]:
    return [e for e in of_kind(events, "llm_call") if e.payload["role"] == "player"]
