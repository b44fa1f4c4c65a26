"""The options of a sports-mafia game."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SportsMafiaConfig(BaseModel):
    """Options of a sports-mafia game."""

    model_config = ConfigDict(extra="forbid")

    day_limit: int = Field(30, ge=1, le=1000, description="days before the game is a draw")
