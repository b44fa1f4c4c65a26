"""Runtime settings: retries, deadlines."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from duskfall.core.validation import validated

MAX_DECISION_TIMEOUT = 7 * 24 * 3600.0  # a week: any longer is a typo, not a deadline


class RuntimeSettings(BaseModel):
    """How participants are asked. Every await has a deadline; a game never hangs."""

    model_config = ConfigDict(allow_inf_nan=False)

    retries: int = Field(2, ge=0, le=10, description="re-asks with a hint after a bad answer")
    decision_timeout: float = Field(
        120.0,
        gt=0,
        le=MAX_DECISION_TIMEOUT,
        description="seconds a participant may take for one answer",
    )


def runtime_settings(*, retries: int = 2, decision_timeout: float = 120.0) -> RuntimeSettings:
    """Checked settings: a bad value (``retries=-1``, ``decision_timeout=nan``) is one
    ConfigError."""
    values = {"retries": retries, "decision_timeout": decision_timeout}
    return validated(RuntimeSettings, values, "runtime settings")
