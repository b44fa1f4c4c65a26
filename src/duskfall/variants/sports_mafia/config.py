"""The options of a sports-mafia game."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from duskfall.core.seating import check_seat_order, seat_order_field
from duskfall.variants.sports_mafia.actions import NUM_PLAYERS


class SportsMafiaConfig(BaseModel):
    """Options of a sports-mafia game."""

    model_config = ConfigDict(extra="forbid")

    day_limit: int = Field(30, ge=1, le=1000, description="days before the game is a draw")
    seat_order: list[int] | None = seat_order_field()

    @model_validator(mode="after")
    def _seats(self) -> SportsMafiaConfig:
        check_seat_order(self.seat_order, NUM_PLAYERS)
        return self
