"""One game = one append-only JSONL file: a header line, then one event per line.

The header holds what is needed to replay the game: variant, config, seed, roster and
versions. Events are flushed as they are written (a killed process loses nothing it wrote)
and fsynced at every phase end (in a worker thread when an event loop is running), so power
loss costs at most about one phase. A truncated or corrupt line is
reported as :class:`LogCorrupt` with the number of whole events before it; everything up to
the last whole event stays readable (``read_log(path, strict=False)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import duskfall
from duskfall.core import event_kinds as kinds
from duskfall.core.errors import LogCorrupt
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome

FORMAT_VERSION = 1


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class LogHeader:
    """The first line of a game log."""

    game_id: str
    variant: str
    config: dict[str, Any]
    seed: int
    roster: list[dict[str, Any]]
    started_at: str = field(default_factory=utc_now)
    versions: dict[str, str] = field(
        default_factory=lambda: {
            "duskfall": duskfall.__version__,
            "python": platform.python_version(),
        }
    )
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "header",
            "format": FORMAT_VERSION,
            "game_id": self.game_id,
            "variant": self.variant,
            "config": self.config,
            "seed": self.seed,
            "roster": self.roster,
            "started_at": self.started_at,
            "versions": self.versions,
            "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LogHeader:
        if data.get("type") != "header":
            raise LogCorrupt("the first line is not a duskfall log header", 0)
        return cls(
            game_id=data["game_id"],
            variant=data["variant"],
            config=data.get("config", {}),
            seed=data["seed"],
            roster=data.get("roster", []),
            started_at=data.get("started_at", ""),
            versions=data.get("versions", {}),
            extra=data.get("extra", {}),
        )


class LogWriter:
    """Appends a game's events to its JSONL file; an :class:`~duskfall.runtime.record.Observer`."""

    def __init__(self, path: str | Path, header: LogHeader | None = None, *, append: bool = False):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("a" if append else "w", encoding="utf-8")
        if header is not None and not append:
            self._write(header.to_dict())
            self.sync()

    def _write(self, data: dict[str, Any]) -> None:
        assert self._file is not None, "log already closed"
        self._file.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()

    def on_event(self, event: Event) -> None:
        self._write(event.to_dict())

    def on_phase_end(self) -> None:
        """Flush, and fsync off the event loop when one is running (a server must not stall)."""
        if self._file is None:
            return
        self._file.flush()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            os.fsync(self._file.fileno())
            return
        loop.run_in_executor(None, _fsync_quietly, self._file.fileno())

    def on_game_end(self, outcome: Outcome | None) -> None:
        self.close()

    def sync(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None


def _fsync_quietly(fd: int) -> None:
    with contextlib.suppress(OSError):  # closed meanwhile: close() has synced it already
        os.fsync(fd)


@dataclass
class GameLog:
    """A parsed log: header, events, and whether it ended cleanly."""

    header: LogHeader
    events: list[Event]
    corrupt: LogCorrupt | None = None

    @property
    def finished(self) -> bool:
        return any(e.kind == kinds.GAME_OVER for e in self.events)

    @property
    def outcome(self) -> Outcome | None:
        for event in reversed(self.events):
            if event.kind == kinds.GAME_OVER:
                return Outcome.from_dict(event.payload)
        return None


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open("r", encoding="utf-8", errors="strict", newline="") as handle:
        yield from enumerate(handle, start=1)


def read_log(path: str | Path, *, strict: bool = True) -> GameLog:
    """Read a log. With ``strict`` a corrupt or truncated line raises :class:`LogCorrupt`;
    otherwise the log is cut at the last whole event and ``corrupt`` says what was wrong."""
    path = Path(path)
    if not path.exists():
        raise LogCorrupt(f"{path}: no such log file", 0)
    header: LogHeader | None = None
    events: list[Event] = []
    problem: LogCorrupt | None = None
    try:
        for number, line in _lines(path):
            where = f"{path}:{number}"
            if not line.endswith("\n"):
                problem = LogCorrupt(
                    f"{where}: the log ends mid-line (truncated after {len(events)} events)",
                    len(events),
                )
                break
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                problem = LogCorrupt(f"{where}: corrupt line ({exc.msg})", len(events))
                break
            if header is None:
                header = LogHeader.from_dict(data)
                continue
            if not isinstance(data, dict) or "kind" not in data:
                problem = LogCorrupt(f"{where}: not an event", len(events))
                break
            event = Event.from_dict(data)
            if event.seq != len(events):
                problem = LogCorrupt(
                    f"{where}: event seq {event.seq} where {len(events)} was expected", len(events)
                )
                break
            events.append(event)
    except UnicodeDecodeError:
        problem = LogCorrupt(f"{path}: the log is not valid UTF-8", len(events))
    if header is None:
        raise problem or LogCorrupt(f"{path}: empty log (no header)", 0)
    if problem is not None and strict:
        raise problem
    return GameLog(header, events, problem)


def truncate_to_whole_events(path: str | Path, log: GameLog) -> None:
    """Cut a damaged log file back to its header and its whole events (for resuming)."""
    path = Path(path)
    keep = 1 + len(log.events)
    with path.open("rb") as handle:
        lines = handle.readlines()[:keep]
    with path.open("wb") as handle:
        handle.writelines(lines)
        handle.flush()
        os.fsync(handle.fileno())
