"""The game index as an outside anchor of a log: the one change a hash chain cannot show.

A log's hash chain reveals any changed, removed or moved line except lines cut off its end:
what is left is still a valid chain. A log of a game that ended carries its own end record
(:mod:`duskfall.store.log`), so a cut that took only its last lines is seen without the index;
a cut before ``game_over`` reads like a game whose process died. The index counted the game's
events at every phase end and at the end, always after the log writer had written them, so a
log that holds fewer events than its own index row says has lost lines.

:func:`unfinished_note` says what a log without an end can and cannot tell.

A signed row (:mod:`duskfall.store.signatures`) also names the chain hash of its log's last
line when it was written: a log whose chain no longer passes there was rewritten, even if its
own signatures were stripped; a row whose signature fails was edited.
"""

from __future__ import annotations

from pathlib import Path

from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.store.index import GameIndex, row_message, sealed_values
from duskfall.store.lineage import chain_head
from duskfall.store.log import GameLog
from duskfall.store.paths import default_db_path
from duskfall.store.rows import GameRow
from duskfall.store.signatures import LogForged, Signer, checking_signer


def check_not_cut(
    path: Path,
    log: GameLog,
    db: str | Path | None = None,
    signer: Signer | None = None,
    index: GameIndex | None = None,
) -> bool:
    """Raise LogCorrupt if the index recorded more events for the log at ``path`` than it holds
    (:class:`LogForged` if its signed row does not match itself or the log: see the module
    docstring); return whether an index row vouched for the log (its row names this file).

    Only the row whose log is this very file counts (a copy elsewhere is not the game's log of
    record); without an index, or a row, there is nothing to compare and nothing is said.
    ``signer`` checks the row's signature (default: the key beside the index, if any);
    ``index`` is the index already open (default: ``db``'s is opened, and closed after).
    """
    db_path = index.path if index is not None else default_db_path() if db is None else Path(db)
    if db_path is None or not db_path.exists():
        return False
    try:
        if index is not None:
            row = index.get(log.header.game_id)
        else:
            with GameIndex(db_path, repair=False) as opened:
                row = opened.get(log.header.game_id)
    except DuskfallError:
        return False
    if row.log_path is None or Path(row.log_path).resolve() != path.resolve():
        return False
    check_row(path, log, row, signer if signer is not None else checking_signer(db=db_path))
    if row.events > len(log.events):
        raise LogCorrupt(
            f"{path}: the log holds {len(log.events)} events but the game index recorded "
            f"{row.events}: lines were cut from its end",
            len(log.events),
        )
    return True


def check_row(path: Path, log: GameLog, row: GameRow, signer: Signer | None) -> None:
    """Raise :class:`LogForged` if ``row`` is signed by ``signer``'s key but its signature
    fails, or names a chain hash the log at ``path`` does not pass through (nothing without
    that key, or for an unsigned row)."""
    if row.seal is None or signer is None:
        return
    key_id, _, mac = row.seal.partition(":")
    if key_id != signer.key_id:
        return  # another key's row: nothing to check it with
    if not signer.check(row_message(sealed_values(row)), mac):
        raise LogForged(
            f"{path}: forged or altered: the index row of game {row.id} does not match its "
            "signature (it was edited)",
            len(log.events),
        )
    if row.chain is None or row.chain in (log.head, *(seal.h for seal in log.seals)):
        return
    if row.events > len(log.events):
        return  # lines were cut: the caller says so
    try:
        passes = chain_head(path, row.events) == row.chain
    except LogCorrupt:
        passes = False
    if not passes:
        raise LogForged(
            f"{path}: forged or altered: the log is not the one its signed index row "
            f"recorded after {row.events} events (its hash chain was rewritten)",
            len(log.events),
        )


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
