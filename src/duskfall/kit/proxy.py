"""A recording TCP proxy between the program under check and the real server.

Every frame is decoded on its way through (8-byte length + JSON) and kept with its direction,
connection and time; the program's answers are shown to the scenario's steering bots
(:class:`~duskfall.kit.scenarios.Director`) before the server gets them. :meth:`Proxy.cut`
drops the program's connection, as a network failure would (the server sees it close);
``cut_at`` does it by itself: the first connection is dropped as the server sends it its
``cut_at``-th request to answer, before the program sees it (the server sends it again to
the connection that reclaims the seat).

:class:`WsProxy` does the same for WebSocket clients (``check-bot --ws``): one JSON message per
WebSocket message each way, to the server's WebSocket port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from duskfall.protocol.framing import FrameDecoder

HOST = "127.0.0.1"
MAX_FRAME = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Frame:
    """One message seen by the proxy: ``up`` from the program, else from the server."""

    connection: int
    up: bool
    at: float
    message: Any  # the decoded JSON (or the raw text of a frame that is not JSON)


@dataclass
class Proxy:
    """Listens on a free loopback port and forwards each connection to ``port``."""

    port: int
    on_answer: Callable[[dict[str, Any]], None] = lambda action: None
    on_request: Callable[[dict[str, Any]], None] = lambda request: None
    cut_at: int | None = None
    frames: list[Frame] = field(default_factory=list)
    connections: int = 0
    requests: int = 0  # requests to answer sent to the first connection
    _server: asyncio.base_events.Server | None = None
    _links: dict[int, tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = field(
        default_factory=dict
    )
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def listen_port(self) -> int:
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, HOST, 0)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for number in list(self._links):
            self.cut(number)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cut(self, connection: int) -> None:
        """Drop connection ``connection`` on both sides at once."""
        link = self._links.pop(connection, None)
        if link is not None:
            for writer in link:
                writer.transport.abort()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        try:
            up_reader, up_writer = await asyncio.open_connection(HOST, self.port)
        except OSError:
            writer.transport.abort()
            return
        self._links[number] = (writer, up_writer)
        pumps = [
            asyncio.ensure_future(self._pump(number, reader, up_writer, up=True)),
            asyncio.ensure_future(self._pump(number, up_reader, writer, up=False)),
        ]
        for pump in pumps:
            self._tasks.add(pump)
            pump.add_done_callback(self._tasks.discard)
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.sleep(0)  # let the other direction deliver what it already read
        self.cut(number)

    async def _pump(
        self,
        number: int,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        up: bool,
    ) -> None:
        decoder = FrameDecoder(MAX_FRAME)
        with contextlib.suppress(ConnectionError, OSError, asyncio.CancelledError):
            while data := await reader.read(65536):
                try:
                    payloads = decoder.feed(data)
                except Exception:
                    payloads = []
                for payload in payloads:
                    if not self._record(number, payload, up=up):
                        return
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()

    def _record(self, number: int, payload: bytes, *, up: bool) -> bool:
        """Keep one frame and show it to the hooks; False if the connection was cut for it."""
        message = _decoded(payload)
        if not up and number == 1 and self._cutting(message):
            self.cut(number)
            return False
        self.frames.append(Frame(number, up, time.monotonic(), message))
        if isinstance(message, dict):
            self._tell(message, up=up)
        return True

    def _tell(self, message: dict[str, Any], *, up: bool) -> None:
        """Show the hooks a request to the program, or its answer."""
        kind, action = message.get("type"), message.get("action")
        if up and kind == "ACTION_RESPONSE" and isinstance(action, dict):
            self.on_answer(action)
        elif not up and kind == "ACTION_REQUEST" and message.get("valid_actions"):
            self.on_request(message)

    def _cutting(self, message: Any) -> bool:
        """Whether ``message`` (to the first connection) is the request to cut it at."""
        if self.cut_at is None or not isinstance(message, dict):
            return False
        if message.get("type") == "ACTION_REQUEST" and message.get("valid_actions"):
            self.requests += 1
            return self.requests == self.cut_at
        return False


def _decoded(payload: bytes) -> Any:
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return payload[:200].decode("utf-8", "replace")


@dataclass
class WsProxy(Proxy):
    """A recording proxy for WebSocket clients, to the server's WebSocket port ``port``."""

    _ws_server: Any = None
    _sockets: dict[int, tuple[Any, Any]] = field(default_factory=dict)

    @property
    def listen_port(self) -> int:
        port: int = next(iter(self._ws_server.sockets)).getsockname()[1]
        return port

    @property
    def url(self) -> str:
        return f"ws://{HOST}:{self.listen_port}/"

    async def start(self) -> None:
        from websockets.asyncio.server import serve

        self._ws_server = await serve(
            self._accept_ws, HOST, 0, max_size=MAX_FRAME, compression=None, ping_interval=None
        )

    async def close(self) -> None:
        if self._ws_server is not None:
            self._ws_server.close()
        for number in list(self._sockets):
            self.cut(number)

    def cut(self, connection: int) -> None:
        for socket in self._sockets.pop(connection, ()):
            transport = getattr(socket, "transport", None)
            if transport is not None:
                transport.abort()

    async def _accept_ws(self, client: Any) -> None:
        from websockets.asyncio.client import connect

        self.connections += 1
        number = self.connections
        try:
            server = await connect(
                f"ws://{HOST}:{self.port}/",
                max_size=MAX_FRAME,
                compression=None,
                ping_interval=None,
            )
        except OSError:
            return
        self._sockets[number] = (client, server)
        pumps = [
            asyncio.ensure_future(self._pump_ws(number, client, server, up=True)),
            asyncio.ensure_future(self._pump_ws(number, server, client, up=False)),
        ]
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.sleep(0)
        for pump in pumps:
            pump.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        self.cut(number)
        with contextlib.suppress(Exception):
            await server.close()

    async def _pump_ws(self, number: int, source: Any, sink: Any, *, up: bool) -> None:
        with contextlib.suppress(Exception):
            async for data in source:
                payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
                if not self._record(number, payload, up=up):
                    return
                await sink.send(data)
