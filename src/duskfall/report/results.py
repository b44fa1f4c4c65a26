"""A tournament's finished games, read back from the index and the logs.

Each :class:`PlayedGame` says which entrant held each seat (the tournament tag of the log
header), the seat's role and side (the deal, recomputed from the logged config and seed), the
winning side, the seat's behaviour metrics (:mod:`duskfall.report.metrics`) and its
self-exposure and leak metrics (:mod:`duskfall.lab.leaks`); a fork is measured from the fork
on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.core.sides import side_of
from duskfall.lab.leaks import LeakMetrics, leak_report
from duskfall.report.metrics import SeatMetrics, seat_metrics
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import new_state_for
from duskfall.store.rows import GameRow


@dataclass(frozen=True)
class PlayedSeat:
    entrant: str
    role: str
    side: str
    metrics: SeatMetrics
    leaks: LeakMetrics = field(default_factory=LeakMetrics)


@dataclass(frozen=True)
class PlayedGame:
    game_id: str
    slot: int
    variant: str
    winner_side: str | None  # "evil", "village" or None (a draw or an aborted game)
    termination: str
    seats: tuple[PlayedSeat, ...]
    log_path: str | None
    pairing: tuple[str, str] | None = None  # sides schedule: (evil entrant, village entrant)

    @property
    def rated(self) -> bool:
        return self.termination != "aborted"

    def entrants(self) -> set[str]:
        return {seat.entrant for seat in self.seats}


class MissingLog(DuskfallError):
    """A finished tournament game whose log cannot be read."""


def _log_of(row: GameRow) -> GameLog:
    if row.log_path is None:
        raise MissingLog(f"game {row.id} has no log")
    try:
        return read_log(row.log_path, strict=False)
    except LogCorrupt as exc:
        raise MissingLog(f"game {row.id}: {exc}") from None


def played_game(row: GameRow) -> PlayedGame:
    """The :class:`PlayedGame` of a finished tournament game's index row."""
    log = _log_of(row)
    tag = log.header.extra.get("tournament") or {}
    entrants = list(tag.get("seats") or [])
    variant, state = new_state_for(log)
    roles = state.roles()
    if len(entrants) != len(roles):
        raise MissingLog(f"game {row.id} has no tournament seats in its log header")
    origin = ForkOrigin.of(log.header)
    since = 0 if origin is None else origin.prefix  # a fork's prefix is its parent's play
    metrics = seat_metrics(log, since)
    leaks = leak_report(log, since=since).seats
    outcome = log.outcome
    winner = side_of(variant, outcome.winner) if outcome and outcome.winner else None
    seats = tuple(
        PlayedSeat(
            entrants[seat],
            roles[seat],
            side_of(variant, state.team_of(seat)),
            metrics[seat],
            leaks.get(seat, LeakMetrics()),
        )
        for seat in sorted(roles)
    )
    pairing = _pairing(seats)
    return PlayedGame(
        row.id,
        int(row.tournament_slot or 0),
        variant.id,
        winner,
        outcome.termination.value if outcome else "aborted",
        seats,
        row.log_path,
        pairing,
    )


def _pairing(seats: tuple[PlayedSeat, ...]) -> tuple[str, str] | None:
    """(evil entrant, village entrant) when each side is held by one entrant."""
    evil = {s.entrant for s in seats if s.side == "evil"}
    village = {s.entrant for s in seats if s.side != "evil"}
    if len(evil) == 1 and len(village) == 1 and evil != village:
        return (next(iter(evil)), next(iter(village)))
    return None


def entrant_leaks(games: Sequence[PlayedGame]) -> dict[str, LeakMetrics]:
    """Each entrant's self-exposure and leak metrics (:mod:`duskfall.lab.leaks`), summed over
    its seats of ``games``."""
    out: dict[str, LeakMetrics] = {}
    for game in games:
        for seat in game.seats:
            out[seat.entrant] = out.get(seat.entrant, LeakMetrics()) + seat.leaks
    return out
