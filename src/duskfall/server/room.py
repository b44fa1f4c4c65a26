"""A room: the seats of one game, filled by connections, then the game itself.

Seats are handed out in order (player ids 0..n-1). The game starts when every seat is taken,
or, with ``fill_bots_after``, that many seconds after the first client sat down, with bots in
the empty seats. It runs through :func:`duskfall.session.prepare_game`, so it is logged
like every other game. A client that leaves before the start frees its seat; one that drops
during the game may reclaim its seat with its token within the grace period, after which a
stand-in plays the seat.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import secrets
from collections.abc import Callable
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.redaction import forget_secret, register_secret
from duskfall.core.variant import State, Variant
from duskfall.protocol.messages import ServerHello
from duskfall.protocol.observations import ObservationFrames
from duskfall.runtime.settings import RuntimeSettings
from duskfall.server.broadcast import WireObserver, announce_end
from duskfall.server.connection import Connection
from duskfall.server.remote_seat import RemoteSeat
from duskfall.server.settings import ServerSettings
from duskfall.server.stand_in import make_stand_in
from duskfall.server.ws_connection import WsConnection
from duskfall.session import GameSetup, PreparedGame, prepare_game

log = logging.getLogger(__name__)


class Room:
    """One game's seats and, once started, the game."""

    def __init__(
        self,
        variant: Variant,
        num_seats: int,
        settings: ServerSettings,
        *,
        game_id: str,
        seed: int,
        on_finished: Callable[[Room], None],
    ) -> None:
        self.variant = variant
        self.num_seats = num_seats
        self.settings = settings
        self.game_id = game_id
        self.seed = seed
        self.seats: list[RemoteSeat | None] = [None] * num_seats
        self.tokens: dict[str, RemoteSeat] = {}
        self.game: PreparedGame | None = None
        self.outcome: Outcome | None = None
        self.task: asyncio.Task[None] | None = None
        self.finished = asyncio.Event()
        self._on_finished = on_finished
        self._request_ids = itertools.count(1)
        self.frames = ObservationFrames()  # the encoded observations, shared by its seats
        self._expiry: dict[int, asyncio.TimerHandle] = {}
        self._fill_timer: asyncio.TimerHandle | None = None

    # -- seating -------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.task is not None

    @property
    def occupied(self) -> int:
        return sum(seat is not None for seat in self.seats)

    def has_free_seat(self) -> bool:
        return not self.started and self.occupied < self.num_seats

    def join(self, connection: Connection) -> RemoteSeat:
        """Seat ``connection`` in the next free seat; starts the game when the room is full."""
        index = self.seats.index(None)
        seat = RemoteSeat(
            index,
            variant=self.variant,
            game_id=self.game_id,
            deadline=self.settings.deadline,
            stand_in=functools.partial(
                make_stand_in,
                self.variant,
                index,
                seed=self.seed,
                policy=self.settings.stand_in,
                bot=self.settings.bot,
            ),
            timeout_policy=self.settings.stand_in,
            is_alive=lambda: self._is_alive(index),
            request_ids=self._request_ids,
            strict=self.settings.strict,
            bench_after=self.settings.bench_after,
            frames=self.frames,
        )
        token = secrets.token_urlsafe(18)
        register_secret(token)  # a client that says its token gets it masked in the record
        seat.token = token
        self.seats[index] = seat
        self.tokens[token] = seat
        self._hello(seat, connection, reconnected=False)
        seat.attach(connection)
        if self.occupied == self.num_seats:
            self.start()
        elif self.settings.fill_bots_after is not None and self._fill_timer is None:
            self._fill_timer = asyncio.get_running_loop().call_later(
                self.settings.fill_bots_after, self._fill_with_bots
            )
        return seat

    def _hello(self, seat: RemoteSeat, connection: Connection, *, reconnected: bool) -> None:
        connection.send(
            ServerHello(
                player_id=seat.seat,
                game_id=self.game_id,
                variant=self.variant.id,
                num_players=self.num_seats,
                token=seat.token or "",
                deadline_ms=self.settings.deadline_ms,
                max_frame=self.settings.max_frame,
                reconnected=reconnected,
            ).to_wire()
        )

    def reclaim(
        self, token: str, connection: Connection, last_seq: int | None = None
    ) -> RemoteSeat | None:
        """Give the seat of ``token`` to ``connection`` if it may still be reclaimed (with the
        events after ``last_seq``, or those it missed)."""
        seat = self.tokens.get(token)
        if seat is None or seat.gone or self.finished.is_set():
            return None
        timer = self._expiry.pop(seat.seat, None)
        if timer is not None:
            timer.cancel()
        self._hello(seat, connection, reconnected=True)
        seat.attach(connection, last_seq)
        return seat

    def leave(self, seat: RemoteSeat, connection: Connection) -> None:
        """``connection`` closed: free the seat before the start, else begin its grace period."""
        if seat.link is not connection or self.finished.is_set():
            return
        seat.detach()
        if not self.started:
            self.seats[seat.seat] = None
            forget_secret(seat.token)
            self.tokens = {t: s for t, s in self.tokens.items() if s is not seat}
            if self.occupied == 0 and self._fill_timer is not None:
                self._fill_timer.cancel()
                self._fill_timer = None
            return
        grace = self.settings.reconnect_grace
        if grace <= 0:
            seat.abandon()
        else:
            self._expiry[seat.seat] = asyncio.get_running_loop().call_later(
                grace, self._expire, seat
            )

    def _expire(self, seat: RemoteSeat) -> None:
        self._expiry.pop(seat.seat, None)
        if seat.link is None:
            log.info("%s: seat %d did not come back; a stand-in plays it", self.game_id, seat.seat)
            seat.abandon()

    def _fill_with_bots(self) -> None:
        self._fill_timer = None
        if not self.started and self.occupied > 0:
            self.start()

    # -- the game ------------------------------------------------------------------------

    def _is_alive(self, index: int) -> bool:
        return self.game is None or index in self.game.state.alive()

    def start(self) -> None:
        if self.started:
            return
        if self._fill_timer is not None:
            self._fill_timer.cancel()
            self._fill_timer = None
        self.task = asyncio.get_running_loop().create_task(self._run(), name=self.game_id)

    def _setup(self) -> GameSetup:
        settings = self.settings
        log_dir = settings.log_dir
        return GameSetup(
            variant=self.variant.id,
            seed=self.seed,
            agents=settings.bot,
            config=settings.config,
            game_id=self.game_id,
            log_path=Path(log_dir) / f"{self.game_id}.jsonl" if log_dir else None,
            write_log=log_dir is not None,
            settings=RuntimeSettings(
                retries=settings.retries, decision_timeout=settings.deadline + 5.0
            ),
            participants={s.seat: s for s in self.seats if s is not None},
        )

    async def _run(self) -> None:
        remote = {s.seat: s for s in self.seats if s is not None}
        wire: WireObserver | None = None
        try:
            self.game = prepare_game(self._setup())
            wire = WireObserver(
                self.game.state,
                remote,
                self.game_id,
                state_updates=self.settings.state_updates,
                frames=self.frames,
            )
            self.game.record.observers.append(wire)
            self.outcome = await self.game.run()
        except asyncio.CancelledError:
            self._abort("server shutting down", remote, wire)
            raise
        except DuskfallError as exc:  # the game cannot go on (its log cannot be written...)
            log.error("%s: game stopped: %s", self.game_id, exc)
            self._abort(f"the server could not go on with the game: {exc}", remote, wire)
        except Exception:
            log.exception("%s: game failed", self.game_id)
            self._abort("internal error", remote, wire)
        finally:
            await self._close()

    def _abort(self, reason: str, remote: dict[int, RemoteSeat], wire: WireObserver | None) -> None:
        """End a game that cannot go on, and make sure its clients hear ``GAME_OVER`` even
        when its record can no longer be written (the record tells them, when it can)."""
        game = self.game
        if game is not None and game.state.outcome() is None and self.outcome is None:
            try:
                self.outcome = game.scheduler.abort(reason)
            except Exception as exc:  # the record is what failed: the clients are told below
                log.error("%s: the abort could not be recorded: %s", self.game_id, exc)
                self.outcome = Outcome(None, Termination.ABORTED, reason)
        if wire is None or not wire.ended:
            payload = {"winner": None, "termination": Termination.ABORTED.value, "reason": reason}
            announce_end(remote, self.game_id, payload)

    async def _close(self) -> None:
        for timer in self._expiry.values():
            timer.cancel()
        self._expiry.clear()
        self.finished.set()
        for token in self.tokens:  # the record is written: nothing of this game is masked again
            forget_secret(token)
        for seat in self.seats:
            if seat is not None:
                seat.game_over(self._is_alive(seat.seat))
        links = {id(s.link): s.link for s in self.seats if s is not None and s.link is not None}
        await asyncio.gather(
            *(
                link.close()
                for link in links.values()
                if isinstance(link, Connection | WsConnection)
            ),
            return_exceptions=True,
        )
        self._on_finished(self)

    @property
    def state(self) -> State | None:
        return self.game.state if self.game else None
