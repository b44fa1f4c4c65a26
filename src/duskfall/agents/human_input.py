"""Lines typed at the terminal, awaited without blocking the event loop.

Input is read by one daemon thread per stream, so a game that ends, or a deadline that
passes, never leaves the process waiting for a line; every human seat reading the same stream
(hot-seat play) shares its reader.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from typing import TextIO

from duskfall.core.errors import ConfigError


class LineReader:
    """Lines of a text stream, read by a daemon thread and awaited without blocking the loop."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lines: deque[str] = deque()
        self._eof = False
        self._mutex = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None
        self._thread: threading.Thread | None = None

    def _pump(self) -> None:
        while True:
            try:
                line = self._stream.readline()
            except (OSError, ValueError):
                line = ""
            with self._mutex:
                if line:
                    self._lines.append(line.rstrip("\r\n"))
                else:
                    self._eof = True
                waiter, self._waiter = self._waiter, None
            if waiter is not None:
                loop, future = waiter
                with contextlib.suppress(RuntimeError):  # a closed loop waits for nothing
                    loop.call_soon_threadsafe(_wake, future)
            if not line:
                return

    def drop_pending(self) -> None:
        """Forget the lines typed so far (typed before they were asked for)."""
        with self._mutex:
            self._lines.clear()

    async def readline(self) -> str | None:
        """The next line without its newline, or None at end of input."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._pump, name="duskfall-input", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        while True:
            with self._mutex:
                if self._lines:
                    return self._lines.popleft()
                if self._eof:
                    return None
                future: asyncio.Future[None] = loop.create_future()
                self._waiter = (loop, future)
            try:
                await future
            finally:
                with self._mutex:
                    if self._waiter is not None and self._waiter[1] is future:
                        self._waiter = None


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_READERS: dict[TextIO, LineReader] = {}


def reader_for(stream: TextIO | None) -> LineReader:
    """One reader per stream, shared by every human seat reading it (hot-seat play);
    ConfigError if there is no stream to read (standard input closed: ``0<&-``)."""
    if stream is None or getattr(stream, "closed", False):
        raise ConfigError(
            "a person's seat needs standard input, and it is closed; run the command in a "
            "terminal, or give the seat to an agent"
        )
    reader = _READERS.get(stream)
    if reader is None:
        reader = _READERS[stream] = LineReader(stream)
    return reader
