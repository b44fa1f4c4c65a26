"""One client's TCP stream: framed reads under a size limit and a read deadline, bounded writes.

Reads: the incremental decoder refuses an oversized length as soon as the header is in; once a
frame has started it must be complete within ``read_timeout`` (idle time between frames is
free: a client waits for its turn). Writes never block the game: frames are queued on the
transport and a client that lets more than ``write_buffer_limit`` bytes pile up is dropped.
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
_ids = itertools.count(1)


class ReadTimeout(Exception):
    """A frame was started but not finished within the read deadline."""


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

    def __repr__(self) -> str:
        return f"<Connection {self.id} {self.peer}>"

    def send(self, message: dict[str, Any] | bytes) -> None:
        """Queue one message (or an encoded frame); never blocks. A client that stopped
        reading is dropped."""
        if self.closing:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closing = True
            return
        self.writer.write(message if isinstance(message, bytes) else encode_message(message))
        self.frames_out += 1
        if transport.get_write_buffer_size() > self.write_buffer_limit:
            log.warning("%r: dropped, %d bytes unread", self, transport.get_write_buffer_size())
            self.abort()

    async def frames(self) -> AsyncIterator[bytes]:
        """Payloads of complete frames until the client closes; raises FrameError/ReadTimeout."""
        while not self.closing:
            if self.decoder.pending:
                try:
                    data = await asyncio.wait_for(self.reader.read(READ_CHUNK), self.read_timeout)
                except TimeoutError:
                    raise ReadTimeout(
                        f"a frame was not completed within {self.read_timeout:g}s"
                    ) from None
            else:
                data = await self.reader.read(READ_CHUNK)
            if not data:
                return
            for payload in self.decoder.feed(data):
                self.frames_in += 1
                yield payload

    def abort(self) -> None:
        """Drop the connection at once (unsent data is discarded)."""
        self.closing = True
        self.writer.transport.abort()

    async def close(self) -> None:
        """Flush what is queued (within a deadline), then close."""
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
