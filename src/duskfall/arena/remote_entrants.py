"""Remote entrants: programs that play their seats over the TCP protocol or WebSocket.

A tournament entrant ``"remote"`` is a program the researcher wrote, in any language, that
speaks the wire protocol (seed 001 framing and messages). For each game with seats of that
entrant, the game's process opens a listening port on the loopback interface, starts the
entrant's command once per seat (``{port}``, ``{seat}``, ``{host}``, ``{game_id}``,
``{variant}`` and ``{token}`` filled in, the seat's token also in the environment as
:data:`TOKEN_VARIABLE`, which keeps it out of the process list), and waits for each program
to connect and send a ``HELLO`` with its seat's token. The seat then behaves exactly as a
remote seat of ``duskfall serve`` (:class:`~duskfall.server.remote_seat.RemoteSeat`:
requests with deadlines, checked answers, fallbacks for a silent or departed client), and the
program
receives the game's events. When the game ends the connections are closed and the programs
given a few seconds to exit before they are stopped.

An entrant with ``transport = "ws"`` may connect over WebSocket instead (one JSON message per
WebSocket message, as ``serve --ws`` takes them): the game's process then also listens for
WebSocket clients on the loopback interface, at the address filled in for ``{ws_url}``. The
seat is the same :class:`~duskfall.server.remote_seat.RemoteSeat` either way, so its answer
times are recorded (``remote_answer``) and its latency shown on the board alike.

Each program's standard error goes to ``<game id>-seat<N>.err`` beside the game's log, so a
failing agent can be debugged; a program that does not connect in time fails the game with
one line naming the entrant.

Every program is sealed (:mod:`duskfall.arena.sealing`): its environment holds only what its
config names and its seat token, it runs in an empty folder of its own and, as root on Linux,
as a user of its own that cannot read the tournament's folder or index. When its game ends, its
process group (and every process of its user) is killed (:mod:`duskfall.arena.programs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import secrets
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.arena.programs import stop
from duskfall.arena.remote_spec import RemoteEntrant, fill
from duskfall.arena.sealing import Seal
from duskfall.core.errors import DuskfallError
from duskfall.core.registry import get_variant
from duskfall.protocol.errors import ErrorCode, ProtocolError
from duskfall.protocol.framing import FrameError
from duskfall.protocol.messages import (
    ClientHello,
    ServerHello,
    error_message,
    parse_client_message,
)
from duskfall.protocol.observations import ObservationFrames
from duskfall.runtime.capped import one_line
from duskfall.server.broadcast import WireObserver
from duskfall.server.connection import Connection, Flusher, ReadTimeout
from duskfall.server.remote_seat import RemoteSeat
from duskfall.server.settings import ServerSettings
from duskfall.server.stand_in import Policy, make_stand_in
from duskfall.session import PreparedGame

HOST = "127.0.0.1"
EXIT_GRACE = 5.0  # seconds a program has to exit after its game, before it is stopped
TOKEN_VARIABLE = "DUSKFALL_SEAT_TOKEN"  # the seat token, in the program's environment


class RemoteEntrantError(DuskfallError):
    """A remote entrant's program could not take its seat."""


@dataclass
class _Seat:
    entrant: str
    spec: RemoteEntrant
    seat: RemoteSeat
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    process: asyncio.subprocess.Process | None = None
    errors: Path | None = None
    sealed: Seal | None = None


