"""Start a GM game with its log, or resume one from its log.

The log is a duskfall JSONL game log (header variant ``gm``): the header keeps the settings,
the roster with each seat's model and the full rule card, so a game resumes exactly as it
was configured even if the card file has changed since. Model specs are stored redacted: a
credential in a base URL is not kept (give keys through the environment or the LLM config
file, or pass the models again when resuming).

A game is *planned* first (:func:`plan_new_game`, :func:`plan_resume`: card, seats, models;
nothing written), and its log opened by :meth:`GMPlan.open`; :meth:`GMPlan.preflight` in
between checks every distinct model once, so a model that cannot play (the ``local`` extra
missing, a key, a server down) is one error before any log is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from secrets import token_hex
from typing import Any

from duskfall.agents.human_chat import SPEC as HUMAN
from duskfall.agents.human_chat import human_model
from duskfall.core.errors import ConfigError, LogCorrupt
from duskfall.core.events import Event
from duskfall.core.redaction import redact_value
from duskfall.gm.cards import Card, PlayerSpec, card_from_dict
from duskfall.gm.config import GMSettings, make_settings, resolve_card, seats
from duskfall.gm.game import ChatModel, GMGame
from duskfall.gm.names import check_roster
from duskfall.gm.spectator import GM_VARIANT
from duskfall.gm.state import GMState
from duskfall.llm.preflight import Announce, first_not_ready
from duskfall.runtime.record import Observer
from duskfall.session import open_record
from duskfall.store.log import GameLog, LogHeader, read_log, truncate_to_whole_events
from duskfall.store.repair import check_new_log

VARIANT = GM_VARIANT
ModelFactory = Callable[[str], ChatModel]


HUMAN_WAIT = 24 * 3600.0  # a person's own limit; the game's player_timeout comes first


def _default_factory(spec: str) -> ChatModel:
    """The model of a spec; ``human`` is a person at this terminal."""
    if spec == HUMAN:
        return human_model(HUMAN_WAIT)
    from duskfall.llm import get_model

    return get_model(spec)


def build_models(
    gm_spec: str,
    players: Sequence[PlayerSpec],
    factory: ModelFactory | None = None,
    people: Mapping[str, ChatModel] | None = None,
) -> tuple[ChatModel, dict[str, ChatModel]]:
    """One model per distinct spec (a bad spec raises a clear ConfigError before play);
    ``people`` are the players played by a person elsewhere (the browser), each its own."""
    make = factory or _default_factory
    people = people or {}
    cache: dict[str, ChatModel] = {}

    def model(spec: str) -> ChatModel:
        if spec not in cache:
            cache[spec] = make(spec)
        return cache[spec]

    gm_model = model(gm_spec)
    return gm_model, {p.name: people.get(p.name) or model(p.model or "local") for p in players}


def roster_agent(spec: str | None) -> str:
    """A seat's agent as the roster records it: a person (``human``, ``human:browser``)
    as such, so that pages keep a game with people behind tokens; else ``llm:SPEC``."""
    spec = spec or "local"
    return spec if spec == HUMAN or spec.startswith(f"{HUMAN}:") else f"llm:{spec}"


def default_log_path(card_id: str, directory: Path = Path("games")) -> Path:
    """``games/gm-CARD-TIME-XXXXXXXXXXXXXXXX.jsonl``: unique even for games started together,
    and without the seed (the log's name is the game id, which players see)."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    card = re.sub(r"[^A-Za-z0-9_-]", "", card_id) or "card"
    return directory / f"gm-{card}-{stamp}-{token_hex(8)}.jsonl"


@dataclass
class GMPlan:
    """A GM game put together but not yet recorded: nothing is written before :meth:`open`.

    A resumed game's plan carries its ``log`` (events so far; a torn last line is cut when
    the game is opened) and its ``state``.
    """

    settings: GMSettings
    card: Card
    roster: list[PlayerSpec]
    gm_model: ChatModel
    player_models: dict[str, ChatModel]
    header: LogHeader
    path: Path
    log: GameLog | None = None
    state: GMState | None = None

    async def preflight(self, announce: Announce | None = None) -> None:
        """Check each distinct model once, all at once (see the module docstring): a
        ConfigError names who cannot play, the model and the fix. ``announce`` is told what
        a slow check (loading a model) is doing."""
        users = _model_users(self.gm_model, self.player_models)
        models = {key: model for key, (model, _) in users.items()}
        failed = await first_not_ready(models, announce)
        if failed is not None:
            key, why = failed
            model, who = users[key]
            raise ConfigError(f"{_named(who)} ({model.spec}) cannot play: {why}")

    def open(self, *, observers: Iterable[Observer] = (), index: bool = False) -> GMGame:
        """Open (or append to) the log and build the game."""
        events: list[Event] | None = None
        if self.log is not None:
            if self.log.corrupt is not None:
                truncate_to_whole_events(self.path, self.log)
            events = self.log.events
        record = open_record(
            self.header, self.path, events=events, observers=observers, index=index
        )
        return GMGame(
            self.settings,
            self.card,
            self.roster,
            self.gm_model,
            self.player_models,
            record,
            self.state,
        )


GAME_MASTER = ""  # how the game master is listed among a model's users


def _model_users(
    gm_model: ChatModel, player_models: Mapping[str, ChatModel]
) -> dict[int, tuple[ChatModel, list[str]]]:
    """Each distinct model (by identity: one per spec) and who plays with it (player names,
    :data:`GAME_MASTER` for the game master)."""
    users: dict[int, tuple[ChatModel, list[str]]] = {id(gm_model): (gm_model, [GAME_MASTER])}
    for name, model in player_models.items():
        users.setdefault(id(model), (model, []))[1].append(name)
    return users


def _named(users: list[str]) -> str:
    """``the game master and players Ann, Bob``."""
    players = [name for name in users if name != GAME_MASTER]
    parts = ["the game master"] if GAME_MASTER in users else []
    if players:
        parts.append(("player " if len(players) == 1 else "players ") + ", ".join(players))
    return " and ".join(parts)


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
    plan = plan_new_game(settings, log_path=log_path, model_factory=model_factory)
    return plan.open(observers=observers, index=index), plan.path


def plan_new_game(
    settings: GMSettings,
    *,
    log_path: Path | None = None,
    model_factory: ModelFactory | None = None,
    people: Mapping[str, ChatModel] | None = None,
    overwrite: bool = False,
) -> GMPlan:
    """A new game's card, seats, models and log header (a bad setting raises ConfigError);
    ``people``: see :func:`build_models`. A ``log_path`` that holds a game (or any file) is
    refused unless ``overwrite``."""
    if log_path is not None:
        check_new_log(log_path, force=overwrite)
    card = resolve_card(settings)
    roster = seats(settings, card)
    gm_model, player_models = build_models(settings.gm_model, roster, model_factory, people)
    path = log_path or default_log_path(card.id)
    game_id = path.stem
    header = LogHeader(  # model specs redacted: a base URL may carry credentials
        game_id=game_id,
        variant=VARIANT,
        config=redact_value(settings.model_dump(mode="json")),
        seed=settings.seed,
        roster=redact_value(
            [
                {"seat": i, "agent": roster_agent(p.model), **p.model_dump()}
                for i, p in enumerate(roster)
            ]
        ),
        extra={"card": redact_value(card.model_dump(mode="json"))},
    )
    return GMPlan(settings, card, roster, gm_model, player_models, header, path)


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
    plan = plan_resume(log_path, overrides=overrides, model_factory=model_factory)
    return plan.open(observers=observers, index=index)


def plan_resume(
    log_path: Path,
    *,
    overrides: dict[str, Any] | None = None,
    model_factory: ModelFactory | None = None,
) -> GMPlan:
    """A paused or interrupted game's plan, from its log (see :func:`resume_game`)."""
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
    gm_model, player_models = build_models(settings.gm_model, roster, model_factory)
    state = GMState.from_events([p.name for p in roster], log.events)
    return GMPlan(settings, card, roster, gm_model, player_models, header, log_path, log, state)


def close_log(game: GMGame) -> None:
    """Flush and close the game's log (after a save or an interruption)."""
    for observer in game.record.observers:
        close = getattr(observer, "close", None)
        if callable(close):
            close()
