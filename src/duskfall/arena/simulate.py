"""``duskfall simulate``: many games in parallel worker processes.

Workers each run an asyncio loop over a chunk of seeds through the same runtime as every other
game (:func:`duskfall.session.prepare_game`); only small per-game summaries travel back, in
one batch per chunk of seeds, and no worker keeps a finished game's events, so memory stays
flat however many games are played. Workers are forked where that is safe (Linux, no other
thread in this process): they start at once, with everything already imported. At most
:func:`max_workers` processes are started, and each one exits as soon as the process that
started it is gone (no orphans).
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.arena.stats import Proportion
from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.runtime.settings import RuntimeSettings, SeatFailurePolicy
from duskfall.session import GameSetup, new_game_id, prepare_game
from duskfall.store.index import GameIndex, GameRow, Usage, default_db_path
from duskfall.store.indexing import finished_row


@dataclass(frozen=True)
class GameSummary:
    """What a worker reports about one finished game."""

    seed: int
    winner: str | None
    termination: str
    days: int
    decisions: int
    fallbacks: int
    tokens: int = 0
    row: GameRow | None = None  # the game's index row, for games without a log


@dataclass
class SimulationReport:
    """Aggregated results of a simulation."""

    variant: str
    agents: str
    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    terminations: Counter[str] = field(default_factory=Counter)
    total_days: int = 0
    total_decisions: int = 0
    total_fallbacks: int = 0
    total_tokens: int = 0
    seconds: float = 0.0

    def add(self, summary: GameSummary) -> None:
        self.games += 1
        self.wins[summary.winner or "draw"] += 1
        self.terminations[summary.termination] += 1
        self.total_days += summary.days
        self.total_decisions += summary.decisions
        self.total_fallbacks += summary.fallbacks
        self.total_tokens += summary.tokens

    def win_rate(self, team: str) -> Proportion:
        return Proportion(self.wins.get(team, 0), self.games)

    @property
    def mean_days(self) -> float:
        return self.total_days / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class SimulationJob:
    """One worker's chunk of seeds."""

    variant: str
    agents: str
    config: Mapping[str, Any]
    seeds: tuple[int, ...]
    log_dir: str | None
    retries: int
    decision_timeout: float
    index_rows: bool = False
    agent_options: Mapping[str, Any] = field(default_factory=dict)
    on_seat_failure: SeatFailurePolicy = "abort"


class _Tally:
    """Observer: what a :class:`GameSummary` needs, folded from the events as they pass.

    With it the game's record keeps no events (``keep_events = False``): a worker holds no
    finished game in memory, and the garbage collector has no growing record to scan.
    """

    def __init__(self) -> None:
        self.usage = Usage()
        self.decisions = 0
        self.fallbacks = 0

    def on_event(self, event: Event) -> None:
        self.usage.add(event)
        if event.kind == kinds.ACTION:
            self.decisions += 1
        elif event.kind == kinds.FALLBACK:
            self.fallbacks += 1

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


def _setup(job: SimulationJob, settings: RuntimeSettings, seed: int) -> GameSetup:
    setup = GameSetup(
        variant=job.variant,
        seed=seed,
        agents=job.agents,
        config=job.config,
        write_log=job.log_dir is not None,
        log_path=None,
        settings=settings,
        agent_options=job.agent_options,
    )
    if job.log_dir is not None:
        setup.game_id = new_game_id(job.variant)
        setup.log_path = Path(job.log_dir) / f"{setup.game_id}.jsonl"
    return setup


async def _play_one(job: SimulationJob, settings: RuntimeSettings, seed: int) -> GameSummary:
    game = prepare_game(_setup(job, settings, seed))
    tally = _Tally()
    game.record.observers.append(tally)
    if all(isinstance(p, Bot) for p in game.scheduler.participants.values()):
        game.record.keep_events = False  # no seat is shown the events back: keep none
    outcome = await game.run()
    return GameSummary(
        seed=seed,
        winner=outcome.winner,
        termination=outcome.termination.value,
        days=game.state.day,
        decisions=tally.decisions,
        fallbacks=tally.fallbacks,
        tokens=tally.usage.llm.usage.total_tokens,
        row=finished_row(game.header, tally.usage, outcome) if job.index_rows else None,
    )


