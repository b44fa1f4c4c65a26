"""The game server: accepts TCP connections, seats them through the lobby, reads their frames.

One asyncio task per connection reads frames and hands each decoded message to the seat the
connection plays; a bad frame gets an ``ERROR`` and reading goes on, a broken stream (length
over the limit, frame not completed in time) gets an ``ERROR`` and the connection is closed.
Nothing a connection does escapes its own task: other games and the server carry on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from duskfall.core.errors import ConfigError, MissingDependency
from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.protocol.errors import ErrorCode, ProtocolError
from duskfall.protocol.framing import FrameError
from duskfall.protocol.messages import ClientHello, error_message, parse_client_message
from duskfall.protocol.origins import HostAllowList
from duskfall.server.connection import Connection, Flusher, ReadTimeout
from duskfall.server.lobby import GameResult, Lobby, Placement
from duskfall.server.remote_seat import RemoteSeat
from duskfall.server.settings import ServerSettings
from duskfall.server.ws_connection import WsConnection

log = logging.getLogger(__name__)


class GameServer:
    """``await server.start()``, then ``await server.serve()`` (returns after ``--games`` games)."""

    def __init__(
        self,
        settings: ServerSettings | None = None,
        *,
        on_game_done: Callable[[GameResult], None] | None = None,
        **options: Any,
    ) -> None:
        self.settings = settings or ServerSettings(**options)
        self.on_game_done = on_game_done
        self.variant = get_variant(self.settings.variant)
        config = parse_config(self.variant, self.settings.config)
        num_seats = self.variant.new_game(config, 0).num_seats
        self.lobby = Lobby(self.variant, num_seats, self.settings, on_game_done=self._game_done)
        self.connections: set[Connection] = set()
        self._flusher = Flusher()  # one write per connection per loop round, for them all
        self.frames_in = 0
        self.frames_out = 0
        self._server: asyncio.base_events.Server | None = None
        self._ws_server: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._done = asyncio.Event()

    @property
    def port(self) -> int:
        """The bound port (useful with ``port=0``)."""
        assert self._server is not None, "server not started"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def ws_port(self) -> int | None:
        """The bound WebSocket port (``--ws``), if any."""
        if self._ws_server is None:
            return None
        port: int = next(iter(self._ws_server.sockets)).getsockname()[1]
        return port

    async def start(self) -> None:
        try:
            self._server = await asyncio.start_server(
                self._accept, self.settings.host, self.settings.port, backlog=1024
            )
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {self.settings.host}:{self.settings.port}: {exc.strerror}; "
                "pick another --port or stop the process using it"
            ) from None
        if self.settings.ws_port is not None:
            await self._start_ws(self.settings.ws_port)

    async def _start_ws(self, port: int) -> None:
        """Listen for WebSocket clients too (the same lobby, messages, tokens and limits;
        see :mod:`duskfall.server.ws_guard`)."""
        try:
            from websockets.asyncio.server import serve

            from duskfall.server.ws_guard import WS_QUEUE, deadline_connection, origin_check
        except ImportError:
            raise MissingDependency("websockets (for serve --ws)", "web") from None
        settings = self.settings
        try:
            self._ws_server = await serve(
                self._accept_ws,
                settings.host,
                port,
                max_size=settings.max_frame,
                max_queue=WS_QUEUE,
                compression=None,
                ping_interval=None,
                logger=logging.getLogger("duskfall.server.ws"),
                # the TCP clients' read deadline, and the web app's Origin rule
                create_connection=deadline_connection(settings.read_timeout),
                process_request=origin_check(HostAllowList.of([settings.host])),
            )
        except OSError as exc:
            raise ConfigError(
                f"cannot listen for WebSocket clients on {self.settings.host}:{port}: "
                f"{exc.strerror}; pick another --ws port"
            ) from None

    async def serve(self) -> None:
        """Serve until ``--games`` games are done (or forever), then close."""
        if self._server is None:
            await self.start()
        try:
            await self._done.wait()
        finally:
            await self.close()

    async def close(self) -> None:
        """Stop accepting, abort unfinished games (logged as aborted), close every connection."""
        if self._server is not None:
            self._server.close()
        if self._ws_server is not None:
            self._ws_server.close()
        rooms = [r.task for r in self.lobby.rooms.values() if r.task is not None]
        for task in rooms:
            task.cancel()
        await asyncio.gather(*rooms, return_exceptions=True)
        for connection in list(self.connections):
            connection.send(error_message(ErrorCode.SHUTTING_DOWN, "the server is stopping"))
            connection.abort()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 5.0)
        self._done.set()

    def _game_done(self, result: GameResult) -> None:
        if self.on_game_done is not None:
            try:
                self.on_game_done(result)
            except Exception:
                log.exception("on_game_done hook failed")
        if self.lobby.all_games_done:
            self._done.set()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        settings = self.settings
        connection = Connection(
            reader,
            writer,
            max_frame=settings.max_frame,
            read_timeout=settings.read_timeout,
            write_buffer_limit=settings.write_buffer_limit,
            flusher=self._flusher,
        )
        await self._serve(connection)

    async def _accept_ws(self, websocket: Any) -> None:
        """A WebSocket client: served as a TCP client is, one message per WebSocket frame."""
        connection = WsConnection(websocket, write_buffer_limit=self.settings.write_buffer_limit)
        await self._serve(connection)  # type: ignore[arg-type]

    async def _serve(self, connection: Connection) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        self.connections.add(connection)
        try:
            await self._session(connection)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("%r: session failed", connection)
        finally:
            self.connections.discard(connection)
            self.frames_in += connection.frames_in
            self.frames_out += connection.frames_out
            with contextlib.suppress(Exception):
                await connection.close()
            if task is not None:
                self._tasks.discard(task)

    async def _session(self, connection: Connection) -> None:
        if len(self.connections) > self.settings.max_connections:
            await connection.close_with(
                error_message(ErrorCode.SERVER_FULL, "too many connections")
            )
            return
        current: list[Placement | None] = [None]
        frames = connection.frames()
        first: asyncio.Future[bytes] | None = None
        try:
            if not self.settings.seat_after_hello:
                first = await self._seat_on_arrival(connection, frames, current)
            await self._read(connection, current, frames, first)
        finally:
            if first is not None and not first.done():
                first.cancel()
            if current[0] is not None:
                room, seat = current[0]
                room.leave(seat, connection)

    async def _seat_on_arrival(
        self, connection: Connection, frames: AsyncIterator[bytes], current: list[Placement | None]
    ) -> asyncio.Future[bytes] | None:
        """Seat a new connection, unless its first frame, sent within ``hello_grace``, is a
        HELLO whose token reclaims a seat: a reconnect goes straight back to its own seat and
        never sees a second HELLO. Returns the first frame still to be handled (a future: it
        may not have arrived yet), or None if it was that HELLO."""
        first = asyncio.ensure_future(anext(frames))
        if self.settings.hello_grace > 0:
            await asyncio.wait({first}, timeout=self.settings.hello_grace)
        if first.done() and first.exception() is None:
            hello = _as_hello(first.result())
            if hello is not None and hello.token:
                self._hello(connection, hello, current, seat_if_lost=True)
                if current[0] is not None:
                    return None
        if current[0] is None:
            current[0] = self.lobby.seat(connection)
        return first

    async def _read(
        self,
        connection: Connection,
        current: list[Placement | None],
        frames: AsyncIterator[bytes],
        first: asyncio.Future[bytes] | None,
    ) -> None:
        """Dispatch each frame to the connection's seat until the stream ends or breaks.

        ``current[0]`` is the connection's placement; a HELLO with a token may move it. A
        connection without a seat (``--seat-after-hello``, or no more games to seat it in)
        must first send a HELLO, within ``hello_timeout``. ``first`` is a first frame read
        already (or being read).
        """
        try:
            if current[0] is None:
                if first is not None:
                    frames = _prepend(first, frames)
                refusal = await self._first_hello(connection, frames, current)
                if refusal is not None:
                    await connection.close_with(refusal)
                    return
            elif first is not None:
                try:
                    payload = await first
                except StopAsyncIteration:
                    return
                self._dispatch(connection, payload, current)
            async for payload in frames:
                self._dispatch(connection, payload, current)
        except FrameError as exc:
            await connection.close_with(error_message(ErrorCode(exc.code), str(exc)))
        except ReadTimeout as exc:
            await connection.close_with(error_message(ErrorCode.READ_TIMEOUT, str(exc)))
        except (ConnectionError, OSError):
            pass

    async def _first_hello(
        self,
        connection: Connection,
        frames: AsyncIterator[bytes],
        current: list[Placement | None],
    ) -> dict[str, Any] | None:
        """Seat an unseated connection by its first frame, a HELLO; else the ERROR to close with.

        A HELLO with a token reclaims that seat; under ``--seat-after-hello`` any HELLO (or one
        whose token cannot reclaim anything) gets the next free seat.
        """
        try:
            first = await asyncio.wait_for(anext(frames), self.settings.hello_timeout)
        except (TimeoutError, StopAsyncIteration):
            first = None
        hello = _as_hello(first) if first is not None else None
        if hello is not None:
            if hello.token:
                self._hello(connection, hello, current)
            if current[0] is None and self.settings.seat_after_hello:
                current[0] = self.lobby.seat(connection)
                if current[0] is not None:
                    _note_hello(current[0][1], hello)
        if current[0] is not None:
            return None
        if self.settings.seat_after_hello and hello is None and self.lobby.accepting:
            return error_message(
                ErrorCode.HELLO_REQUIRED,
                "this server seats a connection after its HELLO: send "
                f'{{"type": "HELLO"}} first, within {self.settings.hello_timeout:g}s',
            )
        return error_message(
            ErrorCode.SHUTTING_DOWN,
            "this server has no more games to play (a dropped client may "
            "still reclaim its seat: send HELLO with its token first)",
        )

    def _dispatch(
        self, connection: Connection, payload: bytes, current: list[Placement | None]
    ) -> None:
        """One client frame to the connection's seat (a HELLO may move the connection)."""
        placement = current[0]
        assert placement is not None
        try:
            message = parse_client_message(payload)
        except ProtocolError as exc:
            placement[1].on_protocol_error(exc)
            return
        if isinstance(message, ClientHello):
            self._hello(connection, message, current)
        else:
            placement[1].on_response(message)

    def _hello(
        self,
        connection: Connection,
        message: ClientHello,
        current: list[Placement | None],
        *,
        seat_if_lost: bool = False,
    ) -> None:
        """Act on a HELLO: reclaim the token's seat, note the name and state updates. With
        ``seat_if_lost``, an unseated connection whose token reclaims nothing is seated anew
        before its BAD_TOKEN is sent (as if it had been seated on arrival)."""
        placement = current[0]
        if message.token:
            moved = self.lobby.reclaim(message.token, connection, placement, message.last_seq)
            if moved is not None:
                current[0] = placement = moved
            else:
                if seat_if_lost and placement is None:
                    current[0] = placement = self.lobby.seat(connection)
                connection.send(
                    error_message(
                        ErrorCode.BAD_TOKEN,
                        "no seat can be reclaimed with this token (unknown, expired, or its "
                        "game is over)",
                        game_id=placement[0].game_id if placement else None,
                    )
                )
        if placement is not None:
            placement[1].heard_from()
            _note_hello(placement[1], message)


async def _prepend(
    first: asyncio.Future[bytes], rest: AsyncIterator[bytes]
) -> AsyncIterator[bytes]:
    """The frames of a connection whose first frame is being read already."""
    try:
        yield await first
    except StopAsyncIteration:
        return
    async for payload in rest:
        yield payload


def _note_hello(seat: RemoteSeat, hello: ClientHello) -> None:
    """What a client's HELLO says about itself: its name, the state updates it wants."""
    if hello.name:
        seat.name = hello.name
    if hello.state_updates is not None:
        seat.state_updates = hello.state_updates


def _as_hello(payload: bytes) -> ClientHello | None:
    """The frame as a client HELLO, or None if it is anything else."""
    try:
        message = parse_client_message(payload)
    except ProtocolError:
        return None
    return message if isinstance(message, ClientHello) else None
