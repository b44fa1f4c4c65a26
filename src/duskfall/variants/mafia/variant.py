"""The classic mafia :class:`~duskfall.core.variant.Variant` description."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.variant import LegalActions, Variant, VariantInfo
from duskfall.variants.mafia import bots, prompts, terminal_form, testing, wire
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.events import EVENT_TYPES
from duskfall.variants.mafia.facts import FACTS
from duskfall.variants.mafia.learning import LEARNING
from duskfall.variants.mafia.prompt_kit import KIT
from duskfall.variants.mafia.roles import MAFIA_TEAM, ROLES, TOWN
from duskfall.variants.mafia.rules import MafiaState
from duskfall.variants.mafia.spectator import SPECTATOR


class MafiaVariant:
    """Seed 000: Mafia, Doctor, Sheriff, Vigilante, Villager; multi-role; team coordination."""

    id = "mafia"
    name = "Classic mafia (doctor, sheriff, vigilante)"
    teams: tuple[str, ...] = (TOWN, MAFIA_TEAM)
    team_aliases: Mapping[str, str] = {
        "town": TOWN,
        "village": TOWN,
        "villagers": TOWN,
        "mafia": MAFIA_TEAM,
        "scum": MAFIA_TEAM,
    }
    roles = tuple(ROLES.values())
    config_model: type[BaseModel] = MafiaConfig
    info = VariantInfo(
        scramble_hidden=testing.scramble_hidden,
        wire=wire.WIRE,
        prompt_kit=KIT,
        terminal_form=terminal_form.terminal_form,
        spectator=SPECTATOR,
        facts=FACTS,
        learning=LEARNING,
        event_types=EVENT_TYPES,
        roles=tuple(ROLES),
    )

    def new_game(self, config: BaseModel, seed: int) -> MafiaState:
        if not isinstance(config, MafiaConfig):
            config = MafiaConfig.model_validate(config.model_dump())
        return MafiaState(config, seed)

    def render_prompts(
        self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
    ) -> tuple[str, str]:
        return prompts.render_prompts(observation, legal, hint)

    def format_event(self, event: Event) -> str | None:
        return prompts.format_event(event)

    def bots(self) -> Mapping[str, Any]:
        return bots.BOTS


VARIANT: Variant = MafiaVariant()