async def _play_chunk(job: SimulationJob) -> list[GameSummary]:
    settings = RuntimeSettings(
        retries=job.retries,
        decision_timeout=job.decision_timeout,
        on_seat_failure=job.on_seat_failure,
    )
    return [await _play_one(job, settings, seed) for seed in job.seeds]


def max_workers() -> int:
    """The most worker processes a simulation starts: 4 per CPU, at least 8, at most 64."""
    return min(64, max(8, 4 * (os.cpu_count() or 1)))


def start_method() -> str:
    """``fork`` on Linux when this process runs no other thread (a fork copies no lock held
    by another thread then): workers start in milliseconds instead of importing everything
    again; ``spawn`` otherwise."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def start_worker(parent: int) -> None:
    """Worker initialiser: exit with ``parent``; leave the start-up heap out of the garbage
    collector's full scans (``gc.freeze``: it is never garbage)."""
    gc.freeze()
    _exit_with_parent(parent)


def _exit_with_parent(parent: int) -> None:
    """A daemon thread ends this process once ``parent`` is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _check_log_dir(log_dir: str) -> None:
    """Create ``log_dir``, or say in one line why games cannot be logged there."""
    path = Path(log_dir)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".duskfall-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ConfigError(f"cannot write game logs in {log_dir}: {exc.strerror or exc}") from None


def run_chunk(job: SimulationJob) -> list[GameSummary]:
    """Worker entry point: play a chunk of games in one event loop."""
    return asyncio.run(_play_chunk(job))


def _chunks(seeds: range, size: int) -> Iterator[tuple[int, ...]]:
    for start in range(0, len(seeds), size):
        yield tuple(seeds[start : start + size])


def simulate(
    variant: str,
    games: int,
    *,
    agents: str = "random",
    config: Mapping[str, Any] | None = None,
    workers: int = 1,
    first_seed: int = 0,
    log_dir: str | None = None,
    retries: int = 2,
    decision_timeout: float = 120.0,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    agent_options: Mapping[str, Any] | None = None,
    on_seat_failure: SeatFailurePolicy = "abort",
) -> SimulationReport:
    """Play ``games`` games with seeds ``first_seed..`` and aggregate the results.

    A seat that keeps failing aborts its game, unless ``on_seat_failure`` is ``"fallback"``
    (:class:`~duskfall.runtime.settings.RuntimeSettings`).

    Raises ConfigError for more than :func:`max_workers` workers or a ``log_dir`` that
    cannot be written.
    """
    if not 1 <= workers <= max_workers():
        raise ConfigError(
            f"workers must be between 1 and {max_workers()} on this machine "
            f"(4 per CPU, at least 8), not {workers}"
        )
    if log_dir is not None:
        _check_log_dir(log_dir)
    report = SimulationReport(variant, agents)
    # logged games are indexed as they are played; the others get summary rows, in batches
    db = default_db_path() if log_dir is None else None
    index = GameIndex(db) if db is not None else None
    size = chunk_size or max(1, min(200, games // max(1, workers * 8) or 1))
    jobs = (
        SimulationJob(
            variant,
            agents,
            dict(config or {}),
            chunk,
            log_dir,
            retries,
            decision_timeout,
            index_rows=index is not None,
            agent_options=dict(agent_options or {}),
            on_seat_failure=on_seat_failure,
        )
        for chunk in _chunks(range(first_seed, first_seed + games), size)
    )
    start = time.perf_counter()
    if workers <= 1:
        for job in jobs:
            summaries = run_chunk(job)
            for summary in summaries:
                report.add(summary)
            if progress:
                progress(len(summaries))
            _index(index, summaries)
    else:
        context = multiprocessing.get_context(start_method())
        with context.Pool(workers, start_worker, (os.getpid(),)) as pool:
            for summaries in pool.imap_unordered(run_chunk, jobs):
                for summary in summaries:
                    report.add(summary)
                if progress:
                    progress(len(summaries))
                _index(index, summaries)
    report.seconds = time.perf_counter() - start
    if index is not None:
        index.close()
    return report


def _index(index: GameIndex | None, summaries: list[GameSummary]) -> None:
    if index is not None:
        index.add_rows([s.row for s in summaries if s.row is not None])
