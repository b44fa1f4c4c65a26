"""The sports-mafia :class:`~duskfall.core.variant.Variant` description."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.kit_entries import CheckTable, KitEntries
from duskfall.core.legal import LegalActions
from duskfall.core.variant import Variant, VariantInfo
from duskfall.variants.sports_mafia import (
    bots,
    prompt_kit,
    prompts,
    terminal_form,
    testing,
    wire,
)
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.events import EVENT_TYPES
from duskfall.variants.sports_mafia.facts import FACTS
from duskfall.variants.sports_mafia.learning import LEARNING
from duskfall.variants.sports_mafia.roles import BLACK, CITIZEN, DON, MAFIA, RED, SHERIFF
from duskfall.variants.sports_mafia.rules import SportsMafiaState
from duskfall.variants.sports_mafia.spectator import SPECTATOR

KIT_ENTRIES = KitEntries(
    rows=(
        "DECLARATION",
        "VOTING",
        "VOTING (re-vote among tied)",
        "VOTING (eliminate-all)",
        "NIGHT_KILL",
        "NIGHT_DON",
        "NIGHT_SHERIFF",
    ),
    tables=(
        CheckTable("sports-don", {}, "spare", role=DON),
        CheckTable("sports-sheriff", {}, "spare", role=SHERIFF),
        CheckTable("sports-tie", {}, "tie", role=CITIZEN),
        CheckTable("sports-reconnect", {}, "spare", role=CITIZEN, fault="reconnect"),
        CheckTable("sports-slow", {}, "spare", role=CITIZEN, fault="slow", deadline_ms=1),
    ),
    docs="docs/protocol.md#action_response",
)
"""What check-bot plays and reports for sports mafia (the program's role found by seed)."""


class SportsMafiaVariant:
    """Seed 001's 10-seat sports mafia."""

    id = "sports-mafia"
    name = "Sports mafia (10 seats)"
    teams: tuple[str, ...] = (RED, BLACK)
    team_aliases: Mapping[str, str] = {
        "red": RED,
        "town": RED,
        "black": BLACK,
        "mafia": BLACK,
    }
    config_model: type[BaseModel] = SportsMafiaConfig
    info = VariantInfo(
        scramble_hidden=testing.scramble_hidden,
        wire=wire.WIRE,
        prompt_kit=prompt_kit.KIT,
        terminal_form=terminal_form.terminal_form,
        spectator=SPECTATOR,
        facts=FACTS,
        learning=LEARNING,
        event_types=EVENT_TYPES,
        roles=(CITIZEN, SHERIFF, MAFIA, DON),
        kit=KIT_ENTRIES,
    )
    num_seats = 10

    def new_game(self, config: BaseModel, seed: int) -> SportsMafiaState:
        assert isinstance(config, SportsMafiaConfig)
        return SportsMafiaState(config, seed)

    def render_prompts(
        self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
    ) -> tuple[str, str]:
        return prompts.render_prompts(observation, legal, hint)

    def format_event(self, event: Event) -> str | None:
        return prompts.format_event(event)

    def bots(self) -> Mapping[str, Any]:
        return bots.BOTS


VARIANT: Variant = SportsMafiaVariant()
