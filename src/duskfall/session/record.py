"""A game's event stream with its standard observers: log writer, game index, caller's own."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from duskfall.core.events import Event
from duskfall.runtime.record import GameRecord, Observer
from duskfall.store.indexing import index_observer
from duskfall.store.log import LogHeader, LogWriter


def open_record(
    header: LogHeader,
    log_path: Path | None,
    *,
    events: Sequence[Event] | None = None,
    observers: Iterable[Observer] = (),
    index: bool = True,
) -> GameRecord:
    """The record of a game, new (``events`` None) or continued (the events already logged).

    A new game's log is created with ``header``; a continued game's log is appended to, and
    its index row catches up on the events so far. Without a ``log_path`` the game is neither
    logged nor indexed (simulations index a summary row themselves).
    """
    attached: list[Observer] = []
    if log_path is not None:
        continued = events is not None
        attached.append(
            LogWriter(log_path, append=True) if continued else LogWriter(log_path, header)
        )
        index_row = index_observer(header, log_path) if index else None
        if index_row is not None:
            if events:
                index_row.catch_up(events)
            attached.append(index_row)
    attached.extend(observers)
    record = GameRecord(header.game_id, attached)
    record.events = list(events or ())
    return record
