"""Paired ablations, measured: a ``[[forks]]`` block forks logged games at one moment and plays
each fork once per entrant (its deals: :func:`duskfall.arena.schedule.fork_deals`; its source
games: :func:`duskfall.arena.tournament_file.find_sources`).

The block (:class:`~duskfall.arena.tournament_config.ForksBlock`) takes a set of finished
logged games (``source``: a glob of log files relative to the config, or ``tournament:NAME``
for the finished games of a tournament in the index), forks each at ``at`` (``day:2``,
``VOTE:1``... as ``duskfall fork --at`` names moments) and plays the fork once per entrant
(``repeats`` times), the entrant in the chosen ``seats`` (a team, a role, or seat numbers) and
everyone else as ``rest`` says (default: the source game's own agents). Each source game is a
*deal* of the schedule: its forks share the seats' seed, so the seats around the entrant play
the same streams and the games of a deal differ by the entrant alone. With ``seeds =
"per-entrant"`` each entrant's forks draw a seed of their own: two entrants of the same agents
then measure the seed's part alone (a null: an interval about 0 that is not a point).

The fork games go to the tournament's board like any game (the seats around the entrant count
for no one), so the board's fit and its intervals, which resample whole deals, resample whole
source games. Each fork is also measured from the fork on, over the entrant's seats (vote
accuracy, survival, its side winning), and every pair of entrants gets the difference of each
measure, paired by source game, with the board's deal-bootstrap interval.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from duskfall.arena.schedule import REST, Slot
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.rng import derive_rng
from duskfall.rating.intervals import DealResampler, symmetric_interval
from duskfall.report.metrics import SeatMetrics
from duskfall.report.results import PlayedGame

RESAMPLES = 2000


@dataclass(frozen=True)
class ForkResult:
    """One played fork, measured from the fork on over the entrant's seats."""

    block: int
    entrant: str
    deal: int
    metrics: SeatMetrics
    won: bool | None  # whether the entrant's side won (None: its seats are on both sides)


Measure = Callable[[ForkResult], tuple[float, float]]
"""(numerator, denominator) of a measure in one fork: summed over repeats, then divided."""

MEASURES: dict[str, Measure] = {
    "vote accuracy": lambda r: (r.metrics.accurate_votes, r.metrics.exile_votes),
    "survival": lambda r: (r.metrics.survived, r.metrics.seats),
    "win": lambda r: (float(bool(r.won)), 1.0 if r.won is not None else 0.0),
}


@dataclass(frozen=True)
class PairedDifference:
    """``first - second`` of one measure in one block, paired by source game, with its 95%
    interval (resampling whole source games)."""

    block: str
    measure: str
    first: str
    second: str
    point: float
    low: float
    high: float
    sources: int

    @property
    def separated(self) -> bool:
        return not math.isnan(self.low) and (self.low > 0 or self.high < 0)

    @property
    def verdict(self) -> str:
        return "separated" if self.separated else "not yet"

    def describe(self) -> str:
        return (
            f"{self.measure}: {self.first} - {self.second} = {self.point:+.3f} "
            f"[{self.low:+.3f}, {self.high:+.3f}] over {self.sources} source games: "
            f"{self.verdict}"
        )

    def to_dict(self) -> dict[str, Any]:
        def number(value: float) -> float | None:
            return None if math.isnan(value) else round(value, 5)

        return {
            "block": self.block,
            "measure": self.measure,
            "first": self.first,
            "second": self.second,
            "difference": number(self.point),
            "low": number(self.low),
            "high": number(self.high),
            "sources": self.sources,
            "verdict": self.verdict,
        }


def per_source(results: Sequence[ForkResult], measure: Measure) -> dict[str, dict[int, float]]:
    """Entrant -> source game (deal) -> the measure over its forks of that game."""
    sums: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for result in results:
        part, whole = measure(result)
        entry = sums[result.entrant, result.deal]
        entry[0] += part
        entry[1] += whole
    out: dict[str, dict[int, float]] = defaultdict(dict)
    for (entrant, deal), (part, whole) in sums.items():
        if whole:
            out[entrant][deal] = part / whole
    return out


def paired_differences(
    results: Sequence[ForkResult],
    entrants: Sequence[str],
    label: str,
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> list[PairedDifference]:
    """Every pair's difference of every measure over the forks of one block."""
    out = []
    for name, measure in MEASURES.items():
        values = per_source(results, measure)
        for first, second in itertools.combinations(entrants, 2):
            mine, theirs = values.get(first, {}), values.get(second, {})
            deals = sorted(set(mine) & set(theirs))
            diffs = np.asarray([mine[d] - theirs[d] for d in deals], dtype=np.float64)
            point = float(diffs.mean()) if len(diffs) else math.nan
            samples = _resampled_means(diffs, seed, resamples)
            low, high = symmetric_interval(point, samples, len(deals))
            out.append(PairedDifference(label, name, first, second, point, low, high, len(deals)))
    return out


def _resampled_means(diffs: np.ndarray[Any, Any], seed: int, resamples: int) -> list[float]:
    """The mean difference of ``resamples`` resamples of whole source games."""
    if len(diffs) < 2:
        return []
    resampler = DealResampler(list(range(len(diffs))), seed)
    return [
        float(np.dot(counts, diffs) / len(diffs))
        for counts in (resampler.counts() for _ in range(resamples))
    ]


def fork_result(game: PlayedGame, slot: Slot) -> ForkResult:
    """A played fork game as the block measures it (its entrant's seats, from the fork on:
    :func:`~duskfall.report.results.played_game` measures a fork from its prefix's end)."""
    mine = [seat for seat in game.seats if seat.entrant != REST]
    sides = {seat.side for seat in mine}
    won = None if len(sides) != 1 else game.winner_side in sides  # a draw is no win
    metrics = sum((seat.metrics for seat in mine), SeatMetrics())
    return ForkResult(slot.block, mine[0].entrant if mine else REST, slot.deal, metrics, won)


def ablations(
    config: TournamentConfig, schedule: Sequence[Slot], games: Sequence[PlayedGame]
) -> list[PairedDifference]:
    """The paired differences of every forks block over its played games."""
    slots = {slot.index: slot for slot in schedule}
    results: dict[int, list[ForkResult]] = defaultdict(list)
    for game in games:
        slot = slots.get(game.slot)
        if slot is not None and slot.fork is not None and game.rated:
            results[slot.block].append(fork_result(game, slot))
    out = []
    for number, block in enumerate(config.forks, len(config.variants)):
        seed = derive_rng(config.stats_seed, f"ablations:{number}").getrandbits(32)
        out += paired_differences(results[number], list(config.entrants), block.label, seed=seed)
    return out
