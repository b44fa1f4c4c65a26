"""A game's event stream with its standard observers: log writer, game index, caller's own."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from duskfall.core.errors import DuskfallError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.runtime.record import GameRecord, Observer
from duskfall.store.index import GameIndex
from duskfall.store.indexing import index_observer
from duskfall.store.log import LogHeader, LogWriter
from duskfall.store.signatures import record_signer


class LogWriteError(DuskfallError):
    """The game log cannot be written (a folder, a read-only place, a full disk...)."""


class GuardedLog:
    """A :class:`LogWriter` whose I/O failures are one clear :class:`LogWriteError`.

    The first failure stops the game (the scheduler lets the error out); the log keeps every
    line written before it, and nothing more is written.
    """

    def __init__(self, path: Path, header: LogHeader, *, append: bool) -> None:
        self.path = path
        self._failed: LogWriteError | None = None
        signer = record_signer()
        self._writer: LogWriter = self._guard(
            lambda: (
                LogWriter(path, append=True, signer=signer)
                if append
                else LogWriter(path, header, signer=signer)
            )
        )

    @property
    def head(self) -> str | None:
        """The chain hash of the log's last line (what the index row records)."""
        return self._writer.head

    def checkpoint(self) -> None:
        """Sign what was written so far (a fork's copied prefix)."""
        self._guard(self._writer.checkpoint)

    def _guard(self, call: Any) -> Any:
        if self._failed is not None:
            raise self._failed
        try:
            return call()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._failed = LogWriteError(f"cannot write the game log {self.path}: {reason}")
            raise self._failed from None

    def on_event(self, event: Event) -> None:
        self._guard(lambda: self._writer.on_event(event))

    def on_phase_end(self) -> None:
        self._guard(self._writer.on_phase_end)

    def on_game_end(self, outcome: Outcome | None) -> None:
        self._guard(lambda: self._writer.on_game_end(outcome))

    def sync(self) -> None:
        self._guard(self._writer.sync)

    def close(self) -> None:
        if self._failed is None:
            self._guard(self._writer.close)


def open_record(
    header: LogHeader,
    log_path: Path | None,
    *,
    events: Sequence[Event] | None = None,
    observers: Iterable[Observer] = (),
    index: bool | GameIndex = True,
    keep_events: bool = True,
    inherited: bool = False,
) -> GameRecord:
    """The record of a game, new (``events`` None) or continued (the events already logged).

    A new game's log is created with ``header``; a continued game's log is appended to, and
    its index row catches up on the events so far. ``inherited`` events are a fork's copy of
    its parent's: its new log is created with them after the header, and its index row counts
    them without their model usage (the parent's). Without a ``log_path`` the game is neither
    logged nor indexed (simulations index a summary row themselves). A log that cannot be
    written raises :class:`LogWriteError` (at once, or from the event that cannot be written).
    ``keep_events`` is :class:`GameRecord`'s (False: new events are not kept in ``events``).
    ``index`` False leaves the game out of the index; an open :class:`GameIndex` is the one
    its row is kept in (the record closes it at the game's end).
    """
    attached: list[Observer] = []
    if log_path is not None:
        continued = events is not None and not inherited
        log = GuardedLog(log_path, header, append=continued)
        if inherited:
            for event in events or ():
                log.on_event(event)
            log.checkpoint()
            log.sync()
        attached.append(log)
        opened = index if isinstance(index, GameIndex) else None
        index_row = (
            index_observer(header, log_path, log_head=lambda: log.head, index=opened)
            if index is not False
            else None
        )
        if index_row is not None:
            if events:
                index_row.catch_up(events, inherited=inherited)
            attached.append(index_row)
    attached.extend(observers)
    record = GameRecord(header.game_id, attached, keep_events=keep_events)
    record.events = list(events or ())
    return record
