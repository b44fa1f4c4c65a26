"""Text for players: LLM prompts (composed from the prompt kit) and one line per event for the
god view."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.events import Event
from duskfall.core.legal import LegalActions
from duskfall.core.transcript import stateless_prompts
from duskfall.variants.sports_mafia.prompt_kit import KIT


def render_prompts(
    observation: Mapping[str, Any], legal: LegalActions, hint: str | None
) -> tuple[str, str]:
    """The seat's (system, user) prompt composed from its kit; the observation carries no
    history, so the table state is in the situation."""
    return stateless_prompts(KIT, observation, legal, KIT.entries(observation), hint=hint)


def format_event(event: Event) -> str | None:
    """One terminal line (god view, rich markup) for a rules event, or None to skip it."""
    p = event.payload
    kind = event.kind
    simple: dict[str, Callable[[], str]] = {
        "ROLES_DEALT": lambda: "roles: " + ", ".join(f"{i}={r}" for i, r in enumerate(p["roles"])),
        "DAY_STARTED": lambda: f"[bold]Day {p['turn'] + 1}[/] (first speaker {p['first_speaker']})",
        "DECLARATION": lambda: (
            f"player {p['player_id']} declares: {spoken_beliefs(p['declaration'])}"
            + (
                " [magenta]with sheriff claims[/]"
                if any(any(r) for r in p["sheriff_claims"])
                else ""
            )
        ),
        "PLAYER_NOMINATED": lambda: f"player {p['by']} nominates [yellow]{p['player_id']}[/]",
        "VOTES": lambda: (
            f"votes (round {p['round']}): " + ", ".join(f"{k}->{v}" for k, v in p["votes"].items())
        ),
        "REVOTE_STARTED": lambda: f"tie between {p['tied']}: re-vote",
        "ELIMINATE_ALL_STARTED": lambda: f"tie again between {p['tied']}: eliminate-all vote",
        "ELIMINATE_ALL_RESULT": lambda: f"eliminate all {p['tied']}? yes {p['yes']}, no {p['no']}",
        "PLAYER_ELIMINATED": lambda: f"[red]player {p['player_id']} is eliminated[/]",
        "NIGHT_STARTED": lambda: "[blue]Night falls[/]",
        "PLAYER_KILLED": lambda: f"[red]player {p['player_id']} is killed in the night[/]",
        "NO_KILL": lambda: "nobody is killed tonight",
        "DON_CHECK_RESULT": lambda: (
            f"(don) checks {p['target']}: " + ("SHERIFF" if p["is_sheriff"] else "not the sheriff")
        ),
        "SHERIFF_CHECK_RESULT": lambda: f"(sheriff) checks {p['target']}: {p['team']}",
    }
    render = simple.get(kind)
    return render() if render else None


# A belief's words (the prompt kit's scale: +3 surely RED .. -3 surely BLACK).
_BELIEF_WORDS = {3: "surely red", 2: "likely red", 1: "leaning red"}


def spoken_beliefs(declaration: Sequence[int]) -> str:
    """A declaration for people: ``surely red 0; leaning red 1, 2; likely black 6``."""
    groups: dict[int, list[str]] = {}
    for player, value in enumerate(declaration):
        if value:
            groups.setdefault(value, []).append(str(player))
    said = [
        f"{_BELIEF_WORDS[abs(v)] if v > 0 else _BELIEF_WORDS[abs(v)].replace('red', 'black')}"
        f" {', '.join(groups[v])}"
        for v in sorted(groups, reverse=True)
        if abs(v) in _BELIEF_WORDS
    ]
    return "; ".join(said) or "no beliefs"
