"""The Werewolf :class:`~duskfall.core.variant.Variant` description."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.variant import LegalActions, State, VariantInfo
from duskfall.runtime.handler import Handler
from duskfall.variants.werewolf import bots, prompts
from duskfall.variants.werewolf.config import WerewolfConfig
from duskfall.variants.werewolf.handlers import HANDLERS
from duskfall.variants.werewolf.roles import PRESETS, ROLES, TEAM_ALIASES, TEAMS
from duskfall.variants.werewolf.rules import WerewolfState, scramble_hidden


class WerewolfVariant:
    """Seed 004's Werewolf: presets of 6, 9 and 12 seats or a custom role list."""

    id = "werewolf"
    name = "Werewolf"
    teams = TEAMS
    team_aliases: Mapping[str, str] = TEAM_ALIASES
    config_model: type[BaseModel] = WerewolfConfig
    info = VariantInfo(presets=PRESETS, scramble_hidden=scramble_hidden)
    presets: Mapping[str, Sequence[str]] = PRESETS
    roles = ROLES
    handlers: Mapping[str, Handler] = HANDLERS

    def new_game(self, config: BaseModel, seed: int) -> WerewolfState:
        if not isinstance(config, WerewolfConfig):
            config = WerewolfConfig.model_validate(config.model_dump())
        return WerewolfState(config, seed)

    def render_prompts(
        self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
    ) -> tuple[str, str]:
        return prompts.render_prompts(observation, legal, hint)

    def render_view(self, observation: Mapping[str, Any]) -> str:
        """The seat's situation for a person at the terminal (no history)."""
        return prompts.render_view(observation)

    def format_history_entry(
        self, entry: Mapping[str, Any], observation: Mapping[str, Any]
    ) -> str | None:
        """One line of a seat's history, with player names."""
        return prompts.history_line(entry, [p["name"] for p in observation["players"]])

    def format_event(self, event: Event) -> str | None:
        return prompts.format_event(event)

    def bots(self) -> Mapping[str, Any]:
        return bots.BOTS

    def scramble_hidden(self, state: State, seat: int, rng: random.Random) -> WerewolfState:
        assert isinstance(state, WerewolfState)
        return scramble_hidden(state, seat, rng)


VARIANT = WerewolfVariant()
