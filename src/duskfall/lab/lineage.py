"""A fork's family: finding its parent's log and proving the fork's prefix is the parent's.

The parent's log is looked for beside the fork's (``<parent id>.jsonl``: where ``duskfall
fork`` writes forks by default), then through the game index. :func:`verify_fork` replays the
parent's events up to the fork point (so the parent's prefix is itself verified) and checks
the link (:func:`duskfall.store.lineage.check_link`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.lab.fork import read_parent
from duskfall.store.index import GameIndex, default_db_path
from duskfall.store.lineage import ForkOrigin, LinkCheck, check_link
from duskfall.store.log import GameLog
from duskfall.store.replay import Replayer


@dataclass(frozen=True)
class ForkVerdict:
    """A fork's origin and, when its parent's log was found, the checked link."""

    origin: ForkOrigin
    parent_path: Path | None
    link: LinkCheck | None
    parent_actions: int = 0

    def describe(self) -> str:
        origin = self.origin
        where = f"forked from {origin.parent} at its event {origin.event}"
        if origin.replaced is not None:
            where += f", event {origin.replaced} replaced"
        if self.link is None:
            return f"{where}; the parent's log was not found, so the link is unchecked"
        return (
            f"{where}; link verified: the parent's first {origin.event} events replay "
            f"({self.parent_actions} actions) and {self.link.compared} of them are the fork's "
            f"prefix unchanged" + (f", {self.link.replaced} replaced" if self.link.replaced else "")
        )


def find_parent(fork_path: Path, origin: ForkOrigin, given: Path | None = None) -> Path | None:
    """The parent's log: ``given``, else ``<parent id>.jsonl`` beside the fork's, else the
    index's row for the parent; None when none exists."""
    if given is not None:
        return given
    beside = fork_path.parent / f"{origin.parent}.jsonl"
    if beside.is_file():
        return beside
    db = default_db_path()
    if db is None or not db.exists():
        return None
    try:
        with GameIndex(db, repair=False) as index:
            row = index.get(origin.parent)
    except DuskfallError:
        return None
    if row.id != origin.parent or row.log_path is None or not Path(row.log_path).is_file():
        return None
    return Path(row.log_path)


def verify_fork(fork: GameLog, fork_path: Path, parent: Path | None = None) -> ForkVerdict | None:
    """None for a game that is not a fork; else its verdict (raises BrokenLink, LogCorrupt or
    ReplayMismatch when the parent's log is found and does not hold the fork's prefix)."""
    origin = ForkOrigin.of(fork.header)
    if origin is None:
        return None
    found = find_parent(fork_path, origin, parent)
    if found is None:
        return ForkVerdict(origin, None, None)
    parent_log = read_parent(found)
    replayer = Replayer(parent_log.header)
    for event in parent_log.events[: origin.event]:
        replayer.take(event)
    link = check_link(fork, parent_log, found)
    return ForkVerdict(origin, found, link, replayer.actions)
