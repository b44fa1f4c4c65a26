"""A fork's family: finding its parent's log and proving the fork's prefix is the parent's.

The parent's log is looked for beside the fork's (``<parent id>.jsonl``: where ``duskfall
fork`` writes forks by default), then through the game index. :func:`verify_fork` replays the
parent's events up to the fork point (so the parent's prefix is itself verified) and checks
the link (:func:`duskfall.store.lineage.check_link`). :func:`prefix_credit` says which of a
fork's events it copied and which ancestor's seat made each copied decision (the export's
lineage columns).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.core.events import Event
from duskfall.lab.fork import read_parent
from duskfall.lab.rebuild import INTERVENTION
from duskfall.store.index import GameIndex
from duskfall.store.lineage import ForkOrigin, LinkCheck, check_link
from duskfall.store.log import GameLog, read_log
from duskfall.store.paths import default_db_path
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
        where = f"forked from {origin.parent} at its event {origin.event}{origin.changes()}"
        if self.link is None:
            return f"{where}; the parent's log was not found, so the link is unchecked"
        return (
            f"{where}; link verified: the parent's first {origin.event} events replay "
            f"({self.parent_actions} actions) and {self.link.compared} of them are the fork's "
            "prefix unchanged"
            + (f", {self.link.replaced} replaced" if self.link.replaced else "")
            + (f", {len(origin.planted)} planted" if origin.planted else "")
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


@dataclass(frozen=True)
class PrefixCredit:
    """Who made the decisions a fork copied from its ancestors' logs.

    ``ancestors`` holds, nearest first, each ancestor's game id, how many events of the
    fork's log its part of the prefix covers, and its roster (seat -> agent); None where an
    ancestor's log was not found. An event before an ancestor's prefix length came from that
    ancestor (or from one further up, if it lies in that one's prefix too): the events before
    a replaced action keep their numbers along a family.
    """

    origin: ForkOrigin | None
    ancestors: tuple[tuple[str, int, dict[int, str] | None], ...] = ()

    def inherited(self, seq: int, action: Event | None = None) -> bool:
        """Whether event ``seq`` of the fork was copied from its parent's log (an
        intervention's action is the fork's own)."""
        if self.origin is None or seq >= self.origin.prefix:
            return False
        return action is None or action.payload.get("by") != INTERVENTION

    def agent(self, seq: int, seat: int, own: str) -> str:
        """The agent that made the fork's decision ``seq`` of ``seat`` (``own``: the fork's
        seat agent, for a decision it made itself)."""
        agent = own
        for _, upto, roster in self.ancestors:
            if seq >= upto:
                break
            agent = "unknown" if roster is None else roster.get(seat, "unknown")
        return agent


def prefix_credit(log: GameLog, path: Path | None) -> PrefixCredit:
    """The :class:`PrefixCredit` of the game ``log`` (its log at ``path``): its ancestors are
    looked for as :func:`find_parent` does, each at most once."""
    origin = ForkOrigin.of(log.header)
    ancestors: list[tuple[str, int, dict[int, str] | None]] = []
    current, where, seen = origin, path, {log.header.game_id}
    while current is not None and current.parent not in seen:
        seen.add(current.parent)
        found = None if where is None else find_parent(where, current)
        if found is None:  # copied rows, but nobody to credit them to: "unknown"
            ancestors.append((current.parent, current.prefix, None))
            break
        try:
            parent = read_log(found)
        except DuskfallError:
            ancestors.append((current.parent, current.prefix, None))
            break
        roster = {int(e["seat"]): str(e.get("agent", "unknown")) for e in parent.header.roster}
        upto = current.prefix if not ancestors else min(current.prefix, ancestors[-1][1])
        ancestors.append((current.parent, upto, roster))
        current, where = ForkOrigin.of(parent.header), found
    return PrefixCredit(origin, tuple(ancestors))
