"""Games read from their JSONL log: finished games to replay, and games that another process
(``duskfall play``, the server) is writing, followed by tailing the file.

Only whole lines are read; a line still being written is picked up on the next poll.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from duskfall.core.errors import LogCorrupt
from duskfall.core.events import Event
from duskfall.store.log import LogHeader
from duskfall.web.feed import GameFeed
from duskfall.web.tasks import cancel_and_wait
from duskfall.web.timeline import Timeline

POLL_SECONDS = 0.5


def read_header(path: Path) -> LogHeader:
    """The header line of a log; raises :class:`LogCorrupt` if there is none."""
    try:
        with path.open("r", encoding="utf-8") as handle:
            first = handle.readline()
    except OSError as exc:
        raise LogCorrupt(f"{path}: {exc.strerror}", 0) from None
    if not first.endswith("\n"):
        raise LogCorrupt(f"{path}: empty log (no header)", 0)
    try:
        return LogHeader.from_dict(json.loads(first))
    except (json.JSONDecodeError, KeyError, TypeError):
        raise LogCorrupt(f"{path}: the first line is not a duskfall log header", 0) from None


class LogFollower:
    """A game's log, read so far; :meth:`poll` reads what was appended since."""

    def __init__(self, path: Path) -> None:
        self.path = path
        header = read_header(path)
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
            with self.path.open("rb") as handle:
                handle.seek(self._offset)
                chunk = handle.read()
        except OSError as exc:
            self._stop(f"{self.path}: {exc.strerror}")
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
        timeline = self.feed.timeline
        try:
            event = Event.from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError):
            self._stop(f"{self.path}: corrupt line after {len(timeline.frames)} events")
            return False
        if event.seq != len(timeline.frames):
            self._stop(f"{self.path}: event seq {event.seq}, expected {len(timeline.frames)}")
            return False
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
