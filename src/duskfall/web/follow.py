"""Games read from their JSONL log: finished games to replay, and games that another process
(``duskfall play``, the server) is writing, followed by tailing the file.

Only whole lines are read; a line still being written is picked up on the next poll.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from duskfall.core.errors import LogCorrupt
from duskfall.store.files import NotARegularFile, open_regular
from duskfall.store.log import MAX_LINE_CHARS, LineReader, LogHeader
from duskfall.web.feed import GameFeed
from duskfall.web.tasks import cancel_and_wait
from duskfall.web.timeline import Timeline

POLL_SECONDS = 0.5


def header_reader(path: Path) -> LineReader:
    """A reader of the log at ``path`` that has read its header; raises :class:`LogCorrupt`."""
    try:
        with open_regular(path, "log") as handle:
            first = handle.readline(MAX_LINE_CHARS)
    except (OSError, UnicodeDecodeError, NotARegularFile) as exc:
        raise LogCorrupt(f"{path}: {getattr(exc, 'strerror', None) or exc}", 0) from None
    if not first.endswith("\n"):
        raise LogCorrupt(f"{path}: empty log (no header)", 0)
    reader = LineReader(str(path))
    reader.take(first[:-1])
    return reader


def read_header(path: Path) -> LogHeader:
    """The header line of a log; raises :class:`LogCorrupt` if there is none."""
    header = header_reader(path).header
    assert header is not None
    return header


class LogFollower:
    """A game's log, read so far; :meth:`poll` reads what was appended since."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reader = header_reader(path)
        header = self._reader.header
        assert header is not None
        self.feed = GameFeed(Timeline(header))
        self.feed.status = "running"
        self._offset = 0
        self._rest = b""
        self._header_seen = False
        self.problem: str | None = None
        self._task: asyncio.Task[None] | None = None
        self.poll()

    @property
    def game_id(self) -> str:
        return self.feed.timeline.game_id

    @property
    def done(self) -> bool:
        return self.feed.timeline.finished or self.problem is not None

    def poll(self) -> int:
        """Read the lines appended since the last poll; return how many events were new."""
        if self.done:
            return 0
        try:
            with open_regular(self.path, "log", "rb") as handle:
                handle.seek(self._offset)
                chunk = handle.read()
        except (OSError, NotARegularFile) as exc:
            self._stop(f"{self.path}: {getattr(exc, 'strerror', None) or exc}")
            return 0
        self._offset += len(chunk)
        *lines, self._rest = (self._rest + chunk).split(b"\n")
        added = 0
        for line in lines:
            if not self._header_seen:
                self._header_seen = True
                continue
            if not self._take(line):
                break
            added += 1
        return added

    def _take(self, line: bytes) -> bool:
        try:
            event = self._reader.take(line.decode("utf-8"))
        except (LogCorrupt, UnicodeDecodeError) as exc:
            self._stop(str(exc))
            return False
        if event is not None:  # None: the log's end record, after its game_over
            self.feed.push(event)
        return True

    def _stop(self, problem: str) -> None:
        self.problem = problem
        self.feed.timeline.problem = problem
        self.feed.set_status("stopped")

    def ensure_following(self) -> None:
        """Keep polling while someone watches and the game is not over."""
        if self.done or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.create_task(self._follow(), name=f"follow {self.path.name}")

    async def _follow(self) -> None:
        while not self.done and self.feed.subscribers:
            await asyncio.sleep(POLL_SECONDS)
            self.poll()

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
