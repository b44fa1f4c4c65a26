"""Paired ablations: fork logged games at one moment and play each fork with each entrant.

A ``[[forks]]`` block of a tournament takes a set of logged games (``source``: a glob of log
files, or ``tournament:NAME`` for the finished games of a tournament in the index), forks each
at ``at`` (``day:2``, ``VOTE:1``... as ``duskfall fork --at`` names moments) and plays the fork
once per entrant (``repeats`` times), the entrant in the chosen ``seats`` (a team, a role, or
seat numbers) and everyone else as ``rest`` says (default: the source game's own agents). The
forks of one source game and repeat share their seed, so the seats around the entrant play
the same streams: the games differ by the entrant alone. Each fork is measured from the fork
on (vote accuracy, survival, the entrant's side winning) and every pair of entrants gets the
difference of each measure with a 95% interval that resamples whole source games.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from duskfall.agents.specs import seats_of_key
from duskfall.arena.metrics import SeatMetrics, seat_metrics
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.rng import derive_rng
from duskfall.core.sides import side_of
from duskfall.lab.fork import ForkRequest, read_parent, run_fork
from duskfall.runtime.settings import RuntimeSettings
from duskfall.store.index import GameIndex, default_db_path
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import new_state_for

REST = "(rest)"  # the name of the seats around the entrant in a fork's tournament tag
ABLATION_KEY = "ablation"
TOURNAMENT_SOURCE = "tournament:"


class ForksBlock(BaseModel):
    """``[[forks]]``: see the module docstring."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str
    at: str = "day:2"
    seats: str | list[int] = "village"
    rest: str | None = None
    repeats: int = Field(1, ge=1, le=1000)
    games: int | None = Field(None, ge=1, le=1_000_000)

    @property
    def label(self) -> str:
        seats = self.seats if isinstance(self.seats, str) else "+".join(map(str, self.seats))
        return f"forks:{self.at}:{seats}"

    def sources(self, base: Path) -> list[Path]:
        """The source games' logs, in a stable order: finished games only (a fork of a game
        that has not ended would show what it hides), at most ``games`` of them."""
        if self.source.startswith(TOURNAMENT_SOURCE):
            found = _tournament_logs(self.source[len(TOURNAMENT_SOURCE) :])
        else:
            pattern = self.source if Path(self.source).is_absolute() else str(base / self.source)
            found = sorted(Path(p) for p in glob.glob(pattern, recursive=True))
        found = [path for path in found if path.suffix == ".jsonl" and _finished(path)]
        if not found:
            raise ConfigError(f"[[forks]] source {self.source!r}: no finished game logs found")
        return found[: self.games] if self.games else found


def _finished(path: Path) -> bool:
    try:
        return read_log(path, strict=False).finished
    except DuskfallError:
        return False


def _tournament_logs(name: str) -> list[Path]:
    db = default_db_path()
    if db is None or not db.exists():
        raise ConfigError(f"[[forks]] source tournament:{name}: no game index to find it in")
    with GameIndex(db) as index:
        rows = index.tournament_games(name)
    return [Path(r.log_path) for r in rows if r.status == "finished" and r.log_path]


@dataclass(frozen=True)
class ForkSlot:
    """One fork to play: the entrant's fork of source game number ``deal``, ``repeat``."""

    index: int
    source: Path
    deal: int
    entrant: str
    repeat: int
    seed: int


def fork_slots(
    block: ForksBlock, entrants: Sequence[str], seed: int, base: Path, first: int = 0
) -> list[ForkSlot]:
    """Every fork of ``block``, numbered from ``first``; a source repeat's forks share a seed."""
    slots: list[ForkSlot] = []
    for deal, source in enumerate(block.sources(base)):
        for repeat in range(block.repeats):
            fork_seed = derive_rng(seed, f"forks:{block.label}:{deal}:{repeat}").getrandbits(128)
            for entrant in entrants:
                slots.append(ForkSlot(first + len(slots), source, deal, entrant, repeat, fork_seed))
    return slots


def fork_request(
    slot: ForkSlot,
    block: ForksBlock,
    agents: Mapping[str, str],
    tournament: str,
    out_dir: Path,
    settings: RuntimeSettings | None = None,
    agent_options: Mapping[str, Any] | None = None,
) -> ForkRequest:
    """The fork of ``slot``: its seats' agents, its log and its tags."""
    parent = read_parent(slot.source)
    variant, dealt = new_state_for(parent)
    chosen = _chosen_seats(block, variant, dealt)
    roster = {int(e["seat"]): str(e["agent"]) for e in parent.header.roster}
    seats_agents = [
        agents[slot.entrant] if seat in chosen else (block.rest or roster.get(seat, "unknown"))
        for seat in range(dealt.num_seats)
    ]
    names = [slot.entrant if seat in chosen else REST for seat in range(dealt.num_seats)]
    tag = {"name": tournament, "slot": slot.index, "seats": names}
    ablation = {
        "source": parent.header.game_id,
        "deal": slot.deal,
        "entrant": slot.entrant,
        "repeat": slot.repeat,
        "seats": sorted(chosen),
    }
    return ForkRequest(
        slot.source,
        at=block.at,
        agents=",".join(seats_agents),
        seed=slot.seed,
        log_path=out_dir / f"{tournament}-{slot.index:05d}.jsonl",
        settings=settings or RuntimeSettings(),
        agent_options=dict(agent_options or {}),
        header_extra={"tournament": tag, ABLATION_KEY: ablation},
    )


