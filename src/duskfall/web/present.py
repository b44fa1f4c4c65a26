"""How an event looks on the page: one plain line, its scope, the seats it reveals and its votes.

Rendering is generic (kind + payload) so that every variant shows up; the variant's own
``format_event`` supplies the line where it has one (its rich markup is stripped), and a small
per-variant table covers the kinds it leaves out. Nothing here decides *who* may see an event:
that is :func:`duskfall.core.events.visible_to`, applied by :mod:`duskfall.web.timeline`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

from duskfall.core import event_kinds as kinds
from duskfall.core.events import ADMIN, PUBLIC, Event
from duskfall.core.variant import Variant
from duskfall.variants.werewolf import event_text as werewolf_text
from duskfall.web.marks import CAUSES

Payload = Mapping[str, Any]
LineFormatter = Callable[[Payload], str]

SEAT_KEYS = ("seat", "player_id", "player", "voter", "by")
TEXT_LIMIT = 600

# Kinds a variant's ``format_event`` leaves out but a spectator wants to read.
VARIANT_LINES: dict[str, dict[str, LineFormatter]] = {
    "sports-mafia": {
        "GAME_STARTED": lambda p: f"The game starts with {p['players']} players",
        "ROLE_ASSIGNED": lambda p: f"player {p['player_id']} is dealt {p['role']}",
        "MAFIA_TEAM": lambda p: (
            f"the mafia team is {_seats(p['members'])} (don: player {p['don']})"
        ),
        "VOTING_STARTED": lambda p: (
            f"voting on {_seats(p.get('nominated', p.get('candidates', [])))}"
        ),
        "DECLARATION": lambda p: f"player {p['player_id']} {declaration_words(p)}",
        "ROLES_DEALT": lambda p: _roles_line(p["roles"]),
    },
    "werewolf": {
        "roles_dealt": lambda p: _roles_line(p["roles"]),
        "game_end": lambda p: (
            f"Game over: {p['winner'] or 'nobody'} wins ({p['reason']}). " + _roles_line(p["roles"])
        ),
    },
    "mafia": {
        "setup": lambda p: (
            "players: " + ", ".join(f"{e['name']} (seat {e['seat']})" for e in p["players"])
        ),
        "deal": lambda p: _roles_line(p["roles"]),
        "role": lambda p: f"seat {p['seat']} is dealt {'+'.join(p['roles'])} (team {p['team']})",
        "team": lambda p: f"the {p['channel']} team is {_seats(p['members'])}",
        "night_summary": lambda p: _mafia_night(p),
    },
    "gm": {
        "gm_audit": lambda p: (
            f"audit, step {p['step']}: not checked ({p['detail']})"
            if p["rule"] == "unmapped"
            else f"audit, step {p['step']}: the GM broke {p['rule']} ({p['detail']})"
        ),
        "phase": lambda p: f"phase: {p['name']}",
        "out": lambda p: f"{p['player']} is out",
    },
}


def _roles_line(roles: Any) -> str:
    """``roles: seat 0 Villager, seat 1 Seer, ...`` from a list or a ``{seat: role}`` map."""
    pairs = roles.items() if isinstance(roles, Mapping) else enumerate(roles)
    ordered = sorted(((int(s), r) for s, r in pairs), key=lambda i: i[0])
    return "roles: " + ", ".join(f"seat {s} {r}" for s, r in ordered)


def _seats(seats: Any) -> str:
    return ", ".join(f"seat {s}" for s in seats) if isinstance(seats, list) else str(seats)


def _mafia_night(p: Payload) -> str:
    deaths = p.get("deaths") or {}
    died = (
        ", ".join(f"seat {s} {CAUSES.get(str(c), str(c))}" for s, c in deaths.items())
        or "nobody died"
    )
    saved = "; the doctor saved the target" if p.get("saved") else ""
    target = p.get("mafia_target")
    aimed = f"the mafia aimed at seat {target}" if target is not None else "no mafia kill"
    return f"night {p.get('night', '')}: {aimed}{saved}; {died}"


def _colour(value: int) -> str:
    return f"red +{value}" if value > 0 else f"black {value}"


def declaration_words(action: Payload) -> str:
    """A sports-mafia declaration in words: the players it calls red or black, its claimed
    checks and its nomination."""
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


def action_words(action: Any) -> str:
    """An action as people say it: ``vote: seat 5``, ``witch: poison seat 2``."""
    if not isinstance(action, Mapping):
        return _clip(action, 120)
    if "declaration" in action:
        return f"declaration: {declaration_words(action)}"
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


RUNTIME_LINES: dict[str, LineFormatter] = {
    kinds.ACTION: lambda p: (
        f"seat {p['seat']} acts: {action_words(p['action'])}"
        + (" (fallback)" if p.get("by") == "fallback" else "")
    ),
    kinds.THOUGHT: lambda p: f"seat {p['seat']} thinks: {_clip(p['text'])}",
    "speech": lambda p: f"seat {p['seat']} says: {_clip(p['text'])}",
    kinds.INVALID_ACTION: lambda p: f"seat {p['seat']} answer refused: {p['error']}",
    kinds.FALLBACK: lambda p: (
        f"seat {p['seat']} falls back to {action_words(p['action'])} ({p['reason']})"
    ),
    kinds.DECISION_TIMEOUT: lambda p: f"seat {p['seat']} timed out after {p['timeout']:g}s",
    kinds.PARTICIPANT_ERROR: lambda p: f"seat {p['seat']} failed: {p['error']}",
    kinds.LLM_CALL: lambda p: (
        f"{_seat_label(p.get('seat'))} called {p.get('model', '?')}: "
        f"{p.get('prompt_tokens', 0)}{_cached(p)}+{p.get('completion_tokens', 0)} tokens, "
        f"${float(p.get('cost_usd', 0.0)):.4f}"
    ),
    kinds.SUSPICION: lambda p: f"{_seat_label(p.get('seat'))} updates its suspicions",
    kinds.GAME_OVER: lambda p: (
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


def _werewolf_named(kind: str, payload: Payload, names: Mapping[int, str]) -> str | None:
    listed = [names.get(i, f"seat {i}") for i in range(max(names) + 1)]
    return werewolf_text.event_line(kind, payload, werewolf_text.namer(listed))


#: Lines that name the players as the seats' prompts do ("seat 2 (Cleo)"), given the names.
NAMED_LINES: dict[str, Callable[[str, Payload, Mapping[int, str]], str | None]] = {
    "werewolf": _werewolf_named,
}


def event_line(
    variant: Variant | None, variant_id: str, event: Event, names: Mapping[int, str] | None = None
) -> str:
    """The one line a spectator reads for ``event`` (with the players' names when known)."""
    payload = event.payload
    table = VARIANT_LINES.get(variant_id, {})
    named = NAMED_LINES.get(variant_id)
    try:
        if event.source == "rules" and event.kind in table:
            return table[event.kind](payload)
        if event.source == "rules" and named is not None and names:
            line = named(event.kind, payload, names)
            if line:
                return line
        if event.source == "rules" and variant is not None:
            line = variant.format_event(event)
            if line:
                return plain(line)
        formatter = table.get(event.kind) or RUNTIME_LINES.get(event.kind)
        if formatter is not None:
            return formatter(payload)
    except (KeyError, TypeError, ValueError):
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


def actor(event: Event) -> int | None:
    """The seat an event is about or by, if its payload names one."""
    for key in SEAT_KEYS:
        value = event.payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


# What a variant's private events tell the seats that see them, beyond ``{seat, role}``.
VARIANT_REVEALS: dict[str, dict[str, Callable[[Payload], dict[int, str]]]] = {
    "sports-mafia": {
        "MAFIA_TEAM": lambda p: {
            **{int(m): "MAFIA" for m in p["members"]},
            int(p["don"]): "DON",
        },
        "SHERIFF_CHECK_RESULT": lambda p: {int(p["target"]): f"{p['team']} (checked)"},
        "DON_CHECK_RESULT": lambda p: {
            int(p["target"]): "SHERIFF" if p["is_sheriff"] else "not sheriff (checked)"
        },
    },
    "werewolf": {
        "wolf_team": lambda p: {int(w): "Werewolf" for w in p["wolves"]},
    },
}


def revealed_roles(variant_id: str, event: Event) -> dict[int, str]:
    """Roles an event tells whoever sees it. Besides the variant's table it understands
    ``{seat: n, role: r}`` and ``{seat: n, roles: [...]}``, a full deal ``{roles: [...]}``,
    ``{deaths: [{seat, role(s)}]}`` and a team roster ``{members: [...], channel|team: t}``."""
    payload = event.payload
    special = VARIANT_REVEALS.get(variant_id, {}).get(event.kind)
    if special is not None:
        try:
            return special(payload)
        except (KeyError, TypeError, ValueError):
            return {}
    found = _seat_role(payload)
    if found:
        return found
    roles = payload.get("roles")
    if isinstance(roles, list) and all(isinstance(r, str) for r in roles):
        return dict(enumerate(roles))
    deaths = payload.get("deaths")
    if isinstance(deaths, list):
        for death in deaths:
            if isinstance(death, Mapping):
                found.update(_seat_role(death))
        return found
    members, team = payload.get("members"), payload.get("channel", payload.get("team"))
    if isinstance(members, list) and isinstance(team, str):
        return {m: team for m in members if isinstance(m, int) and not isinstance(m, bool)}
    return {}


def _seat_role(payload: Payload) -> dict[int, str]:
    """``{seat|player_id|player|target: n, role: r}`` or ``{..., roles: [r, ...]}``."""
    role = payload.get("role")
    roles = payload.get("roles")
    if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles):
        role = role or "+".join(roles)
    if not isinstance(role, str):
        return {}
    for key in ("seat", "player_id", "player", "target"):
        seat = payload.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool):
            return {seat: role}
    return {}


def _seat_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if value < 0 else value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return _seat_or_none(int(value))
    return None


def vote_casts(event: Event) -> list[tuple[int, int | None]] | None:
    """The votes an event records as ``(voter, target or None)`` pairs, or None if it has none.

    Understands ``{"votes": {voter: target}}``, ``{"votes": [{"seat"|"voter": v, "target": t}]}``
    and single casts: a ``*vote*`` kind with a voter and a ``target``.
    """
    votes = event.payload.get("votes")
    casts: list[tuple[int, int | None]] = []
    if isinstance(votes, Mapping):
        for voter, target in votes.items():
            seat = _seat_or_none(voter)
            if seat is not None:
                casts.append((seat, _seat_or_none(target)))
        return casts
    if isinstance(votes, list) and all(isinstance(v, Mapping) for v in votes):
        for cast in votes:
            seat = _seat_or_none(cast.get("seat", cast.get("voter")))
            if seat is not None and "target" in cast:
                casts.append((seat, _seat_or_none(cast["target"])))
        return casts
    if "vote" in event.kind.lower() and "target" in event.payload:
        voter = actor(event)
        if voter is not None:
            return [(voter, _seat_or_none(event.payload["target"]))]
    return None
