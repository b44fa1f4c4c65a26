"""Games running inside the web process: started from the page, paused, resumed, played.

A :class:`LiveGame` owns a prepared game (``session.prepare_checked_game``: its model-backed
seats checked before anything is written), runs it as an asyncio task, and observes its
record to feed the pages (see :mod:`duskfall.web.hosted`). Seats played in the browser are
:class:`~duskfall.web.human.WebHumanSeat` participants, each with its own secret token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.agents.specs import parse_spec
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.variant import parse_config
from duskfall.runtime.participant import Player
from duskfall.session import GameSetup, PreparedGame, new_game_id, prepare_checked_game
from duskfall.web.hosted import HostedGame
from duskfall.web.human import DEFAULT_HUMAN_TIMEOUT, WebHumanSeat

MAX_PACE = 30.0


@dataclass
class GameRequest:
    """A game asked for from the page. ``human_seats`` are played in the browser; the agent
    spec may also name them (``3=human,default=heuristic``). ``pace`` is the pause, in
    seconds, between rounds of decisions, so that people can follow a game of bots.
    ``seed`` None draws a secret one from the OS."""

    variant: str
    seed: int | None = None
    agents: str = "heuristic"
    human_seats: list[int] = field(default_factory=list)
    config: Mapping[str, Any] = field(default_factory=dict)
    pace: float = 0.0
    human_timeout: float = DEFAULT_HUMAN_TIMEOUT


def human_seats_of(request: GameRequest, seed: int) -> list[int]:
    """Seats played in the browser: those listed, and those the agent spec gives to ``human``."""
    variant = get_variant(request.variant)
    probe = variant.new_game(parse_config(variant, request.config), seed)
    agents = parse_spec(variant, request.agents, probe.num_seats)(probe)
    seats = set(request.human_seats)
    for seat in seats:
        if not 0 <= seat < probe.num_seats:
            raise ConfigError(f"seat {seat} does not exist (seats are 0-{probe.num_seats - 1})")
    seats.update(s for s, agent in enumerate(agents) if agent == "human")
    return sorted(seats)


async def open_live_game(request: GameRequest, games_dir: Path) -> LiveGame:
    """A game asked for from the page, prepared once every model-backed seat answered (a
    seat that cannot play raises SeatNotReady, and nothing is written)."""
    if not 0 <= request.pace <= MAX_PACE:
        raise ConfigError(f"pace must be within 0..{MAX_PACE:g} seconds")
    seed = new_seed() if request.seed is None else check_seed(request.seed)
    humans = {
        seat: WebHumanSeat(seat, request.human_timeout) for seat in human_seats_of(request, seed)
    }
    participants: dict[int, Player] = dict(humans)
    game_id = new_game_id(request.variant)
    setup = GameSetup(
        variant=request.variant,
        seed=seed,
        agents=request.agents,
        config=dict(request.config),
        game_id=game_id,
        log_path=games_dir / f"{game_id}.jsonl",
        participants=participants,
    )
    return LiveGame(request, await prepare_checked_game(setup), humans)


class LiveGame(HostedGame):
    """A rules game running in this process; ``humans`` are its seats played in the browser."""

    def __init__(
        self, request: GameRequest, game: PreparedGame, humans: Mapping[int, WebHumanSeat]
    ) -> None:
        super().__init__(game.header, game.scheduler, humans, game.log_path)
        self.request = request
        self.game = game
        self.game.record.observers.append(self)

    @property
    def days(self) -> int:
        return int(self.game.state.day)

    async def _play(self) -> None:
        scheduler = self.game.scheduler
        scheduler.start()
        while True:
            await scheduler.running.wait()
            if not await scheduler.step():
                break
            if self.request.pace:
                await asyncio.sleep(self.request.pace)
        scheduler.conclude()

    def _abort(self, reason: str) -> None:
        self.game.scheduler.abort(reason)
