"""A mafia seat's prompts, composed from the variant's prompt kit, and god-view lines.

Prompts follow duskfall's one contract (:mod:`duskfall.core.transcript`): a fixed system
prompt, the seat's history by night and day, its standing and the decision now. The god-view
lines (:func:`format_event`) are for the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.core.events import Event
from duskfall.core.legal import LegalActions
from duskfall.core.terminal import plain
from duskfall.core.transcript import stateless_prompts
from duskfall.variants.mafia.prompt_kit import KIT


def render_prompts(
    observation: Mapping[str, Any], legal: LegalActions, hint: str | None
) -> tuple[str, str]:
    """The system and user prompt of one decision (coaching off)."""
    return stateless_prompts(KIT, observation, legal, KIT.entries(observation), hint=hint)


# ------------------------------------------------------------- god-view lines


def _roles(entry: Mapping[str, Any]) -> str:
    return "+".join(entry.get("roles") or ()) or "?"


def _seat(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None and 0 <= seat < len(names) else f"#{seat}"


def _about(entry: Mapping[str, Any], names: Sequence[str] | None) -> str:
    target = entry.get("target")
    if target is None:
        return ""
    return f" (about {entry.get('target_name') or _seat(target, names)})"


def describe_entry(entry: Mapping[str, Any], names: Sequence[str] | None) -> str:
    """One line for a log entry (public, channel or private)."""
    kind, day = entry["kind"], entry.get("day", 0)
    if kind in ("speech", "chat"):
        claim = f" (claims {entry['claim']})" if entry.get("claim") else ""
        text = entry["says"] or "(silent)"
        when = f"Day {day}" if kind == "speech" else f"Night {day}"
        return f"{when} {entry['name']}{claim}: {text}{_about(entry, names)}"
    if kind == "dawn":
        deaths = entry["deaths"]
        if not deaths:
            return f"Night {day}: nobody died"
        return f"Night {day}: " + ", ".join(
            f"{d['name']} was found dead ({_roles(d)})" for d in deaths
        )
    if kind == "vote_result":
        votes = ", ".join(
            f"{_seat(int(v), names)}->{_seat(t, names) if t is not None else 'abstain'}"
            for v, t in entry["votes"].items()
        )
        out = entry.get("eliminated")
        result = (
            f"{entry['name']} is eliminated ({_roles(entry)})" if out is not None else "nobody out"
        )
        return f"Day {day} vote: {votes}. {result}"
    if kind == "team_vote":
        target = entry.get("target_name") or _seat(entry["target"], names)
        return f"Night {day}: {entry['name']} votes for {target}"
    if kind == "mafia_target":
        return f"Night {day}: the mafia chose {entry['target_name']}"
    if kind == "doctor_consensus":
        return (
            f"Night {day}: DOCTOR CONSENSUS: protect {entry['target_name']} "
            f"({entry['votes']}/{entry['of']} votes)"
        )
    if kind == "investigation":
        return f"Night {day}: {entry['name']} investigated {entry['target_name']}: {_roles(entry)}"
    if kind == "vigilante_shot":
        return f"Night {day}: {entry['name']} shoots {entry['target_name']}"
    if kind == "vigilante_pass":
        return f"Night {day}: {entry['name']} holds fire"
    if kind == "protection":
        return f"Night {day}: you protected {_seat(entry['target'], names)}"
    return f"{kind}: {dict(entry)}"


def format_event(event: Event) -> str | None:
    """One terminal line (god view, rich markup) for a rules event, or None to skip it: every
    name and word from the game goes through :func:`~duskfall.core.terminal.plain`."""
    p = event.payload
    kind = event.kind
    if kind == "setup":
        return "players: " + ", ".join(f"{q['seat']}={plain(q['name'])}" for q in p["players"])
    if kind == "deal":
        return "roles: " + ", ".join(f"#{s}={r}" for s, r in p["roles"].items())
    if kind == "night_start":
        return f"[blue]Night {p['night']}[/]"
    if kind == "day_start":
        return f"[bold]Day {p['day']}[/]"
    if kind == "night_summary":
        return None
    if kind == "doctor_action":
        return f"(doctor) #{p['seat']} protects {plain(p['target_name'])}"
    if kind == "game_end":
        return f"[bold]game over: {plain(p['winner'] or 'draw')} ({plain(p['reason'])})[/]"
    if kind in ("role", "team"):
        return None
    if "kind" not in p:
        return None
    line = plain(describe_entry(p, None))
    channel = p.get("channel")
    return f"({plain(channel)}) {line}" if channel else line
