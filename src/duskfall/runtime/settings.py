"""Runtime settings: retries, deadlines, and what a seat that keeps failing does to a game."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from duskfall.core.validation import validated

MAX_DECISION_TIMEOUT = 7 * 24 * 3600.0  # a week: any longer is a typo, not a deadline

SeatFailurePolicy = Literal["abort", "fallback"]
SEAT_FAILURE_POLICIES: tuple[SeatFailurePolicy, ...] = ("abort", "fallback")


class RuntimeSettings(BaseModel):
    """How participants are asked. Every await has a deadline; a game never hangs.

    A seat *fails* a decision when every attempt at it raised an error (a model that cannot
    be reached, a terminal that closed): no answer at all, refused or not. With
    ``on_seat_failure="abort"``, ``seat_failures`` such decisions in a row stop the game as
    aborted; with ``"fallback"`` the seat plays its fallbacks to the end.
    """

    model_config = ConfigDict(allow_inf_nan=False)

    retries: int = Field(2, ge=0, le=10, description="re-asks with a hint after a bad answer")
    decision_timeout: float = Field(
        120.0,
        gt=0,
        le=MAX_DECISION_TIMEOUT,
        description="seconds a participant may take for one answer",
    )
    on_seat_failure: SeatFailurePolicy = Field(
        "abort", description="abort the game, or play the fallbacks, when a seat keeps failing"
    )
    seat_failures: int = Field(
        3, ge=1, le=1000, description="failed decisions in a row that count as a failing seat"
    )


def runtime_settings(
    *,
    retries: int = 2,
    decision_timeout: float = 120.0,
    on_seat_failure: str = "abort",
) -> RuntimeSettings:
    """Checked settings: a bad value (``retries=-1``, ``decision_timeout=nan``) is one
    ConfigError."""
    values = {
        "retries": retries,
        "decision_timeout": decision_timeout,
        "on_seat_failure": on_seat_failure,
    }
    return validated(RuntimeSettings, values, "runtime settings")
