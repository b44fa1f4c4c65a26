"""The config of a remote entrant (``[remote.NAME]`` of a tournament config); how its program
is started and plays is in :mod:`duskfall.arena.remote_entrants`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

REMOTE = "remote"  # the entrant spec of a remote entrant
PLACEHOLDER_AGENT = "random"  # the agent string of a remote seat (its program plays it)
PLACEHOLDERS = ("host", "port", "token", "seat", "game_id", "variant")


class RemoteEntrant(BaseModel):
    """How to start a remote entrant's program (``[remote.NAME]`` in a tournament config)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    command: list[str] = Field(min_length=1)
    deadline_ms: int = Field(60_000, ge=1, description="time the program has for one answer")
    connect_timeout: float = Field(30.0, gt=0, description="seconds to connect and say HELLO")

    @field_validator("command")
    @classmethod
    def _placeholders(cls, value: list[str]) -> list[str]:
        for part in value:
            try:
                part.format(**{name: "" for name in PLACEHOLDERS})
            except (KeyError, IndexError, ValueError) as exc:
                raise ValueError(
                    f"command part {part!r}: placeholders are "
                    + ", ".join("{" + name + "}" for name in PLACEHOLDERS)
                    + f" ({exc})"
                ) from None
        return value
