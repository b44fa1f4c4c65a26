"""What every game run inside the web process shares, whatever runs it (the rules engine's
scheduler or a game master): the feed its record fills, the seats played in the browser with
their secret tokens, and the task that plays it, which can be paused, resumed and aborted.

:class:`~duskfall.web.live.LiveGame` (rules games) and :class:`~duskfall.web.gm_live.GMLiveGame`
(GM games) build on :class:`HostedGame`; the app and the hub use only what is here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.runtime.pausing import Pausable
from duskfall.store.log import LogHeader
from duskfall.web.access import new_token
from duskfall.web.feed import GameFeed, ended_status
from duskfall.web.human import Listener
from duskfall.web.tasks import cancel_and_wait
from duskfall.web.timeline import Timeline

log = logging.getLogger(__name__)


class BrowserSeat(Protocol):
    """A seat played in the browser: its open request, and the page's answer to it."""

    listeners: list[Listener]

    @property
    def request(self) -> dict[str, Any] | None: ...

    def answer(self, request_id: int, action: Any) -> None: ...


class HostedGame:
    """A game running in this process (see the module docstring). Subclasses play it in
    :meth:`_play` and end it as aborted in :meth:`_abort`."""

    def __init__(
        self,
        header: LogHeader,
        loop: Pausable,
        humans: Mapping[int, BrowserSeat],
        log_path: Path | None,
    ) -> None:
        self.header = header
        self.log_path = log_path
        self.humans = dict(humans)
        self.seat_tokens = {seat: new_token() for seat in self.humans}
        self.feed = GameFeed(Timeline(header))
        for seat, human in self.humans.items():
            human.listeners.append(self._decision_listener(seat))
        self.task: asyncio.Task[None] | None = None
        self.error: str | None = None
        self._loop = loop
        self._stop_reason = "the web server stopped"

    @property
    def game_id(self) -> str:
        return self.header.game_id

    @property
    def days(self) -> int:
        """How far the game has got (days, or rounds of a GM game)."""
        raise NotImplementedError

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
        try:
            await self._play()
        except asyncio.CancelledError:
            self._abort(self._stop_reason)
            raise
        except Exception as exc:  # a broken game must not take the server down
            log.exception("game %s failed", self.game_id)
            self.error = f"{type(exc).__name__}: {exc}"
            self._abort(f"internal error: {self.error}")

    async def _play(self) -> None:
        raise NotImplementedError

    def _abort(self, reason: str) -> None:
        raise NotImplementedError

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
        return self._loop.paused

    def pause(self) -> None:
        if self.feed.status == "running":
            self._loop.pause()
            self.feed.set_status("paused")

    def resume(self) -> None:
        if self.feed.status == "paused":
            self._loop.resume()
            self.feed.set_status("running")

    # -- seats played in the browser -----------------------------------------------------

    def _decision_listener(self, seat: int) -> Listener:
        def notify(request: dict[str, Any] | None) -> None:
            for subscriber in self.feed.subscribers:
                if subscriber.seat == seat:
                    subscriber.send({"type": "decision", "request": request})

        return notify

    def open_decision(self, seat: int) -> dict[str, Any] | None:
        human = self.humans.get(seat)
        return human.request if human is not None else None
