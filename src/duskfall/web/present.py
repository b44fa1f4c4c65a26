"""How an event looks on the page: one plain line, its scope, the roles it reveals, its marks
and its ballot.

Everything a variant knows about its own events comes from its
:class:`~duskfall.core.spectator.Spectator` (``VariantInfo.spectator``; a game-master game
has the GM's, :data:`duskfall.gm.spectator.SPECTATOR`): nothing here is keyed by a variant.
The variant's ``format_event`` supplies the line where its spectator has none (its rich
markup stripped); the runtime's events (actions, thoughts, model calls...) have their lines
here. A payload of an unexpected shape gets a generic line and no reveals or marks rather
than a broken page. Nothing here decides *who* may see an event: that is
:func:`duskfall.core.events.visible_to`, applied by :mod:`duskfall.web.timeline`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import DuskfallError
from duskfall.core.events import ADMIN, PUBLIC, Event
from duskfall.core.registry import get_variant
from duskfall.core.spectator import DEFAULT, Ballot, Spectator
from duskfall.core.spectator import actor as actor
from duskfall.core.variant import Variant
from duskfall.gm.spectator import GM_VARIANT
from duskfall.gm.spectator import SPECTATOR as GM_SPECTATOR

Payload = Mapping[str, Any]
RuntimeLine = Callable[[Payload, Spectator], str]

TEXT_LIMIT = 600
SHAPE_ERRORS = (AttributeError, KeyError, TypeError, ValueError)


def spectator_of(variant_id: str, variant: Variant | None = None) -> Spectator:
    """The spectator of ``variant_id`` (``variant`` if already found); the GM's for a
    game-master game; the default one for a variant that is not installed here."""
    if variant is not None:
        return variant.info.spectator
    if variant_id == GM_VARIANT:
        return GM_SPECTATOR
    try:
        return get_variant(variant_id).info.spectator
    except DuskfallError:
        return DEFAULT


def _clip(text: Any, limit: int = TEXT_LIMIT) -> str:
    value = str(text)
    return value if len(value) <= limit else value[: limit - 3] + "..."


def _seat_label(value: Any) -> str:
    return "nobody" if value in (None, -1) else f"seat {value}"


def _cached(call: Payload) -> str:
    """`` (N cached)``: prompt tokens a model call read from its provider's cache, if any."""
    cached = call.get("cached_tokens") or 0
    return f" ({cached} cached)" if cached else ""


def _compact(payload: Payload) -> str:
    """A payload in words: ``size 3, colour red`` (vectors and matrices shortened)."""
    parts = []
    for key, value in payload.items():
        if key == "sub_phase" or value is None:
            continue
        shown = value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "))
        parts.append(f"{key.replace('_', ' ')} {_clip(shown, 80)}")
    return ", ".join(parts)


def action_words(action: Any, spectator: Spectator = DEFAULT) -> str:
    """An action as people say it: ``vote: seat 5``, ``witch: poison seat 2`` (the
    variant's own words where it has them)."""
    if not isinstance(action, Mapping):
        return _clip(action, 120)
    own = spectator.action_words(action)
    if own is not None:
        return own
    verb = str(action.get("type", "act")).replace("_", " ").lower()
    parts = []
    for key, value in action.items():
        if key in ("type", "reasoning") or value is None:
            continue
        if isinstance(value, str) and key in ("says", "text"):
            parts.append(f"“{_clip(value, 200)}”" if value else "(says nothing)")
        elif isinstance(value, bool):
            parts.append("yes" if value else "no")
        elif key == "target" and isinstance(value, int):
            parts.append("nobody" if value < 0 else f"seat {value}")
        elif isinstance(value, str):
            parts.append(value.replace("_", " ").lower())
        else:
            parts.append(f"{key.replace('_', ' ')} {_clip(json.dumps(value), 60)}")
    return f"{verb}: {' '.join(parts)}" if parts else verb


