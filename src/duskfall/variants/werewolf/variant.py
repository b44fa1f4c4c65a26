"""The Werewolf :class:`~duskfall.core.variant.Variant` description."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.kit_entries import CheckTable, KitEntries
from duskfall.core.legal import LegalActions
from duskfall.core.transcript import stateless_prompts
from duskfall.core.variant import Variant, VariantInfo
from duskfall.variants.werewolf import bots, prompts, terminal_form, testing, wire
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.config import WerewolfConfig
from duskfall.variants.werewolf.facts import FACTS
from duskfall.variants.werewolf.learning import LEARNING
from duskfall.variants.werewolf.prompt_kit import KIT
from duskfall.variants.werewolf.roles import (
    CHECK_TABLE,
    CHECK_TABLES,
    KIT_GAMES,
    PRESETS,
    ROLES,
    TEAM_ALIASES,
    TEAMS,
    canonical_role,
)
from duskfall.variants.werewolf.rules import WerewolfState
from duskfall.variants.werewolf.spectator import SPECTATOR
from duskfall.variants.werewolf.units import CHOICES, EVENT_TYPES, PRIVATE_FACTS, TURNS


def _table(*roles: str) -> dict[str, Any]:
    """A table dealt in the order given (seat 0 gets the first role)."""
    return {"roles": list(roles), "deal": "in_order"}


_NIGHT_KINDS = tuple(kind for step in P.NIGHT_ORDER for kind in step)
KIT_ENTRIES = KitEntries(
    rows=(*_NIGHT_KINDS, *TURNS, *CHOICES, *(kind for step in P.DAY_ORDER for kind in step)),
    tables=(
        *(CheckTable(name, _table(*roles), goal) for name, roles, goal in KIT_GAMES),
        *(
            CheckTable(
                f"werewolf-{name.lower()}",
                _table(name, *CHECK_TABLES.get(name, CHECK_TABLE)),
                "voters",
            )
            for name in (unit.name for unit in CHOICES.values())
        ),
    ),
    catalog=({}, {"preset": "werewolf-9"}, {"preset": "werewolf-6"}),
    docs="docs/werewolf.md#decisions-and-actions",
)
"""What check-bot plays and reports for Werewolf (a role's own night choice brings its row and
its game), and the catalog's tables."""


class WerewolfVariant:
    """Seed 004's Werewolf: presets of 6, 9 and 12 seats or a custom role list."""

    id = "werewolf"
    name = "Werewolf"
    teams: tuple[str, ...] = TEAMS
    team_aliases: Mapping[str, str] = TEAM_ALIASES
    config_model: type[BaseModel] = WerewolfConfig
    info = VariantInfo(
        presets=PRESETS,
        sequential_kinds=frozenset(P.SEQUENTIAL_KINDS),
        scramble_hidden=testing.scramble_hidden,
        wire=wire.WIRE,
        prompt_kit=KIT,
        terminal_form=terminal_form.terminal_form,
        spectator=SPECTATOR,
        facts=FACTS,
        learning=LEARNING,
        event_types=EVENT_TYPES,
        roles=tuple(ROLES),
        role_named=canonical_role,
        kit=KIT_ENTRIES,
        private_facts=PRIVATE_FACTS,
    )
    roles = ROLES

    def new_game(self, config: BaseModel, seed: int) -> WerewolfState:
        if not isinstance(config, WerewolfConfig):
            config = WerewolfConfig.model_validate(config.model_dump())
        return WerewolfState(config, seed)

    def render_prompts(
        self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
    ) -> tuple[str, str]:
        return stateless_prompts(KIT, observation, legal, KIT.entries(observation), hint=hint)

    def format_event(self, event: Event) -> str | None:
        return prompts.format_event(event)

    def bots(self) -> Mapping[str, Any]:
        return bots.BOTS


VARIANT: Variant = WerewolfVariant()
