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
from collections.abc import Callable
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.protocol.errors import ErrorCode, ProtocolError
from duskfall.protocol.framing import FrameError
from duskfall.protocol.messages import ClientHello, error_message, parse_client_message
from duskfall.server.connection import Connection, ReadTimeout
from duskfall.server.lobby import GameResult, Lobby, Placement
from duskfall.server.settings import ServerSettings

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
        self.frames_in = 0
        self.frames_out = 0
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._done = asyncio.Event()

    @property
    def port(self) -> int:
        """The bound port (useful with ``port=0``)."""
        assert self._server is not None, "server not started"
        port: int = self._server.sockets[0].getsockname()[1]
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
        )
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
            connection.send(error_message(ErrorCode.SERVER_FULL, "too many connections"))
            return
        current: list[Placement | None] = [self.lobby.seat(connection)]
        try:
            await self._read(connection, current)
        finally:
            if current[0] is not None:
                room, seat = current[0]
                room.leave(seat, connection)

    async def _read(self, connection: Connection, current: list[Placement | None]) -> None:
        """Dispatch each frame to the connection's seat until the stream ends or breaks.

        ``current[0]`` is the connection's placement; a HELLO with a token may move it. A
        connection the lobby could not seat (no more games) may still reclaim a seat: its
        first frame, within ``hello_timeout``, must be that HELLO.
        """
        frames = connection.frames()
        try:
            if current[0] is None:
                try:
                    first = await asyncio.wait_for(anext(frames), self.settings.hello_timeout)
                except (TimeoutError, StopAsyncIteration):
                    first = None
                if first is None or not self._reconnect(connection, first, current):
                    connection.send(
                        error_message(
                            ErrorCode.SHUTTING_DOWN,
                            "this server has no more games to play (a dropped client may "
                            "still reclaim its seat: send HELLO with its token first)",
                        )
                    )
                    return
            async for payload in frames:
                placement = current[0]
                assert placement is not None
                try:
                    message = parse_client_message(payload)
                except ProtocolError as exc:
                    placement[1].on_protocol_error(exc)
                    continue
                if isinstance(message, ClientHello):
                    self._hello(connection, message, current)
                else:
                    placement[1].on_response(message)
        except FrameError as exc:
            connection.send(error_message(ErrorCode(exc.code), str(exc)))
        except ReadTimeout as exc:
            connection.send(error_message(ErrorCode.READ_TIMEOUT, str(exc)))
        except (ConnectionError, OSError):
            pass

    def _reconnect(
        self, connection: Connection, payload: bytes, current: list[Placement | None]
    ) -> bool:
        """An unseated connection's first frame: a HELLO with a token that reclaims a seat."""
        try:
            message = parse_client_message(payload)
        except ProtocolError:
            return False
        if not isinstance(message, ClientHello) or not message.token:
            return False
        self._hello(connection, message, current)
        return current[0] is not None

    def _hello(
        self, connection: Connection, message: ClientHello, current: list[Placement | None]
    ) -> None:
        placement = current[0]
        if message.token:
            moved = self.lobby.reclaim(message.token, connection, placement)
            if moved is not None:
                current[0] = placement = moved
            else:
                connection.send(
                    error_message(
                        ErrorCode.BAD_TOKEN,
                        "no seat can be reclaimed with this token (unknown, expired, or its "
                        "game is over)",
                        game_id=placement[0].game_id if placement else None,
                    )
                )
        if message.name and placement is not None:
            placement[1].name = message.name