class RemoteSeats:
    """The remote seats of one game: listener, programs, connections (``async with``)."""

    def __init__(
        self,
        *,
        variant: str,
        game_id: str,
        seed: int,
        num_players: int,
        seats: Mapping[int, str],
        entrants: Mapping[str, RemoteEntrant],
        log_dir: Path,
    ) -> None:
        self.variant = get_variant(variant)
        self.game_id = game_id
        self.num_players = num_players
        self.log_dir = log_dir
        self.settings = ServerSettings()  # the server's defaults for frames and reads
        self._connection = functools.partial(
            Connection,
            max_frame=self.settings.max_frame,
            read_timeout=self.settings.read_timeout,
            write_buffer_limit=self.settings.write_buffer_limit,
            flusher=Flusher(),
        )
        self.frames = ObservationFrames()
        self._state: Any = None  # the game's state once it exists (seats of the dead rest)
        ids = itertools.count(1)
        self._seats: dict[str, _Seat] = {}
        for index, entrant in sorted(seats.items()):
            spec = entrants[entrant]
            seat = RemoteSeat(
                index,
                variant=self.variant,
                game_id=game_id,
                deadline=spec.deadline_ms / 1000,
                stand_in=_stand_in_maker(self.variant, index, seed),
                is_alive=self._alive_check(index),
                request_ids=ids,
                frames=self.frames,
            )
            seat.token = secrets.token_urlsafe(18)
            seat.name = entrant
            self._seats[seat.token] = _Seat(entrant, spec, seat)
        self._server: asyncio.base_events.Server | None = None
        self._ws_server: Any = None
        self._connections: set[Connection] = set()
        self._refused: list[str] = []  # why connections were not given a seat, in order
        self._before_hello = 0  # connections open whose first frame has not come yet

    @property
    def participants(self) -> dict[int, RemoteSeat]:
        return {s.seat.seat: s.seat for s in self._seats.values()}

    def follow(self, game: PreparedGame) -> None:
        """Send the programs ``game``'s events; a dead seat's program is not waited for."""
        self._state = game.state
        game.record.observers.append(
            WireObserver(game.state, self.participants, self.game_id, frames=self.frames)
        )

    def _alive_check(self, index: int) -> Any:
        return lambda: self._state is None or index in self._state.alive()

    async def __aenter__(self) -> RemoteSeats:
        self._server = await asyncio.start_server(self._accept, HOST, 0)
        port = self._server.sockets[0].getsockname()[1]
        try:
            ws_url = await self._listen_ws()
            for entry in self._seats.values():
                await self._launch(entry, port, ws_url)
            await self._wait_connected()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _listen_ws(self) -> str:
        """Listen for WebSocket clients if an entrant asks for it; the address (else "")."""
        if all(entry.spec.transport != "ws" for entry in self._seats.values()):
            return ""
        try:
            from websockets.asyncio.server import serve

            from duskfall.server.ws_guard import WS_QUEUE, deadline_connection
        except ImportError:
            raise RemoteEntrantError(
                'a remote entrant with transport = "ws" needs the websockets package '
                "(pip install 'duskfall[web]')"
            ) from None
        settings = self.settings
        self._ws_server = await serve(
            self._accept_ws,
            HOST,
            0,
            max_size=settings.max_frame,
            max_queue=WS_QUEUE,
            compression=None,
            ping_interval=None,
            create_connection=deadline_connection(settings.read_timeout),
        )
        port = next(iter(self._ws_server.sockets)).getsockname()[1]
        return f"ws://{HOST}:{port}/"

    async def _launch(self, entry: _Seat, port: int, ws_url: str = "") -> None:
        values = {
            "host": HOST,
            "port": str(port),
            "ws_url": ws_url,
            "token": entry.seat.token or "",
            "seat": str(entry.seat.seat),
            "game_id": self.game_id,
            "variant": self.variant.id,
        }
        argv = [fill(part, values) for part in entry.spec.command]
        entry.errors = self.log_dir / f"{self.game_id}-seat{entry.seat.seat}.err"
        entry.sealed = Seal.make(entry.spec, {TOKEN_VARIABLE: entry.seat.token or ""})
        with entry.errors.open("wb") as errors:
            try:
                entry.process = await asyncio.create_subprocess_exec(
                    *argv,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=errors,
                    **entry.sealed.options(),
                )
            except OSError as exc:
                who = (
                    f" by a user of its own (uid {entry.sealed.uid}: every folder on its path "
                    "must be open to all users, or set sealed = false)"
                    if entry.sealed.uid is not None and isinstance(exc, PermissionError)
                    else ""
                )
                raise RemoteEntrantError(
                    f"remote entrant {entry.entrant!r}: cannot start {argv[0]!r}{who}: "
                    f"{exc.strerror or exc}"
                ) from None

    async def _wait_connected(self) -> None:
        for entry in self._seats.values():
            process = entry.process
            assert process is not None
            exited = asyncio.ensure_future(process.wait())
            connected = asyncio.ensure_future(entry.connected.wait())
            try:
                await asyncio.wait(
                    {exited, connected},
                    timeout=entry.spec.connect_timeout,
                    return_when=asyncio.FIRST_COMPLETED,
                )
            finally:
                exited.cancel()
                connected.cancel()
            if not entry.connected.is_set():
                status = process.returncode
                if self._refused:  # it connected, but never said who it is
                    # (first: a sibling seat's program may be connecting at this moment)
                    why = "a connection came but " + "; another ".join(self._refused)
                elif self._before_hello:  # connected, and silent ever since
                    why = (
                        f"it connected but sent no HELLO with its seat's token within "
                        f"{entry.spec.connect_timeout:g}s"
                    )
                elif status is not None:
                    why = f"its program exited with status {status} without connecting"
                else:
                    why = f"it did not connect within {entry.spec.connect_timeout:g}s"
                errors = entry.errors.name if entry.errors is not None else "none"
                raise RemoteEntrantError(
                    f"remote entrant {entry.entrant!r} (seat {entry.seat.seat}) could not "
                    f"take its seat: {why} (its errors: {errors} in the games folder)"
                )

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One program's connection: its HELLO, then its answers, until it or the game ends
        (closing the connection at the end of the game ends this read)."""
        await self._serve(self._connection(reader, writer))

    async def _accept_ws(self, websocket: Any) -> None:
        """One program's WebSocket connection, served as a TCP one is."""
        from duskfall.server.ws_connection import WsConnection

        limit = self.settings.write_buffer_limit
        await self._serve(WsConnection(websocket, write_buffer_limit=limit))  # type: ignore[arg-type]

    async def _serve(self, connection: Connection) -> None:
        self._connections.add(connection)
        try:
            await self._read(connection)
        except (ConnectionError, OSError):
            pass
        finally:
            self._connections.discard(connection)
            with contextlib.suppress(Exception):
                await connection.close()

    async def _read(self, connection: Connection) -> None:
        frames = connection.frames()
        try:
            entry = await self._seat_of(connection, frames)
            if entry is None:
                return
            try:
                async for payload in frames:
                    try:
                        message = parse_client_message(payload)
                    except ProtocolError as exc:
                        entry.seat.on_protocol_error(exc)
                        continue
                    if isinstance(message, ClientHello):
                        entry.seat.heard_from()
                    else:
                        entry.seat.on_response(message)
            finally:
                if entry.seat.link is connection:
                    entry.seat.abandon()  # no reconnecting: the stand-in plays on
        except FrameError as exc:
            await connection.close_with(error_message(ErrorCode(exc.code), str(exc)))
        except ReadTimeout as exc:
            await connection.close_with(error_message(ErrorCode.READ_TIMEOUT, str(exc)))

    async def _seat_of(self, connection: Connection, frames: AsyncIterator[bytes]) -> _Seat | None:
        """The seat whose token the connection's first frame, a HELLO, gives; None (and the
        connection told why) otherwise."""
        wait = self.settings.read_timeout
        refusal: str | None = None
        self._before_hello += 1
        try:
            first = await asyncio.wait_for(anext(frames), wait)
            message: Any = parse_client_message(first)
        except TimeoutError:
            message, refusal = None, f"sent no HELLO within {wait:g}s (nothing at all)"
        except StopAsyncIteration:
            message, refusal = None, "closed without sending its HELLO"
        except ProtocolError as exc:
            why = one_line(exc.detail)  # it may quote the frame
            message, refusal = None, f"sent no HELLO: its first frame was refused ({why})"
        finally:
            self._before_hello -= 1
        hello = message if isinstance(message, ClientHello) else None
        entry = self._seats.get(hello.token or "" if hello else "")
        if refusal is None:
            if hello is None:
                refusal = f"sent no HELLO: its first frame was a {message.type}"
            elif not hello.token:
                refusal = "sent a HELLO without its seat's token"
            elif entry is None:
                refusal = "sent a HELLO with a token that is not its seat's"
            elif entry.connected.is_set():
                refusal = f"sent the token of seat {entry.seat.seat}, already taken"
        if refusal is not None or entry is None:
            self._refused.append(refusal or "was refused")
            await connection.close_with(
                error_message(
                    ErrorCode.BAD_TOKEN,
                    "send HELLO with the token your program was started with, first",
                    game_id=self.game_id,
                )
            )
            return None
        connection.send(
            ServerHello(
                player_id=entry.seat.seat,
                game_id=self.game_id,
                variant=self.variant.id,
                num_players=self.num_players,
                token=entry.seat.token or "",
                deadline_ms=entry.spec.deadline_ms,
                max_frame=self.settings.max_frame,
            ).to_wire()
        )
        entry.seat.attach(connection)
        if hello is not None and hello.state_updates is not None:
            entry.seat.state_updates = hello.state_updates
        entry.connected.set()
        return entry

    async def close(self) -> None:
        """Close the connections and the port; let the programs exit, else stop them."""
        if self._server is not None:
            self._server.close()
        if self._ws_server is not None:
            self._ws_server.close()
        for connection in list(self._connections):
            with contextlib.suppress(Exception):
                await connection.close()
        await asyncio.gather(*(_end(e) for e in self._seats.values()), return_exceptions=True)


def _stand_in_maker(variant: Any, index: int, seed: int) -> Any:
    return lambda: make_stand_in(variant, index, seed=seed, policy=Policy.FALLBACK, bot="random")


async def _end(entry: _Seat) -> None:
    """Give the program a little time to exit, then stop what is left of it; remove its folder."""
    if entry.sealed is None:
        return
    try:
        if entry.process is not None:
            await stop(entry.process, EXIT_GRACE, entry.sealed.uid)
    finally:
        entry.sealed.remove()
