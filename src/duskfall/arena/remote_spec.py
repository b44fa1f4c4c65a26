"""The config of a remote entrant (``[remote.NAME]`` of a tournament config); how its program
is started and plays is in :mod:`duskfall.arena.remote_entrants`."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

REMOTE = "remote"  # the entrant spec of a remote entrant
PLACEHOLDER_AGENT = "random"  # the agent string of a remote seat (its program plays it)
PLACEHOLDERS = ("host", "port", "ws_url", "token", "seat", "game_id", "variant")
VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class RemoteEntrant(BaseModel):
    """How to start a remote entrant's program (``[remote.NAME]`` in a tournament config)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    command: list[str] = Field(min_length=1)
    transport: Literal["tcp", "ws"] = Field(
        "tcp", description="tcp, or ws: a WebSocket listener too, its address in {ws_url}"
    )
    deadline_ms: int = Field(60_000, ge=1, description="time the program has for one answer")
    connect_timeout: float = Field(30.0, gt=0, description="seconds to connect and say HELLO")
    env: dict[str, str] = Field(
        default_factory=dict, description="variables set in the program's environment"
    )
    pass_env: list[str] = Field(
        default_factory=list, description="variables of yours passed on to the program, by name"
    )
    sealed: bool = Field(
        True, description="run as a user of its own where the system allows (root on Linux)"
    )

    @field_validator("env", "pass_env")
    @classmethod
    def _names(cls, value: Any) -> Any:
        for name in value:
            if not VARIABLE.fullmatch(name):
                raise ValueError(f"{name!r} is not an environment variable's name")
        return value

    @field_validator("command")
    @classmethod
    def _placeholders(cls, value: list[str]) -> list[str]:
        for part in value:
            fill(part, dict.fromkeys(PLACEHOLDERS, ""))  # raises ValueError for a bad one
        return value


def fill(part: str, values: Mapping[str, str]) -> str:
    """``part`` of a command with its placeholders (``{port}``...) replaced by ``values``;
    ValueError for anything else in braces: an unknown name, a format (``{port:>99999}`` would
    allocate gigabytes), a conversion, an attribute or an index (``{`` and ``}`` are written
    ``{{`` and ``}}``)."""
    known = ", ".join("{" + name + "}" for name in PLACEHOLDERS)
    out = []
    try:
        pieces = list(string.Formatter().parse(part))
    except ValueError as exc:
        raise ValueError(f"command part {part!r}: {exc}; placeholders are {known}") from None
    for literal, name, spec, conversion in pieces:
        out.append(literal)
        if name is None:
            continue
        if name not in values or spec or conversion:
            raise ValueError(
                f"command part {part!r}: {{{name}{'!' + conversion if conversion else ''}"
                f"{':' + spec if spec else ''}}} is no placeholder; placeholders are {known}"
                " (no format or conversion)"
            )
        out.append(str(values[name]))
    return "".join(out)
