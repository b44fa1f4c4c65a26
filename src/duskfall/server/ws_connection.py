"""One client over WebSocket: the same JSON messages, one message per WebSocket frame.

:class:`WsConnection` has the interface of :class:`~duskfall.server.connection.Connection`, so
the server seats it, reads it and writes to it exactly as a TCP client: the same messages,
tokens, deadlines and limits. A frame the server encoded for TCP (8-byte length + JSON) goes out
as a text message holding the JSON; a client's text (or binary) message is one frame's payload.
Limits: a message over ``max_frame`` bytes closes the connection with the WebSocket close code
1009 (message too big), the library's refusal, before its body is kept; messages queued to a
client that does not read are capped at ``write_buffer_limit`` bytes, then it is dropped.
Needs the ``websockets`` package (``duskfall[web]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from duskfall.protocol.framing import HEADER_SIZE, encode_json

log = logging.getLogger(__name__)

CLOSE_TIMEOUT = 5.0
_ids = itertools.count(1)


class WsConnection:
    """A WebSocket client connection; also the seat link of its seat."""

    def __init__(self, websocket: Any, *, write_buffer_limit: int) -> None:
        self.id = next(_ids)
        self.websocket = websocket
        self.write_buffer_limit = write_buffer_limit
        peer = getattr(websocket, "remote_address", None)
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.frames_in = 0
        self.frames_out = 0
        self.closing = False
        self._queue: deque[str] = deque()
        self._queued_bytes = 0
        self._wake = asyncio.Event()
        self._sent = asyncio.Event()  # set whenever the queue is empty
        self._sent.set()
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def __repr__(self) -> str:
        return f"<WsConnection {self.id} {self.peer}>"

    def send(self, message: dict[str, Any] | bytes) -> None:
        """Queue one message (or a TCP frame, whose JSON is sent); never blocks."""
        if self.closing:
            return
        text = (
            message[HEADER_SIZE:].decode("utf-8")
            if isinstance(message, bytes)
            else encode_json(message)
        )
        self._queue.append(text)
        self._sent.clear()
        self._queued_bytes += len(text)
        self.frames_out += 1
        if self._queued_bytes > self.write_buffer_limit:
            log.warning("%r: dropped, %d bytes unread", self, self._queued_bytes)
            self.abort()
            return
        self._wake.set()

    async def _write(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    text = self._queue.popleft()
                    self._queued_bytes -= len(text)
                    await self.websocket.send(text)
                self._sent.set()
        except Exception:  # the client went away: reading ends too
            self.closing = True
            self._sent.set()

    def flush(self) -> None:
        """Writes go out from the connection's own task; nothing to do."""

    async def frames(self) -> AsyncIterator[bytes]:
        """Each message's payload (text as UTF-8) until the client closes."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in self.websocket:
                self.frames_in += 1
                yield message.encode("utf-8") if isinstance(message, str) else bytes(message)
        except ConnectionClosed:
            return

    async def _drain(self) -> None:
        """Let the queued messages go out (within a deadline)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._sent.wait(), CLOSE_TIMEOUT)

    async def close_with(self, message: dict[str, Any]) -> None:
        """Send a last message (an ``ERROR``), then close."""
        self.send(message)
        await self.close()

    def abort(self) -> None:
        self.closing = True
        self._queue.clear()
        self._writer.cancel()
        transport = getattr(self.websocket, "transport", None)
        if transport is not None:
            transport.abort()

    async def close(self) -> None:
        """Send what is queued, then close the WebSocket."""
        if not self.closing:
            await self._drain()
        self.closing = True
        self._writer.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(), CLOSE_TIMEOUT)
