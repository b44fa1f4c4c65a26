"""The sports-mafia :class:`~duskfall.core.variant.Variant` description."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.variant import LegalActions, VariantInfo
from duskfall.variants.sports_mafia import bots, prompts
from duskfall.variants.sports_mafia.rules import (
    BLACK,
    RED,
    SportsMafiaConfig,
    SportsMafiaState,
)


def _line(event: Event) -> str | None:
    p = event.payload
    kind = event.kind
    simple: dict[str, Callable[[], str]] = {
        "ROLES_DEALT": lambda: "roles: " + ", ".join(f"{i}={r}" for i, r in enumerate(p["roles"])),
        "DAY_STARTED": lambda: f"[bold]Day {p['turn'] + 1}[/] (first speaker {p['first_speaker']})",
        "DECLARATION": lambda: (
            f"player {p['player_id']} declares {p['declaration']}"
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


class SportsMafiaVariant:
    """Seed 001's 10-seat sports mafia."""

    id = "sports-mafia"
    name = "Sports mafia (10 seats)"
    teams = (RED, BLACK)
    team_aliases: Mapping[str, str] = {
        "red": RED,
        "town": RED,
        "black": BLACK,
        "mafia": BLACK,
    }
    config_model: type[BaseModel] = SportsMafiaConfig
    info = VariantInfo()
    num_seats = 10

    def new_game(self, config: BaseModel, seed: int) -> SportsMafiaState:
        assert isinstance(config, SportsMafiaConfig)
        return SportsMafiaState(config, seed)

    def render_prompts(
        self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
    ) -> tuple[str, str]:
        return prompts.render_prompts(observation, legal, hint)

    def format_event(self, event: Event) -> str | None:
        return _line(event)

    def bots(self) -> Mapping[str, Any]:
        return bots.BOTS


VARIANT = SportsMafiaVariant()
