"""The index repairs itself: rows left ``running`` by a process that died.

A game process can die after its log got ``game_over`` but before its index row was closed,
or right after writing the header of a game that never started. Every opening of the index
(:class:`~duskfall.store.index.GameIndex`) looks at the rows marked ``running`` only, and for
each whose process is known to be gone (same host, pid not alive):

* a log that ends with ``game_over`` closes the row (``finished``/``aborted``, winner,
  termination, days, events, tokens and cost from the log);
* a header-only log, or a missing log, marks the row ``aborted`` (a failed start);
* a game cut mid-way with seats played over the wire (agent ``remote`` or ``remote:NAME``: a
  dead ``duskfall serve``) marks the row ``aborted``: its players' connections died with the
  server and no process can re-create them, so it could never be resumed (a tournament's
  rows are left to the tournament, which plays their slots again);
* anything else stays ``running`` (shown as interrupted: ``duskfall resume`` continues it).

It reads two short pieces of each such log (its first lines, its last line), and the whole
log only for a row it closes, so opening the index stays cheap.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.outcome import Termination
from duskfall.store.files import check_writable_file, open_regular
from duskfall.store.log import END, SEAL, read_log
from duskfall.store.rows import GameRow, Usage

log = logging.getLogger(__name__)

TAIL_BYTES = 8192


class RepairedIndex(Protocol):
    """What the repair needs of an index (:class:`~duskfall.store.index.GameIndex`): its
    rows, and closing or abandoning one."""

    def stale_running(self) -> list[GameRow]: ...

    def record_end(
        self,
        game_id: str,
        usage: Usage,
        winner: str | None,
        termination: str | None,
        chain: str | None = None,
    ) -> None: ...

    def abandon(self, game_id: str, termination: str = "abandoned") -> None: ...


@dataclass(frozen=True, slots=True)
class Repair:
    """One row the repair changed: its game, its new status and why."""

    game_id: str
    status: str
    reason: str

    def __str__(self) -> str:
        return f"{self.game_id}: running -> {self.status} ({self.reason})"


def last_lines(path: Path, count: int = 2) -> list[str]:
    """The last ``count`` non-empty lines of a file, oldest first (read from its end; raises
    OSError)."""
    with open_regular(path, "log", "rb") as handle:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - TAIL_BYTES))
        lines = handle.read().rstrip(b"\n").rsplit(b"\n", count)
    return [line.decode("utf-8", errors="replace") for line in lines[-count:]]


def last_event_outcome(path: Path) -> dict[str, Any] | None:
    """The ``game_over`` payload if the log's last event is that event (followed by the log's
    end record and maybe a seal, or last of all in a log from before end records), else None."""
    try:
        lines = [json.loads(line) for line in last_lines(path, 3)]
    except (OSError, ValueError, DuskfallError):  # DuskfallError: not a regular file
        return None
    while lines and isinstance(lines[-1], dict) and lines[-1].get("type") in (END, SEAL):
        lines.pop()
    last = lines[-1] if lines else None
    if isinstance(last, dict) and last.get("kind") == kinds.GAME_OVER:
        payload = last.get("payload")
        return payload if isinstance(payload, dict) else {}
    return None


def check_new_log(path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Refuse to start a new game log at ``path`` over one that holds a game, finished or
    not (or over any other file), unless ``force``; a FIFO, a device or a folder is refused
    even then (one ConfigError saying what is there and what to do)."""
    path = Path(path)
    check_writable_file(path, "the game log")
    if force or not path.exists() or path.stat().st_size == 0:
        return
    if last_event_outcome(path) is not None:
        held = "a finished game"
    else:
        try:
            read_log(path, strict=False)
            held = f"an unfinished game (continue it with 'duskfall resume {path}')"
        except DuskfallError:
            held = "a file that is no game log"
    raise ConfigError(
        f"{path} already holds {held}; give another --log, or pass --force to overwrite it"
    )


def _header_only(path: Path) -> bool:
    with open_regular(path, "log", "rb") as handle:
        handle.readline()
        return handle.read(1) == b""


REMOTE_AGENT = "remote"  # a seat played over the wire (``remote`` or ``remote:NAME``)


def remote_seats(row: GameRow) -> list[int]:
    """The seats of ``row`` played over the wire: nothing can re-create them on resume."""
    return [
        seat.seat
        for seat in row.seats
        if seat.agent == REMOTE_AGENT or seat.agent.startswith(REMOTE_AGENT + ":")
    ]


def repair_row(index: RepairedIndex, row: GameRow) -> Repair | None:
    """Close one stale ``running`` row from its log, if the log says how it ended."""
    assert row.log_path is not None
    path = Path(row.log_path)
    if not path.is_file():
        index.record_end(row.id, Usage(), None, Termination.ABORTED.value)
        return Repair(row.id, "aborted", "its process is gone and so is its log")
    try:
        if _header_only(path):
            index.record_end(row.id, Usage(), None, Termination.ABORTED.value)
            return Repair(row.id, "aborted", "its process is gone and its log has no events")
        if last_event_outcome(path) is None:
            return _unresumable(index, row)
        game_log = read_log(path, strict=False)
    except (OSError, DuskfallError):
        return None
    outcome = game_log.outcome
    if outcome is None:
        return None
    usage = Usage()
    for event in game_log.events:
        usage.add(event)
    index.record_end(row.id, usage, outcome.winner, outcome.termination.value, game_log.head)
    status = "aborted" if outcome.termination is Termination.ABORTED else "finished"
    result = outcome.winner or "draw" if status == "finished" else outcome.reason
    return Repair(row.id, status, f"its process is gone and its log ends with game_over: {result}")


def _unresumable(index: RepairedIndex, row: GameRow) -> Repair | None:
    """Abort a game cut mid-way whose remote seats died with its process (else None)."""
    remote = remote_seats(row)
    if not remote or row.tournament is not None:
        return None
    index.abandon(row.id, Termination.ABORTED.value)
    seats = ", ".join(map(str, remote))
    return Repair(
        row.id,
        "aborted",
        f"its server process is gone and its remote seat(s) {seats} cannot be re-created, "
        "so it cannot be resumed",
    )


def repair_index(index: RepairedIndex) -> list[Repair]:
    """Repair every stale ``running`` row of ``index``; returns what changed."""
    repairs = []
    for row in index.stale_running():  # running, with a log, its process gone
        repaired = repair_row(index, row)
        if repaired is not None:
            log.info("game index repaired: %s", repaired)
            repairs.append(repaired)
    return repairs
