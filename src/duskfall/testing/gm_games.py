"""GM games for tests: scripted models and a game on an in-memory record."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.gm.cards import PlayerSpec
from duskfall.gm.config import GMSettings, resolve_card, seats
from duskfall.gm.game import GMGame
from duskfall.llm import Model, Request, RetryPolicy, ScriptedProvider
from duskfall.runtime.record import GameRecord

NO_RETRY = RetryPolicy(retries=0, format_retries=0)

Script = Iterable[Any] | Callable[[Request], Any]


def scripted(replies: Script) -> Model:
    """A scripted model that fails at once instead of retrying."""
    return Model(ScriptedProvider(replies), retry=NO_RETRY, timeout=30)


def echo_player(name: str) -> Model:
    return scripted(lambda request: f"I am {name} and I have nothing to hide.")


def build_game(
    gm: Script | Model,
    players: Mapping[str, Script | Model] | None = None,
    *,
    names: list[str] | None = None,
    record: GameRecord | None = None,
    **settings: Any,
) -> tuple[GMGame, list[Event]]:
    """A GM game on an in-memory record (default: the English 6-player werewolf card)."""
    settings.setdefault("card", "werewolf6")
    settings.setdefault("language", "en")
    if names is not None:
        settings["players"] = [PlayerSpec(name=n, persona=f"persona of {n}") for n in names]
    config = GMSettings(**settings)
    card = resolve_card(config)
    roster = seats(config, card)
    models: dict[str, Any] = {}
    for seat in roster:
        given = (players or {}).get(seat.name)
        if given is None:
            models[seat.name] = echo_player(seat.name)
        else:
            models[seat.name] = given if isinstance(given, Model) else scripted(given)
    gm_model = gm if isinstance(gm, Model) else scripted(gm)
    record = record or GameRecord("test-game")
    return GMGame(config, card, roster, gm_model, models, record), record.events
