"""Text for people: the human terminal view and the god-view line of each event.

Both are built from a seat's observation (``view.observe``) or from the events, never from the
state. The LLM prompts are composed from the prompt kit (:mod:`.prompt_kit`); the event lines
shared by all of them are in :mod:`.event_text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.markup import escape

from duskfall.core.events import Event
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.event_text import event_line, namer, plain


def knowledge_lines(obs: Mapping[str, Any]) -> list[str]:
    """What this seat privately knows (partners, checks, potions, last protection)."""
    name = namer([p["name"] for p in obs["players"]])
    lines = []
    if "wolves" in obs:
        partners = [name(w) for w in obs["wolves"] if w != obs["seat"]]
        lines.append(
            "Your fellow werewolves: " + (", ".join(partners) if partners else "none (alone)")
        )
    if "checks" in obs:
        done = [f"night {c['night']}: {name(c['target'])} is {c['result']}" for c in obs["checks"]]
        lines.append("Your checks: " + ("; ".join(done) if done else "none yet"))
    if "antidote" in obs:
        lines.append(
            f"Antidote: {'available' if obs['antidote'] else 'used'}; "
            f"poison: {'available' if obs['poison'] else 'used'}"
        )
        if obs.get("attacked_tonight") is not None:
            lines.append(f"Tonight the werewolves attacked {name(obs['attacked_tonight'])}.")
    if "last_guarded" in obs:
        lines.append(f"Last night you protected {name(obs['last_guarded'])}.")
    return lines


def render_view(obs: Mapping[str, Any]) -> str:
    """The seat's situation in a few lines (who it is, who lives, what it knows)."""
    name = namer([p["name"] for p in obs["players"]])
    status = "alive" if obs["alive"] else "dead"
    lines = [
        f"You are {name(obs['seat'])}, the {obs['role']} ({status}). "
        f"{'Night' if obs['phase'] == P.NIGHT else 'Day'} {obs['day']}.",
        "Alive: " + ", ".join(name(p["seat"]) for p in obs["players"] if p["alive"]),
    ]
    dead = [name(p["seat"]) for p in obs["players"] if not p["alive"]]
    if dead:
        lines.append("Dead: " + ", ".join(dead))
    if obs["sheriff"] is not None:
        lines.append(f"Sheriff: {name(obs['sheriff'])}")
    lines.extend(knowledge_lines(obs))
    return "\n".join(lines)


def format_history_entry(entry: Mapping[str, Any], obs: Mapping[str, Any]) -> str | None:
    """One line of a seat's history, with the player names of its observation."""
    return event_line(entry["kind"], entry, namer([p["name"] for p in obs["players"]]))


def format_event(event: Event) -> str | None:
    """One line per rules event for the god view (seat numbers; rich markup escaped)."""
    line = event_line(event.kind, event.payload, plain)
    return escape(line) if line is not None else None
