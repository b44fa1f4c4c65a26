"""Rule cards: the game master's rules and the default seats, as TOML data files.

A card is ``<id>.<language>.toml`` in ``duskfall/gm/cards/`` (built in) or any TOML file
with the same fields::

    id = "werewolf6"
    language = "en"            # zh or en: the language of the game
    title = "6-player Werewolf"
    summary = "one line for listings"
    gm_rules = "what the game master knows and does (its character card)"
    player_rules = "what every player is told about the game"

    [[players]]                # the default seats
    name = "AI-Alpha"
    persona = "a calm analyst"

    [skeleton]                 # optional: roles and phases as data (see gm.skeleton)
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from duskfall.core.errors import ConfigError
from duskfall.core.user_files import read_user_text
from duskfall.core.validation import check_depth
from duskfall.gm.skeleton import Skeleton
from duskfall.gm.texts import LANGUAGES, Language

CARD_SUFFIX = ".toml"
MAX_CARD_BYTES = 256 * 1024  # a rule card is a page of text


class PlayerSpec(BaseModel):
    """One seat: a name, a persona, and optionally its own model spec."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    persona: str = ""
    model: str | None = None


class Card(BaseModel):
    """A rule card; see the module docstring."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    language: Language
    title: str
    summary: str = ""
    gm_rules: str = Field(min_length=1)
    player_rules: str = ""
    players: list[PlayerSpec] = Field(min_length=2)
    skeleton: Skeleton | None = None


def _cards_dir() -> Path:
    return Path(str(resources.files("duskfall.gm") / "cards"))


def builtin_cards() -> dict[tuple[str, str], Path]:
    """Built-in cards by ``(id, language)``."""
    found: dict[tuple[str, str], Path] = {}
    for path in sorted(_cards_dir().glob(f"*{CARD_SUFFIX}")):
        card_id, _, language = path.name.removesuffix(CARD_SUFFIX).rpartition(".")
        if card_id and language in LANGUAGES:
            found[(card_id, language)] = path
    return found


def load_card_file(path: Path) -> Card:
    """Read and validate a card file; problems become one clear ConfigError."""
    text = read_user_text(path, "rule card", MAX_CARD_BYTES)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"rule card {path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"rule card {path} is nested too deeply") from None
    check_depth(data, f"rule card {path}")
    return card_from_dict(data, str(path))


def card_from_dict(data: object, where: str = "rule card") -> Card:
    try:
        return Card.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'card'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid rule card {where}: {problems}") from None


def load_card(name: str, language: str | None = None) -> Card:
    """A built-in card by id (in ``language``, default Chinese) or a card file by path."""
    if language is not None and language not in LANGUAGES:
        raise ConfigError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    cards = builtin_cards()
    ids = sorted({card_id for card_id, _ in cards})
    if name in ids:
        wanted = language or "zh"
        path = cards.get((name, wanted))
        if path is None:
            have = sorted(lang for card_id, lang in cards if card_id == name)
            raise ConfigError(f"card {name!r} has no {wanted!r} version; it has {', '.join(have)}")
        return load_card_file(path)
    path = Path(name).expanduser()
    if path.suffix == CARD_SUFFIX or path.exists():
        if not path.exists():
            raise ConfigError(f"rule card file {path} does not exist")
        card = load_card_file(path)
        if language is not None and card.language != language:
            raise ConfigError(f"rule card {path} is written in {card.language!r}, not {language!r}")
        return card
    raise ConfigError(
        f"unknown rule card {name!r}; built-in cards: {', '.join(ids)} (or give a .toml path)"
    )
