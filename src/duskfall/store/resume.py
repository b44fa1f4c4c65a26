"""The store's part of resuming a game: find its log, check it may be continued, repair it.

A torn or corrupt *last* line is cut off on resume (everything before it is kept byte for
byte); damage in the middle of a log is refused, since cutting there would lose events. A game
that is already over, or still running in a live process, is refused. Re-creating the seats
and continuing the game is :mod:`duskfall.session.resume`'s job.
"""

from __future__ import annotations

import os
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.store.anchor import check_not_cut
from duskfall.store.index import GameIndex, UnknownGame
from duskfall.store.log import GameLog, read_log
from duskfall.store.paths import default_db_path
from duskfall.store.signatures import NO_KEY_HINT, Trust, check_log, record_signer


class CannotResume(DuskfallError):
    """This game cannot be continued (already over, still running, unknown agents...)."""


def log_path_for(target: str, db: str | Path | None = None, index: GameIndex | None = None) -> Path:
    """A log path given either a path or a game id looked up in the index (``index``: the
    one already open, else ``db``'s is opened)."""
    path = Path(target)
    if path.suffix == ".jsonl" or path.exists():
        return path
    if index is not None:
        return _logged_path(target, index)
    index_path = db if db is not None else default_db_path()
    if index_path is None:
        raise CannotResume(f"{target}: no such log file (and the game index is off)")
    with GameIndex(index_path) as opened:
        return _logged_path(target, opened)


def _logged_path(target: str, index: GameIndex) -> Path:
    """The log of the game ``target`` names in ``index``."""
    try:
        row = index.get(target)
    except UnknownGame as exc:
        raise CannotResume(f"{target}: no such log file, and {exc}") from None
    if row.log_path is None:
        raise CannotResume(f"game {row.id} was simulated without a log; it cannot be resumed")
    return Path(row.log_path)


def _load(path: Path) -> GameLog:
    log = read_log(path, strict=False)
    if log.finished:
        outcome = log.outcome
        result = f" ({outcome.winner or 'draw'}, {outcome.termination.value})" if outcome else ""
        raise CannotResume(f"game {log.header.game_id} is already over{result}; nothing to resume")
    return log


def _check_damage_is_at_the_end(path: Path, log: GameLog) -> None:
    """Only a damaged *last* line is cut on resume; whole events after a bad line are kept."""
    if log.corrupt is None:
        return
    after_bad_line = path.read_bytes().split(b"\n")[log.lines + 1 :]
    if any(line.strip() for line in after_bad_line):
        raise CannotResume(
            f"{log.corrupt}, and more lines follow it; repair the log by hand "
            "(resume only cuts a damaged last line)"
        )


def _check_not_running(game_id: str, force: bool) -> None:
    db = default_db_path()
    if force or db is None or not db.exists():
        return
    with GameIndex(db) as index:
        try:
            row = index.get(game_id)
        except DuskfallError:
            return
    if row.pid != os.getpid() and row.process_alive:
        raise CannotResume(
            f"game {game_id} is still running in process {row.pid}; "
            "stop it first (or pass --force if that process is not a duskfall game)"
        )


def open_for_resume(path: Path, *, force: bool = False) -> GameLog:
    """Read the log at ``path`` leniently and check the game may be continued.

    Raises :class:`CannotResume` (over, running elsewhere, damaged before its last line) or
    ``LogCorrupt`` (not a log). The caller cuts a damaged last line once it is sure to go on
    (``truncate_to_whole_events``).
    """
    log = _load(path)
    _check_damage_is_at_the_end(path, log)
    check_not_cut(path, log)
    _check_signature(log)
    _check_not_running(log.header.game_id, force)
    return log


def _check_signature(log: GameLog) -> None:
    """A resumed log goes on signed with this operator's key: refuse one whose signature
    fails (LogForged), or that a key this process does not hold signed (its signatures would
    mix, or its end go unsigned)."""
    verdict = check_log(log, record_signer())
    if verdict.trust in (Trust.OTHER_KEY, Trust.NO_KEY):
        raise CannotResume(
            f"game {log.header.game_id} is signed by operator key {', '.join(verdict.key_ids)}, "
            f"which this process does not hold; resume it with that key ({NO_KEY_HINT})"
        )
