"""Games running inside the web process: started from the page, paused, resumed, played.

A :class:`LiveGame` owns a prepared game (``session.prepare_checked_game``: its model-backed
seats checked before anything is written), runs it as an asyncio task, and observes its
record to feed the pages. Seats played in the browser are
:class:`~duskfall.web.human.WebHumanSeat` participants, each with its own secret token.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.agents.specs import parse_spec
from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.registry import get_variant
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.variant import parse_config
from duskfall.runtime.participant import Participant
from duskfall.session import GameSetup, PreparedGame, new_game_id, prepare_checked_game
from duskfall.web.access import new_token
from duskfall.web.feed import GameFeed, ended_status
from duskfall.web.human import DEFAULT_HUMAN_TIMEOUT, WebHumanSeat
from duskfall.web.tasks import cancel_and_wait
from duskfall.web.timeline import Timeline

log = logging.getLogger(__name__)

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
    participants: dict[int, Participant] = dict(humans)
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


class LiveGame:
    """A game running in this process, observed by its :class:`GameFeed`; ``humans`` are
    its seats played in the browser."""

    def __init__(
        self, request: GameRequest, game: PreparedGame, humans: Mapping[int, WebHumanSeat]
    ) -> None:
        self.request = request
        self.humans = dict(humans)
        self.seat_tokens = {seat: new_token() for seat in self.humans}
        self.game = game
        self.feed = GameFeed(Timeline(self.game.header))
        self.game.record.observers.append(self)
        for seat, human in self.humans.items():
            human.listeners.append(self._decision_listener(seat))
        self.task: asyncio.Task[None] | None = None
        self.error: str | None = None
        self._stop_reason = "the web server stopped"

    @property
    def game_id(self) -> str:
        return self.game.game_id

    @property
    def log_path(self) -> Path | None:
        return self.game.log_path

    # -- observer of the game's record ---------------------------------------------------

    def on_event(self, event: Event) -> None:
        self.feed.push(event)

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        self.feed.set_status(ended_status(outcome))

    # -- running -------------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"game {self.game_id}")

    async def _run(self) -> None:
        scheduler = self.game.scheduler
        try:
            scheduler.start()
            while True:
                await scheduler.running.wait()
                if not await scheduler.step():
                    break
                if self.request.pace:
                    await asyncio.sleep(self.request.pace)
            scheduler.conclude()
        except asyncio.CancelledError:
            scheduler.abort(self._stop_reason)
            raise
        except Exception as exc:  # a broken game must not take the server down
            log.exception("game %s failed", self.game_id)
            self.error = f"{type(exc).__name__}: {exc}"
            scheduler.abort(f"internal error: {self.error}")

    async def stop(self) -> None:
        await cancel_and_wait(self.task)

    async def abort(self, reason: str) -> None:
        """End the game now as aborted (``reason`` goes into its log's last event)."""
        if self.task is None or self.task.done():
            return
        self._stop_reason = reason
        log.info("game %s: %s", self.game_id, reason)
        await cancel_and_wait(self.task)

    @property
    def paused(self) -> bool:
        return self.game.scheduler.paused

    def pause(self) -> None:
        if self.feed.status == "running":
            self.game.scheduler.pause()
            self.feed.set_status("paused")

    def resume(self) -> None:
        if self.feed.status == "paused":
            self.game.scheduler.resume()
            self.feed.set_status("running")

    # -- human seats ---------------------------------------------------------------------

    def _decision_listener(self, seat: int) -> Any:
        def notify(request: dict[str, Any] | None) -> None:
            for subscriber in self.feed.subscribers:
                if subscriber.seat == seat:
                    subscriber.send({"type": "decision", "request": request})

        return notify

    def open_decision(self, seat: int) -> dict[str, Any] | None:
        human = self.humans.get(seat)
        return human.request if human is not None else None
