"""GM games running inside the web process, with people at the table.

A GM game is asked for from the page like a rules game (``variant`` ``gm``): the card is the
preset, the players' model spec the agents, the other GM settings (``language``, ``gm_model``,
``max_steps``...) the options. Seats listed as human are played in the browser
(:class:`~duskfall.web.gm_seat.BrowserPlayer`), each behind its own secret token; the game
gives a person ``human_timeout`` seconds per turn and records silence as silent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.rng import check_seed, new_seed
from duskfall.gm.cards import builtin_cards, load_card
from duskfall.gm.config import DEFAULT_CARD, make_settings, resolve_card, seats
from duskfall.gm.game import GMGame
from duskfall.gm.session import VARIANT, default_log_path, plan_new_game
from duskfall.gm.state import GMState
from duskfall.store.log import LogHeader
from duskfall.web.gm_seat import BrowserPlayer
from duskfall.web.hosted import HostedGame
from duskfall.web.human import BROWSER_AGENT, DEFAULT_HUMAN_TIMEOUT

GM_VARIANT = VARIANT
DEFAULT_PLAYER_MODEL = "local"
SCRIPTED = "scripted"  # the model that answers every request with an example of its schema
#: What the list page's form says about a GM game's options.
OPTIONS_HELP = (
    'options (JSON): "gm_model" (default local), "gm_format": "structured" (JSON turns: '
    "duskfall deals the card's roles and walks its phases; the default with the local or the "
    'scripted model) or "markers" (free text, the default with other models), "language" '
    '(en, zh), "max_steps"'
)


@dataclass
class GMRequest:
    """A GM game asked for from the page (see the module docstring). ``seed`` None draws a
    secret one from the OS; ``pace`` is a pause between steps, so that people can follow."""

    card: str = DEFAULT_CARD
    players_model: str = DEFAULT_PLAYER_MODEL
    human_seats: list[int] = field(default_factory=list)
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    human_timeout: float = DEFAULT_HUMAN_TIMEOUT
    pace: float = 0.0


def card_seats() -> dict[str, int]:
    """The built-in cards (the default first) and their seats (the same in every language)."""
    ids = sorted({card_id for card_id, _ in builtin_cards()}, key=lambda c: c != DEFAULT_CARD)
    return {card_id: len(load_card(card_id, "en").players) for card_id in ids}


async def open_gm_game(request: GMRequest, games_dir: Path) -> GMLiveGame:
    """A GM game prepared once every model answered (a model that cannot play raises
    ConfigError, and nothing is written)."""
    if "players" in request.options:
        raise ConfigError("the seats of a GM game started here are the card's")
    for key, where in (("card", "the preset"), ("seed", "the seed field")):
        if key in request.options:
            raise ConfigError(f"give the {key} of a GM game as {where}, not as an option")
    seed = new_seed() if request.seed is None else check_seed(request.seed)
    data = {"player_model": request.players_model, **request.options}
    if data.get("gm_model") == SCRIPTED:  # it can only fill in the turn's schema
        data.setdefault("gm_format", "structured")
    settings = make_settings({**data, "card": request.card, "seed": seed})
    card = resolve_card(settings)
    roster = seats(settings, card)
    humans: dict[int, BrowserPlayer] = {}
    for seat in sorted(set(request.human_seats)):
        if not 0 <= seat < len(roster):
            raise ConfigError(f"seat {seat} does not exist (seats are 0-{len(roster) - 1})")
        humans[seat] = BrowserPlayer(seat, roster[seat].name, request.human_timeout)
    players = [
        p.model_copy(update={"model": BROWSER_AGENT}) if i in humans else p
        for i, p in enumerate(roster)
    ]
    updates: dict[str, Any] = {"players": players}
    if humans:  # the game's own limit must not cut a person short
        updates["player_timeout"] = max(settings.player_timeout, request.human_timeout)
    settings = settings.model_copy(update=updates)
    people = {roster[seat].name: human.as_model() for seat, human in humans.items()}
    plan = plan_new_game(settings, log_path=default_log_path(card.id, games_dir), people=people)
    await plan.preflight()
    game = plan.open(index=True)
    for human in humans.values():
        human.known = partial(known_to, game.state, human.player)
        human.role = partial(dealt_role, game.state, human.player)
    return GMLiveGame(game, plan.header, humans, plan.path, request.pace)


def dealt_role(state: GMState, player: str) -> str | None:
    """The role duskfall dealt ``player`` (None before the deal, or on a card without one)."""
    return state.roles.get(player)


def known_to(state: GMState, player: str) -> list[str]:
    """The secrets ``player`` was sent and what it answered in private, as lines."""
    return [
        f"secret: {note.text}" if note.direction == "sent" else f"you told the GM: {note.text}"
        for note in state.secrets_of(player)
    ]


class GMLiveGame(HostedGame):
    """A GM game running in this process (see the module docstring)."""

    def __init__(
        self,
        game: GMGame,
        header: LogHeader,
        humans: Mapping[int, BrowserPlayer],
        log_path: Path,
        pace: float = 0.0,
    ) -> None:
        super().__init__(header, game, humans, log_path)
        self.game = game
        self.pace = pace
        game.record.observers.append(self)

    @property
    def days(self) -> int:
        return self.game.state.round

    async def _play(self) -> None:
        self.game.start()
        while await self.game.step():
            await self.game.running.wait()
            if self.pace:
                await asyncio.sleep(self.pace)

    def _abort(self, reason: str) -> None:
        self.game.stop(reason)
