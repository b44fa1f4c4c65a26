"""When a tournament game's seed may be shown: once every game of its deal has ended.

The games of a deal share one seed (the deal), so game 1's seed, shown once game 1 ends, would
give away game 2's hidden roles while game 2 is still being played (to a remote entrant with a
browser, for instance). The tournament's driver knows when a deal's last game is recorded: it
marks the deal's slots released then, once (:class:`DealReleases`, the index's
``deal_releases`` table, :mod:`duskfall.store.deals`), and again at every start for deals that
ended before (a driver that died between the two writes, an index of an older duskfall). Every
place that shows a seat or a spectator a game's seed (the web pages and their JSON, ``export``)
reads that table: a lookup, never a schedule rebuilt per row. A slot that is not marked keeps
its seed hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from duskfall.arena.schedule import Slot
from duskfall.store.deals import DealTable
from duskfall.store.paths import default_db_path


class DealReleases:
    """The driver's record of ended slots: marks a deal released when its last slot ends."""

    def __init__(self, tournament: str, schedule: Sequence[Slot], db: Path) -> None:
        self.tournament = tournament
        self.db = db
        self._deals: dict[int, tuple[int, ...]] = {}
        for slot in schedule:
            self._deals.setdefault(slot.deal, ())
            self._deals[slot.deal] += (slot.index,)
        self._deal_of = {slot.index: slot.deal for slot in schedule}
        self._ended: set[int] = set()
        with DealTable(db) as table:
            marked = table.released(tournament)
        self._released = {self._deal_of[s] for s in marked if s in self._deal_of}

    def ended(self, slots: Iterable[int]) -> list[int]:
        """Slots whose games ended (were recorded): the deals this completes are released.
        Returns the newly released deals."""
        new = set(slots) - self._ended
        self._ended |= new
        done = [
            deal
            for deal in {self._deal_of[s] for s in new if s in self._deal_of}
            if deal not in self._released and all(s in self._ended for s in self._deals[deal])
        ]
        if done:
            with DealTable(self.db) as table:
                table.release(
                    self.tournament, [(slot, deal) for deal in done for slot in self._deals[deal]]
                )
            self._released.update(done)
        return sorted(done)


def deal_released(tournament: str, slot: int, db: Path | None = None) -> bool:
    """Whether the deal of ``tournament``'s ``slot`` is over (marked in the index at ``db``, by
    default the process's)."""
    path = db or default_db_path()
    if path is None or not Path(path).exists():
        return False
    with DealTable(path) as table:
        return bool(table.released_among([(tournament, slot)]))


def tournament_seed_shown(tag: Mapping[str, Any] | None, db: Path | None = None) -> bool:
    """For a game's tournament tag (``{"name", "slot"}``) or None: may its seed be shown once
    the game itself has ended?"""
    if not tag:
        return True
    name, slot = tag.get("name"), tag.get("slot")
    if not isinstance(name, str) or not isinstance(slot, int):
        return False
    return deal_released(name, slot, db)
