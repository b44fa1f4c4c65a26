"""The classic mafia :class:`~duskfall.core.variant.Variant` description."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.kit_entries import CheckTable, KitEntries
from duskfall.core.legal import LegalActions
from duskfall.core.variant import Variant, VariantInfo
from duskfall.variants.mafia import bots, prompts, terminal_form, testing, wire
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.events import EVENT_TYPES
from duskfall.variants.mafia.facts import FACTS
from duskfall.variants.mafia.learning import LEARNING
from duskfall.variants.mafia.private_facts import PRIVATE_FACTS
from duskfall.variants.mafia.prompt_kit import KIT
from duskfall.variants.mafia.roles import MAFIA_TEAM, ROLES, TOWN
from duskfall.variants.mafia.rules import MafiaState
from duskfall.variants.mafia.spectator import SPECTATOR


def _table(*roles: str) -> dict[str, Any]:
    """A table dealt in the order given (seat 0 gets the first role); ``A+B``: several roles."""
    config: dict[str, Any] = {"roles": list(roles), "shuffle_roles": False}
    if any("+" in role for role in roles):
        config["allow_multi_role"] = True
    return config


_ALL_TOWN = "DOCTOR+SHERIFF+VIGILANTE"
_ROWS = (
    "MAFIA_CHAT", "MAFIA_VOTE", "DOCTOR_ACTION", "DOCTOR_COORDINATION",
    "DOCTOR_PROTECTION_VOTE", "SHERIFF_ACTION", "SHERIFF_COORDINATION",
    "SHERIFF_INVESTIGATION_ASSIGNMENT", "VIGILANTE_ACTION", "VIGILANTE_COORDINATION",
    "DAY_DISCUSSION", "DAY_VOTE",
)  # fmt: skip
KIT_ENTRIES = KitEntries(
    rows=_ROWS,
    tables=(
        CheckTable(
            "mafia-mafioso",
            _table("MAFIA", "MAFIA", "DOCTOR", "SHERIFF", "VILLAGER", "VILLAGER", "VILLAGER"),
            "spare",
        ),
        CheckTable(
            "mafia-coordinated",
            _table(_ALL_TOWN, _ALL_TOWN, "MAFIA", "MAFIA", *["VILLAGER"] * 4),
            "spare",
        ),
        CheckTable("mafia-alone", _table(_ALL_TOWN, "MAFIA", *["VILLAGER"] * 4), "spare"),
    ),
    catalog=(
        {},
        {"roles": ["MAFIA", "MAFIA", "DOCTOR", "DOCTOR", "SHERIFF", "SHERIFF", "VILLAGER"]},
        {"roles": ["MAFIA", "MAFIA", "VIGILANTE", "VIGILANTE", "VILLAGER", "VILLAGER"]},
        {
            "allow_multi_role": True,
            "roles": ["MAFIA+DOCTOR", "MAFIA+SHERIFF", "DOCTOR", "SHERIFF", "VIGILANTE"]
            + ["VILLAGER"] * 3,
        },
        {
            "coordination": False,
            "roles": ["MAFIA", "MAFIA", "DOCTOR", "SHERIFF"] + ["VILLAGER"] * 3,
        },
    ),
    docs="docs/mafia.md#over-the-wire",
)
"""What check-bot plays and reports for mafia, and the catalog's tables."""


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
        private_facts=PRIVATE_FACTS,
        scramble_hidden=testing.scramble_hidden,
        wire=wire.WIRE,
        prompt_kit=KIT,
        terminal_form=terminal_form.terminal_form,
        spectator=SPECTATOR,
        facts=FACTS,
        learning=LEARNING,
        event_types=EVENT_TYPES,
        roles=tuple(ROLES),
        kit=KIT_ENTRIES,
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
