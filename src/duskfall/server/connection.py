"""One client's TCP stream: framed reads under a size limit and a read deadline, bounded writes.

Reads: the incremental decoder refuses an oversized length as soon as the header is in; once a
frame has started, the whole frame must be in within ``read_timeout`` of its first byte (a
deadline per frame, not an idle timer: a client trickling one byte a second is cut; idle time
between frames is free: a client waits for its turn). Writes never block the game: frames are
queued on the transport and a client that lets more than ``write_buffer_limit`` bytes pile up is
dropped. The frames queued for a client while the event loop runs one round of callbacks (an
action's GAME_EVENTs, the next request, the state update) go out in one write at the end of
that round: one system call per client per action instead of one per frame (and one callback
for all the server's connections, a :class:`Flusher`, not one per connection). A connection
closed for an error gets the ``ERROR`` first: the server half-closes and discards what the
client still sends for a moment (:meth:`Connection.close_with`), since closing a socket with
unread input sends a reset that would destroy the ``ERROR`` in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator
from typing import Any

from duskfall.protocol.framing import FrameDecoder, encode_message

log = logging.getLogger(__name__)

READ_CHUNK = 64 * 1024
CLOSE_TIMEOUT = 5.0
LINGER = 2.0  # seconds a connection closed for an error is drained so its ERROR arrives
_ids = itertools.count(1)


class ReadTimeout(Exception):
    """A frame was started but not finished within the read deadline."""


class Flusher:
    """Flushes, once per round of the event loop, every connection that queued frames in it."""

    def __init__(self) -> None:
        self._queued: list[Connection] = []

    def add(self, connection: Connection) -> None:
        """``connection`` queued its first frame of this round."""
        if not self._queued:
            asyncio.get_running_loop().call_soon(self._flush)
        self._queued.append(connection)

    def _flush(self) -> None:
        queued, self._queued = self._queued, []
        for connection in queued:
            connection.flush()


class Connection:
    """A client connection; also the :class:`~duskfall.server.remote_seat.SeatLink` of its seat."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame: int,
        read_timeout: float,
        write_buffer_limit: int,
        flusher: Flusher | None = None,
    ) -> None:
        self.id = next(_ids)
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder(max_frame)
        self.read_timeout = read_timeout
        self.write_buffer_limit = write_buffer_limit
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.frames_in = 0
        self.frames_out = 0
        self.closing = False
        self._queued: list[bytes] = []  # frames waiting for the flush at the end of the round
        self._flusher = flusher or Flusher()

    def __repr__(self) -> str:
        return f"<Connection {self.id} {self.peer}>"

    def send(self, message: dict[str, Any] | bytes) -> None:
        """Queue one message (or an encoded frame) for the flush at the end of this round of
        the event loop; never blocks. A client that stopped reading is dropped."""
        if self.closing:
            return
        if not self._queued:
            self._flusher.add(self)
        self._queued.append(message if isinstance(message, bytes) else encode_message(message))
        self.frames_out += 1

    def flush(self) -> None:
        """Write the queued frames in one go (the flusher's callback is scheduled by the round's
        first ``send``; the state updates, scheduled when the action was recorded, run before
        it)."""
        queued, self._queued = self._queued, []
        if not queued or self.closing:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closing = True
            return
        self.writer.write(queued[0] if len(queued) == 1 else b"".join(queued))
        if transport.get_write_buffer_size() > self.write_buffer_limit:
            log.warning("%r: dropped, %d bytes unread", self, transport.get_write_buffer_size())
            self.abort()

    async def frames(self) -> AsyncIterator[bytes]:
        """Payloads of complete frames until the client closes; raises FrameError/ReadTimeout."""
        loop = asyncio.get_running_loop()
        deadline: float | None = None  # when the frame being read must be complete
        while not self.closing:
            if self.decoder.pending:
                if deadline is None:
                    deadline = loop.time() + self.read_timeout
                try:
                    async with asyncio.timeout_at(deadline):
                        data = await self.reader.read(READ_CHUNK)
                except TimeoutError:
                    raise ReadTimeout(
                        f"a frame was not completed within {self.read_timeout:g}s of its first byte"
                    ) from None
            else:
                deadline = None
                data = await self.reader.read(READ_CHUNK)
            if not data:
                return
            payloads = self.decoder.feed(data)
            if payloads:
                deadline = None  # the next frame's clock starts now
            for payload in payloads:
                self.frames_in += 1
                yield payload

    async def close_with(self, message: dict[str, Any]) -> None:
        """Send a last message (an ``ERROR``) so that it arrives, then close.

        Flush, half-close, and read and discard whatever the client still sends, for at most
        :data:`LINGER` seconds: closing with unread input would send a TCP reset instead.
        """
        self.send(message)
        self.flush()
        self.closing = True
        writer = self.writer
        if writer.transport.is_closing():
            return
        with contextlib.suppress(TimeoutError, OSError, ConnectionError):
            async with asyncio.timeout(LINGER):
                await writer.drain()
                if writer.can_write_eof():
                    writer.write_eof()
                while await self.reader.read(READ_CHUNK):
                    pass
        await self.close()

    def abort(self) -> None:
        """Drop the connection at once (what the transport has not sent yet is discarded)."""
        self.flush()
        self.closing = True
        self.writer.transport.abort()

    async def close(self) -> None:
        """Flush what is queued (within a deadline), then close."""
        self.flush()
        self.closing = True
        if self.writer.transport.is_closing():
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.drain(), CLOSE_TIMEOUT)
        self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), CLOSE_TIMEOUT)
        except (TimeoutError, OSError, ConnectionError):
            self.writer.transport.abort()
