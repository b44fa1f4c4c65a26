"""Start a GM game with its log, or resume one from its log.

The log is a duskfall JSONL game log (header variant ``gm``): the header keeps the settings,
the roster with each seat's model and the full rule card, so a game resumes exactly as it
was configured even if the card file has changed since. Model specs are stored redacted: a
credential in a base URL is not kept (give keys through the environment or the LLM config
file, or pass the models again when resuming).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from secrets import token_hex
from typing import Any

from duskfall.core.errors import ConfigError, LogCorrupt
from duskfall.core.redaction import redact_value
from duskfall.gm.cards import PlayerSpec, card_from_dict
from duskfall.gm.config import GMSettings, make_settings, resolve_card, seats
from duskfall.gm.game import ChatModel, GMGame
from duskfall.gm.names import check_roster
from duskfall.gm.state import GMState
from duskfall.runtime.record import Observer
from duskfall.session import open_record
from duskfall.store.log import LogHeader, read_log, truncate_to_whole_events

VARIANT = "gm"
ModelFactory = Callable[[str], ChatModel]


def _default_factory(spec: str) -> ChatModel:
    from duskfall.llm import get_model

    return get_model(spec)


def build_models(
    gm_spec: str, players: Sequence[PlayerSpec], factory: ModelFactory | None = None
) -> tuple[ChatModel, dict[str, ChatModel]]:
    """One model per distinct spec (a bad spec raises a clear ConfigError before play)."""
    make = factory or _default_factory
    cache: dict[str, ChatModel] = {}

    def model(spec: str) -> ChatModel:
        if spec not in cache:
            cache[spec] = make(spec)
        return cache[spec]

    gm_model = model(gm_spec)
    return gm_model, {p.name: model(p.model or "local") for p in players}


def default_log_path(card_id: str, directory: Path = Path("games")) -> Path:
    """``games/gm-CARD-TIME-XXXXXXXXXXXXXXXX.jsonl``: unique even for games started together,
    and without the seed (the log's name is the game id, which players see)."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    card = re.sub(r"[^A-Za-z0-9_-]", "", card_id) or "card"
    return directory / f"gm-{card}-{stamp}-{token_hex(8)}.jsonl"


def new_game(
    settings: GMSettings,
    *,
    log_path: Path | None = None,
    observers: Iterable[Observer] = (),
    model_factory: ModelFactory | None = None,
    index: bool = False,
) -> tuple[GMGame, Path]:
    """A new game and the path of its log (written as the game goes).

    With ``index`` the game also gets a row in the game index (``duskfall games``, the web).
    """
    card = resolve_card(settings)
    roster = seats(settings, card)
    gm_model, player_models = build_models(settings.gm_model, roster, model_factory)
    path = log_path or default_log_path(card.id)
    game_id = path.stem
    header = LogHeader(  # model specs redacted: a base URL may carry credentials
        game_id=game_id,
        variant=VARIANT,
        config=redact_value(settings.model_dump(mode="json")),
        seed=settings.seed,
        roster=redact_value(
            [{"seat": i, "agent": f"llm:{p.model}", **p.model_dump()} for i, p in enumerate(roster)]
        ),
        extra={"card": redact_value(card.model_dump(mode="json"))},
    )
    record = open_record(header, path, observers=observers, index=index)
    return GMGame(settings, card, roster, gm_model, player_models, record), path


def resume_game(
    log_path: Path,
    *,
    overrides: dict[str, Any] | None = None,
    observers: Iterable[Observer] = (),
    model_factory: ModelFactory | None = None,
    index: bool = False,
) -> GMGame:
    """Continue a paused or interrupted game, appending to its log.

    ``overrides`` may change settings such as the models or ``max_steps``; a ``player_model``
    override replaces every seat's model.
    """
    try:
        log = read_log(log_path, strict=False)
    except LogCorrupt as exc:
        raise ConfigError(f"cannot resume: {exc}") from None
    header = log.header
    if header.variant != VARIANT:
        raise ConfigError(f"{log_path} is a {header.variant!r} game, not a GM game")
    if log.finished:
        raise ConfigError(f"{log_path}: that game is already over")
    overrides = dict(overrides or {})
    settings = make_settings({**header.config, **overrides})
    card = card_from_dict(header.extra.get("card"), f"in {log_path}")
    roster = [
        PlayerSpec(name=s["name"], persona=s.get("persona", ""), model=s.get("model"))
        for s in header.roster
    ]
    if "player_model" in overrides:
        roster = [p.model_copy(update={"model": settings.player_model}) for p in roster]
    check_roster([p.name for p in roster])
    if log.corrupt is not None:
        truncate_to_whole_events(log_path, log)
    gm_model, player_models = build_models(settings.gm_model, roster, model_factory)
    record = open_record(header, log_path, events=log.events, observers=observers, index=index)
    state = GMState.from_events([p.name for p in roster], log.events)
    return GMGame(settings, card, roster, gm_model, player_models, record, state)


def close_log(game: GMGame) -> None:
    """Flush and close the game's log (after a save or an interruption)."""
    for observer in game.record.observers:
        close = getattr(observer, "close", None)
        if callable(close):
            close()