RUNTIME_LINES: dict[str, RuntimeLine] = {
    kinds.ACTION: lambda p, s: (
        f"seat {p['seat']} acts: {action_words(p['action'], s)}"
        + (" (fallback)" if p.get("by") == "fallback" else "")
    ),
    kinds.THOUGHT: lambda p, s: f"seat {p['seat']} thinks: {_clip(p['text'])}",
    "speech": lambda p, s: f"seat {p['seat']} says: {_clip(p['text'])}",
    kinds.INVALID_ACTION: lambda p, s: f"seat {p['seat']} answer refused: {p['error']}",
    kinds.FALLBACK: lambda p, s: (
        f"seat {p['seat']} falls back to {action_words(p['action'], s)} ({p['reason']})"
    ),
    kinds.DECISION_TIMEOUT: lambda p, s: f"seat {p['seat']} timed out after {p['timeout']:g}s",
    kinds.PARTICIPANT_ERROR: lambda p, s: f"seat {p['seat']} failed: {p['error']}",
    kinds.LLM_CALL: lambda p, s: (
        f"{_seat_label(p.get('seat'))} called {p.get('model', '?')}: "
        f"{p.get('prompt_tokens', 0)}{_cached(p)}+{p.get('completion_tokens', 0)} tokens, "
        f"${float(p.get('cost_usd', 0.0)):.4f}"
    ),
    kinds.SUSPICION: lambda p, s: f"{_seat_label(p.get('seat'))} updates its suspicions",
    kinds.GAME_OVER: lambda p, s: (
        f"{p['winner']} wins ({p.get('reason', '')})"
        if p.get("winner")
        else f"game over: {p.get('termination', '')} ({p.get('reason', '')})"
    ),
}


def plain(markup: str) -> str:
    """Rich console markup (``[bold]Day 1[/]``) as plain text."""
    try:
        return Text.from_markup(markup).plain
    except Exception:  # not valid markup after all: show it as it is
        return markup


def event_line(
    spectator: Spectator,
    variant: Variant | None,
    event: Event,
    names: Mapping[int, str] | None = None,
) -> str:
    """The one line a spectator reads for ``event`` (with the players' names when known)."""
    payload = event.payload
    try:
        line = spectator.line(event, names or None)
        if line:
            return line
        if event.source == "rules" and variant is not None:
            line = variant.format_event(event)
            if line:
                return plain(line)
        formatter = RUNTIME_LINES.get(event.kind)
        if formatter is not None:
            return formatter(payload, spectator)
    except SHAPE_ERRORS:
        pass  # an unexpected payload shape: fall back to the generic line
    for key in ("text", "message", "says"):
        if isinstance(payload.get(key), str):
            who = actor(event)
            prefix = f"seat {who}: " if who is not None else ""
            return f"{prefix}{_clip(payload[key])}"
    body = _compact(payload)
    return f"{event.kind}: {body}" if body else event.kind


def scope(event: Event) -> str:
    """``public``, ``private`` (a team or some seats) or ``admin`` (god view only)."""
    if event.visibility == PUBLIC:
        return "public"
    if event.visibility == ADMIN:
        return "admin"
    return "private"


def reveals(spectator: Spectator, event: Event) -> dict[int, str]:
    """The roles ``event`` tells whoever sees it (none for a payload of another shape)."""
    try:
        return spectator.reveals(event)
    except SHAPE_ERRORS:
        return {}


def marks(spectator: Spectator, event: Event) -> list[dict[str, Any]]:
    """The marks ``event`` puts on players (none for a payload of another shape)."""
    try:
        return spectator.marks(event)
    except SHAPE_ERRORS:
        return []


def ballot(spectator: Spectator, event: Event) -> Ballot | None:
    """The votes ``event`` records (None for none, or a payload of another shape)."""
    try:
        return spectator.ballot(event)
    except SHAPE_ERRORS:
        return None


def detail(spectator: Spectator, event: Event) -> bool:
    """Whether ``event`` is bookkeeping the list shows only on request."""
    try:
        return spectator.detail(event)
    except SHAPE_ERRORS:
        return False


def names(spectator: Spectator, event: Event) -> dict[int, str]:
    """The players' names ``event`` announces."""
    try:
        return spectator.names(event)
    except SHAPE_ERRORS:
        return {}
