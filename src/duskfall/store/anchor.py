"""The game index as an outside anchor of a log: the one change a hash chain cannot show.

A log's hash chain reveals any changed, removed or moved line except lines cut off its end:
what is left is still a valid chain, and reads like a game whose process died. The index
counted the game's events at every phase end and at the end, always after the log writer had
written them, so a log that holds fewer events than its own index row says has lost lines.
"""

from __future__ import annotations

from pathlib import Path

from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.store.index import GameIndex, default_db_path
from duskfall.store.log import GameLog


def check_not_cut(path: Path, log: GameLog, db: str | Path | None = None) -> None:
    """Raise LogCorrupt if the index recorded more events for the log at ``path`` than it holds.

    Only the row whose log is this very file counts (a copy elsewhere is not the game's log of
    record); without an index, or a row, there is nothing to compare and nothing is said.
    """
    db_path = default_db_path() if db is None else Path(db)
    if db_path is None or not db_path.exists():
        return
    try:
        with GameIndex(db_path, repair=False) as index:
            row = index.get(log.header.game_id)
    except DuskfallError:
        return
    if row.log_path is None or Path(row.log_path).resolve() != path.resolve():
        return
    if row.events > len(log.events):
        raise LogCorrupt(
            f"{path}: the log holds {len(log.events)} events but the game index recorded "
            f"{row.events}: lines were cut from its end",
            len(log.events),
        )
