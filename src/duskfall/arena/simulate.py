"""``duskfall simulate``: many games in parallel worker processes.

Workers each run an asyncio loop over a chunk of seeds through the same runtime as every other
game (:func:`duskfall.session.run_game`); only small per-game summaries travel back, so
memory stays flat however many games are played. At most :func:`max_workers` processes are
started, and each one exits as soon as the process that started it is gone (no orphans).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.arena.stats import Proportion
from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError
from duskfall.core.usage import fold_usage
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, new_game_id, run_game
from duskfall.store.index import GameIndex, GameRow, default_db_path
from duskfall.store.indexing import summary_row


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


async def _play_chunk(job: SimulationJob) -> list[GameSummary]:
    summaries = []
    settings = RuntimeSettings(retries=job.retries, decision_timeout=job.decision_timeout)
    for seed in job.seeds:
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
        game = await run_game(setup)
        outcome = game.state.outcome()
        assert outcome is not None
        events = game.record.events
        summaries.append(
            GameSummary(
                seed=seed,
                winner=outcome.winner,
                termination=outcome.termination.value,
                days=game.state.day,
                decisions=sum(1 for e in events if e.kind == kinds.ACTION),
                fallbacks=sum(1 for e in events if e.kind == kinds.FALLBACK),
                tokens=fold_usage(events).total.usage.total_tokens,
                row=summary_row(game.header, events, outcome) if job.index_rows else None,
            )
        )
        game.record.events.clear()
    return summaries


def max_workers() -> int:
    """The most worker processes a simulation starts: 4 per CPU, at least 8, at most 64."""
    return min(64, max(8, 4 * (os.cpu_count() or 1)))


def _exit_with_parent(parent: int) -> None:
    """Worker initialiser: a daemon thread ends this process once ``parent`` is gone."""

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
) -> SimulationReport:
    """Play ``games`` games with seeds ``first_seed..`` and aggregate the results.

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
                    progress(1)
            _index(index, summaries)
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers, _exit_with_parent, (os.getpid(),)) as pool:
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
