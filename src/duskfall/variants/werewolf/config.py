"""The Werewolf game configuration: a preset or a custom role list, and the table's rule options."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from duskfall.core.seating import check_seat_order, seat_order_field
from duskfall.variants.werewolf.roles import (
    DEFAULT_NAMES,
    DEFAULT_PRESET,
    LIST_EXAMPLE,
    PRESETS,
    canonical_role,
    check_role_list,
)


class WerewolfConfig(BaseModel):
    """Options where tables differ; the defaults are the seed engine's rules."""

    model_config = ConfigDict(extra="forbid")

    preset: str | None = Field(
        None, description=f"role set: {', '.join(PRESETS)} (default {DEFAULT_PRESET})"
    )
    roles: list[str] | None = Field(
        None, description=f"custom role list, e.g. [{', '.join(map(repr, LIST_EXAMPLE))}, ...]"
    )
    names: list[str] | None = Field(None, description="player names, one per seat")
    deal: Literal["shuffle", "in_order"] = Field(
        "shuffle", description="shuffle the roles by seed, or seat them in the order given"
    )
    seat_order: list[int] | None = seat_order_field()
    guarded_and_saved: Literal["survives", "dies"] = Field(
        "survives", description="fate of a player both guarded and saved by the witch"
    )
    win_condition: Literal["side-kill", "all-kill"] = Field(
        "side-kill",
        description="wolves win when all gods or all villagers are dead (side-kill), "
        "or only when every non-wolf is dead (all-kill)",
    )
    hunter_shot: bool = Field(True, description="the hunter shoots when killed by wolves or exiled")
    badge: bool = Field(True, description="hold the sheriff (badge) election on day 1")
    last_words_first_night_only: bool = Field(
        True, description="night deaths get last words on night 1 only (exiles always do)"
    )
    wolf_rounds: int = Field(
        2, ge=1, le=5, description="discussion + vote rounds the wolves get to agree on a kill"
    )
    speech_max_chars: int = Field(800, ge=20, le=10_000, description="longer speeches are cut")
    day_limit: int = Field(20, ge=1, le=200, description="after this day the game is a draw")

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, value: str | None) -> str | None:
        if value is not None and value not in PRESETS:
            raise ValueError(f"unknown preset {value!r}; presets are {', '.join(PRESETS)}")
        return value

    @field_validator("roles")
    @classmethod
    def _valid_roles(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        roles = [canonical_role(r) for r in value]
        check_role_list(roles)
        return roles

    @model_validator(mode="after")
    def _consistent(self) -> WerewolfConfig:
        if self.preset is not None and self.roles is not None:
            raise ValueError("give either a preset or a custom roles list, not both")
        check_seat_order(self.seat_order, len(self.role_list()))
        if self.names is not None:
            n = len(self.role_list())
            if len(self.names) != n:
                raise ValueError(f"names has {len(self.names)} entries but the game has {n} seats")
            cleaned = [name.strip() for name in self.names]
            if any(not name or name.isdigit() for name in cleaned):
                raise ValueError("each name must be non-empty and not a number")
            if len({name.lower() for name in cleaned}) != len(cleaned):
                raise ValueError("names must be different (ignoring case)")
            self.names = cleaned
        return self

    def role_list(self) -> tuple[str, ...]:
        """The roles to deal, before shuffling."""
        if self.roles is not None:
            return tuple(self.roles)
        return PRESETS[self.preset or DEFAULT_PRESET]

    def seat_names(self) -> tuple[str, ...]:
        n = len(self.role_list())
        return tuple(self.names) if self.names is not None else DEFAULT_NAMES[:n]
