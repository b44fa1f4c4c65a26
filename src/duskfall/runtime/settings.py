"""Runtime settings: retries, deadlines."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RuntimeSettings(BaseModel):
    """How participants are asked. Every await has a deadline; a game never hangs."""

    retries: int = Field(2, ge=0, le=10, description="re-asks with a hint after a bad answer")
    decision_timeout: float = Field(
        120.0, gt=0, description="seconds a participant may take for one answer"
    )
