"""The game index as an outside anchor of a log: the one change a hash chain cannot show.

A log's hash chain reveals any changed, removed or moved line except lines cut off its end:
what is left is still a valid chain. A log of a game that ended carries its own end record
(:mod:`duskfall.store.log`), so a cut that took only its last lines is seen without the index;
a cut before ``game_over`` reads like a game whose process died. The index counted the game's
events at every phase end and at the end, always after the log writer had written them, so a
log that holds fewer events than its own index row says has lost lines.

:func:`unfinished_note` says what a log without an end can and cannot tell.
"""

from __future__ import annotations

from pathlib import Path

from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.store.index import GameIndex, default_db_path
from duskfall.store.log import GameLog


def check_not_cut(path: Path, log: GameLog, db: str | Path | None = None) -> bool:
    """Raise LogCorrupt if the index recorded more events for the log at ``path`` than it holds;
    return whether an index row vouched for the log (its row names this file).

    Only the row whose log is this very file counts (a copy elsewhere is not the game's log of
    record); without an index, or a row, there is nothing to compare and nothing is said.
    """
    db_path = default_db_path() if db is None else Path(db)
    if db_path is None or not db_path.exists():
        return False
    try:
        with GameIndex(db_path, repair=False) as index:
            row = index.get(log.header.game_id)
    except DuskfallError:
        return False
    if row.log_path is None or Path(row.log_path).resolve() != path.resolve():
        return False
    if row.events > len(log.events):
        raise LogCorrupt(
            f"{path}: the log holds {len(log.events)} events but the game index recorded "
            f"{row.events}: lines were cut from its end",
            len(log.events),
        )
    return True


def unfinished_note(log: GameLog, vouched: bool) -> str | None:
    """What to say of a log's end beyond what was verified, or None if nothing is in doubt:
    a log without ``game_over`` did not finish, or lost its last lines (only its index row
    tells); a finished log from before end records may have lost lines after its last event."""
    if vouched:
        return None
    if not log.finished:
        return (
            "it has no end record: the game did not finish, or lines were cut from the end "
            "of its log (no index row vouches for its length)"
        )
    if log.end is None and not log.has_end_records:
        return (
            f"a format {log.header.format} log has no end record: lines cut after its "
            "last event cannot be seen without its index row"
        )
    return None
