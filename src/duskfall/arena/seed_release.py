"""When a tournament game's seed may be shown: once every game of its deal has ended.

The games of a deal share one seed (the deal), so game 1's seed, shown once game 1 ends, would
give away game 2's hidden roles while game 2 is still being played (to a remote entrant with a
browser, for instance). Every place that shows a seat or a spectator a game's seed (the web
pages and their JSON) asks :func:`deal_done` first for a tournament game. Unknown tournaments
(no stored config) keep their seeds hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from duskfall.core.errors import DuskfallError
from duskfall.store.index import GameIndex, default_db_path

ENDED = ("finished", "aborted")
_deals: dict[str, dict[int, tuple[int, ...]]] = {}  # config fingerprint -> slot -> its deal


def _deal_slots(index: GameIndex, tournament: str) -> dict[int, tuple[int, ...]] | None:
    from duskfall.arena.schedule import build_schedule
    from duskfall.arena.tournament import config_fingerprint, stored_config

    try:
        config = stored_config(index, tournament)
    except DuskfallError:
        return None
    key = config_fingerprint(config)
    if key not in _deals:
        by_deal: dict[int, list[int]] = {}
        for slot in build_schedule(config):
            by_deal.setdefault(slot.deal, []).append(slot.index)
        _deals[key] = {s: tuple(group) for group in by_deal.values() for s in group}
    return _deals[key]


def deal_done(tournament: str, slot: int, db: Path | None = None) -> bool:
    """Whether every game of the deal of ``tournament``'s ``slot`` has ended (in the index at
    ``db``, by default the process's)."""
    path = db or default_db_path()
    if path is None or not Path(path).exists():
        return False
    with GameIndex(path) as index:
        deals = _deal_slots(index, tournament)
        if deals is None or slot not in deals:
            return False
        ended = {
            row.tournament_slot
            for row in index.tournament_games(tournament)
            if row.status in ENDED and row.termination != "abandoned"
        }
    return all(s in ended for s in deals[slot])


def tournament_seed_shown(tag: Mapping[str, Any] | None) -> bool:
    """For a game's tournament tag (``{"name", "slot"}``) or None: may its seed be shown once
    the game itself has ended?"""
    if not tag:
        return True
    name, slot = tag.get("name"), tag.get("slot")
    if not isinstance(name, str) or not isinstance(slot, int):
        return False
    return deal_done(name, slot)
