"""The mafia variant's configuration (validated at the edge, then read by the rules)."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from duskfall.core.errors import ConfigError
from duskfall.core.seating import check_seat_order, seat_order_field
from duskfall.variants.mafia.roles import (
    RoleSet,
    default_deal,
    parse_role_entry,
    team_of_roles,
)

DEFAULT_NAMES: tuple[str, ...] = (
    "Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
    "Kavya", "Liam", "Mira", "Nico", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tara",
    "Umar", "Vera", "Wes", "Xenia", "Yusuf", "Zoe", "Arjun", "Bea", "Cyril", "Dana",
)  # fmt: skip


class MafiaConfig(BaseModel):
    """Options of a classic mafia game; defaults follow seed 000."""

    model_config = ConfigDict(extra="forbid")

    players: int = Field(8, ge=3, le=len(DEFAULT_NAMES), description="number of seats")
    roles: list[str] | None = Field(
        None,
        description="one entry per player, e.g. ['MAFIA', 'DOCTOR', 'DOCTOR', ...]; an entry "
        "like 'MAFIA+DOCTOR' gives one player several roles (needs allow_multi_role); "
        "default: floor(n/4) Mafia, Doctor, Sheriff, Vigilante from 6 players, Villagers",
    )
    allow_multi_role: bool = Field(False, description="allow entries such as 'MAFIA+DOCTOR'")
    shuffle_roles: bool = Field(True, description="deal roles at random (else in seat order)")
    names: list[str] | None = Field(None, description="player names, one per seat")
    seat_order: list[int] | None = seat_order_field()
    coordination: bool = Field(
        True,
        description="players sharing a role chat and agree at night (seed 000); "
        "false: each acts alone and unaware of the others",
    )
    mafia_chat_rounds: int = Field(2, ge=0, le=10)
    doctor_chat_rounds: int = Field(3, ge=0, le=10)
    sheriff_chat_rounds: int = Field(2, ge=0, le=10)
    vigilante_chat_rounds: int = Field(2, ge=0, le=10)
    discussion_cap: int = Field(10, ge=0, le=100, description="day messages at most")
    messages_per_player: int = Field(2, ge=0, le=10, description="day messages per player")
    day_limit: int = Field(10, ge=1, le=100, description="after this day's vote: a draw")
    max_message_chars: int = Field(800, ge=10, le=10_000, description="longer text is cut")

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.roles is not None and "players" not in self.model_fields_set:
            self.players = len(self.roles)
        deal = self.deal()
        if len(deal) != self.players:
            raise ValueError(f"roles has {len(deal)} entries but players is {self.players}")
        check_seat_order(self.seat_order, self.players)
        mafia = sum(team_of_roles(r) == "mafia" for r in deal)
        if mafia == 0:
            raise ValueError("the deal needs at least one MAFIA")
        if mafia >= self.players - mafia:
            raise ValueError("the mafia must start outnumbered by the town")
        names = self.seat_names()
        if len(names) != self.players:
            raise ValueError(f"names has {len(names)} entries but players is {self.players}")
        folded = [n.strip().lower() for n in names]
        if any(not n for n in folded) or len(set(folded)) != len(folded):
            raise ValueError("names must be non-empty and distinct (ignoring case)")
        if any(n.isdigit() for n in folded):
            raise ValueError("names cannot be numbers (numbers mean seats)")
        return self

    def deal(self) -> list[RoleSet]:
        """The roles to deal, one entry per player (before shuffling)."""
        try:
            if self.roles is None:
                return default_deal(self.players)
            return [parse_role_entry(e, self.allow_multi_role) for e in self.roles]
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    def seat_names(self) -> list[str]:
        return list(self.names) if self.names is not None else list(DEFAULT_NAMES[: self.players])
