"""The configuration of a GM game: card, language, models, seats, limits.

It can be written as a TOML or JSON file (``duskfall gm --config game.toml``)::

    card = "avalon5"          # a built-in card id or a path to a card file
    gm_format = "structured"  # or "markers" (free text); default: structured for local, scripted
    language = "en"           # zh or en (built-in cards exist in both)
    gm_model = "local"
    player_model = "local"    # for seats without their own model
    seed = 7
    max_steps = 120

    [[players]]
    name = "Ann"
    persona = "a careful reader of votes"
    model = "openai:gpt-4o-mini"
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from duskfall.core.errors import ConfigError
from duskfall.core.user_files import read_user_text
from duskfall.core.validation import MAX_DEPTH, check_depth
from duskfall.gm.cards import Card, PlayerSpec, load_card
from duskfall.gm.names import check_roster
from duskfall.gm.texts import Language

DEFAULT_CARD = "werewolf6"


class GMSettings(BaseModel):
    """Everything that decides how a GM game is run (the log header records it)."""

    model_config = ConfigDict(extra="forbid")

    card: str = DEFAULT_CARD
    language: Language | None = Field(None, description="zh or en; default: the card's")
    gm_model: str = "local"
    gm_format: Literal["auto", "structured", "markers"] = Field(
        "auto",
        description="structured (JSON turns) or markers (free text); auto: structured with "
        "the embedded local model and scripted, markers with any other",
    )
    player_model: str = "local"
    players: list[PlayerSpec] | None = Field(None, description="default: the card's seats")
    seed: int = 0
    max_steps: int = Field(150, ge=1, description="rounds (GM instruction + action) at most")
    max_gm_failures: int = Field(3, ge=1, description="unusable GM replies in a row at most")
    chat_window: int = Field(50, ge=1, description="public messages shown in each prompt")
    chat_chars: int = Field(6000, ge=200, description="characters of chat in each prompt at most")
    gm_max_tokens: int = Field(400, ge=16)
    player_max_tokens: int = Field(200, ge=16)
    temperature: float = Field(0.7, ge=0.0, le=2.0)
    gm_timeout: float = Field(180.0, gt=0, description="seconds the GM may take per reply")
    player_timeout: float = Field(120.0, gt=0, description="seconds a player may take")

    @model_validator(mode="after")
    def _small_model_defaults(self) -> GMSettings:
        """The embedded model gets shorter prompts and replies unless they are set: it is
        slow on a CPU and loses the thread in long contexts anyway."""
        for field, value in SMALL_MODEL_DEFAULTS.items():
            model = self.gm_model if field.startswith("gm_") else self.player_model
            if field not in self.model_fields_set and is_embedded(model):
                setattr(self, field, value)
        return self


SMALL_MODEL_DEFAULTS: dict[str, int] = {
    "gm_max_tokens": 400,
    "player_max_tokens": 80,
    "chat_chars": 1500,
}


def is_embedded(spec: str) -> bool:
    """Whether a model spec names the embedded llama.cpp model (``local``, ``local:...``)."""
    return spec == "local" or spec.startswith("local:")


def load_settings_file(path: Path) -> dict[str, Any]:
    """Read a TOML or JSON settings file into a mapping."""
    text = read_user_text(path, "config")
    kind = "JSON" if path.suffix == ".json" else "TOML"
    try:
        data = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config {path} is not valid {kind}: {exc}") from None
    except RecursionError:
        raise ConfigError(f"config {path} is nested more than {MAX_DEPTH} levels deep") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {path} must hold a table of settings")
    check_depth(data, f"config {path}")
    return data


def make_settings(data: dict[str, Any]) -> GMSettings:
    """Validate settings; problems become one clear ConfigError."""
    try:
        settings = GMSettings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'config'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid gm config: {problems}") from None
    if settings.players is not None:
        check_roster([p.name for p in settings.players])
    return settings


def resolve_card(settings: GMSettings) -> Card:
    card = load_card(settings.card, settings.language)
    check_roster([p.name for p in card.players])
    return card


def seats(settings: GMSettings, card: Card) -> list[PlayerSpec]:
    """The seats of the game, each with a model spec filled in."""
    players = settings.players if settings.players is not None else card.players
    if len(players) < 2:
        raise ConfigError("a GM game needs at least 2 players")
    return [
        PlayerSpec(name=p.name, persona=p.persona, model=p.model or settings.player_model)
        for p in players
    ]