def _chosen_seats(block: ForksBlock, variant: Any, state: Any) -> set[int]:
    if isinstance(block.seats, list):
        chosen = set(block.seats)
        if not chosen or max(chosen) >= state.num_seats or min(chosen) < 0:
            raise ConfigError(f"[[forks]] seats {block.seats}: seats are 0-{state.num_seats - 1}")
        return chosen
    chosen = {s for key in block.seats.split("+") for s in seats_of_key(variant, key, state)}
    if not chosen:
        raise ConfigError(f"[[forks]] seats {block.seats!r} names no seat of this game")
    return chosen


async def play_forks(
    requests: Sequence[ForkRequest],
    parallel: int = 1,
    done: Callable[[Path], None] | None = None,
) -> list[Path]:
    """Play the forks (``parallel`` at once); returns their logs in the requests' order."""
    gate = asyncio.Semaphore(parallel)

    async def one(request: ForkRequest) -> Path:
        async with gate:
            game = await run_fork(request)
        assert game.log_path is not None
        if done is not None:
            done(game.log_path)
        return game.log_path

    return list(await asyncio.gather(*(one(request) for request in requests)))


@dataclass(frozen=True)
class ForkResult:
    """One played fork, measured from the fork on over the entrant's seats."""

    entrant: str
    deal: int
    source: str
    metrics: SeatMetrics
    won: bool | None  # whether the entrant's side won (None: its seats are on both sides)


def fork_result(log: GameLog) -> ForkResult:
    """The measures of one fork game (its tags say whose seats they are)."""
    tag = log.header.extra.get(ABLATION_KEY)
    origin = ForkOrigin.of(log.header)
    if not isinstance(tag, dict) or origin is None:
        raise ConfigError(f"game {log.header.game_id} is not a fork of a [[forks]] block")
    seats = [int(seat) for seat in tag["seats"]]
    per_seat = seat_metrics(log, since=origin.prefix)
    summed = sum((per_seat[seat] for seat in seats), SeatMetrics())
    variant, dealt = new_state_for(log)
    sides = {side_of(variant, dealt.team_of(seat)) for seat in seats}
    outcome = log.outcome
    won = None
    if len(sides) == 1 and outcome is not None:
        winner = side_of(variant, outcome.winner) if outcome.winner else None
        won = winner == next(iter(sides))
    return ForkResult(str(tag["entrant"]), int(tag["deal"]), str(tag["source"]), summed, won)


def read_results(paths: Sequence[Path]) -> list[ForkResult]:
    return [fork_result(read_log(path, strict=False)) for path in paths]


Measure = Callable[[ForkResult], tuple[float, float]]
"""(numerator, denominator) of a measure in one fork: summed over repeats, then divided."""

MEASURES: dict[str, Measure] = {
    "vote accuracy": lambda r: (r.metrics.accurate_votes, r.metrics.exile_votes),
    "survival": lambda r: (r.metrics.survived, r.metrics.seats),
    "win": lambda r: (float(bool(r.won)), 1.0 if r.won is not None else 0.0),
}


@dataclass(frozen=True)
class PairedDifference:
    """``first - second`` of one measure, paired by source game, with its 95% interval."""

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

    def describe(self) -> str:
        verdict = "separated" if self.separated else "not yet"
        return (
            f"{self.measure}: {self.first} - {self.second} = {self.point:+.3f} "
            f"[{self.low:+.3f}, {self.high:+.3f}] over {self.sources} source games: {verdict}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "first": self.first,
            "second": self.second,
            "point": self.point,
            "low": None if math.isnan(self.low) else self.low,
            "high": None if math.isnan(self.high) else self.high,
            "sources": self.sources,
            "separated": self.separated,
        }


def per_source(results: Sequence[ForkResult], measure: Measure) -> dict[str, dict[int, float]]:
    """Entrant -> source game -> the measure over that game's forks (None-free)."""
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
    *,
    seed: int = 0,
    resamples: int = 2000,
) -> list[PairedDifference]:
    """Every pair's difference of every measure (see the module docstring)."""
    out = []
    for name, measure in MEASURES.items():
        values = per_source(results, measure)
        for first, second in itertools.combinations(entrants, 2):
            mine, theirs = values.get(first, {}), values.get(second, {})
            deals = sorted(set(mine) & set(theirs))
            diffs = [mine[d] - theirs[d] for d in deals]
            low, high = _deal_interval(
                diffs, derive_rng(seed, f"{name}:{first}:{second}"), resamples
            )
            point = statistics.fmean(diffs) if diffs else math.nan
            out.append(PairedDifference(name, first, second, point, low, high, len(deals)))
    return out


def _deal_interval(
    diffs: Sequence[float], rng: random.Random, resamples: int
) -> tuple[float, float]:
    """A symmetric 95% interval of the mean of ``diffs``, resampling whole source games."""
    count = len(diffs)
    if count < 2:
        return (math.nan, math.nan)
    means = [statistics.fmean(rng.choices(diffs, k=count)) for _ in range(resamples)]
    se = statistics.stdev(means) * math.sqrt(count / (count - 1))
    half = statistics.NormalDist().inv_cdf(0.975) * se
    point = statistics.fmean(diffs)
    return (point - half, point + half)
