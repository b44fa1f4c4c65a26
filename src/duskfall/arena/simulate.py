"""``duskfall simulate``: many games of one agent spec, played by the tournament machinery.

A simulation is the simplest schedule: one entrant (the agent spec, the same for every game)
and games whose seeds are derived by a keyed hash from a secret master: ``first_seed`` keyed with
the operator's deal key, or 256 bits from the OS without one (:mod:`duskfall.store.deals`,
purpose ``simulate``); or given as ``seeds``. Its games are
:class:`~duskfall.arena.game_job.GameJob` values in batches (chunks of seeds), played by the
same backends and driver loop as a tournament's (:mod:`duskfall.arena.backends`,
:mod:`duskfall.arena.driver`): this process's event loop with one worker, a process pool with
more. Only small per-game results travel back (and, with ``--log-dir``, each game's log,
compressed, for this process to write), one batch at a time, and no worker keeps a finished
game's events, so memory stays flat however many games are played.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from duskfall.arena.backends import Backend, LoopBackend, PoolBackend, uses_models
from duskfall.arena.driver import drive
from duskfall.arena.game_job import GameJob, GameResult, SlotFailure
from duskfall.arena.recording import RecordWriter
from duskfall.arena.workers import max_workers
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.outcome import Termination
from duskfall.core.stats import Proportion
from duskfall.runtime.settings import SeatFailurePolicy
from duskfall.store.deals import run_master, run_seeds
from duskfall.store.files import prepare_log_dir
from duskfall.store.index import GameIndex
from duskfall.store.paths import default_db_path

SIMULATE = "simulate"  # the purpose a simulation's games are dealt for


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

    def add(self, result: GameResult) -> None:
        self.games += 1
        if result.termination != Termination.ABORTED:
            self.wins[result.winner or "draw"] += 1
        self.terminations[result.termination] += 1
        self.total_days += result.days
        self.total_decisions += result.decisions
        self.total_fallbacks += result.fallbacks
        self.total_tokens += result.total.total_tokens

    @property
    def aborted(self) -> int:
        """Games that ended without a result (a seat kept failing): left out of the rates."""
        return self.terminations.get(Termination.ABORTED, 0)

    def win_rate(self, team: str) -> Proportion:
        """``team``'s share of the games that finished (``draw``: finished without a winner;
        aborted games are left out)."""
        return Proportion(self.wins.get(team, 0), self.games - self.aborted)

    @property
    def mean_days(self) -> float:
        return self.total_days / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


class SimulationFailed(DuskfallError):
    """A game of the simulation could not be played."""


def simulation_batches(
    template: GameJob, seeds: Iterable[int], games: int, size: int
) -> Iterator[list[GameJob]]:
    """The simulation's schedule: ``template`` with each of ``seeds``, ``size`` a batch."""
    chosen = iter(seeds)
    for start in range(0, games, size):
        chunk = itertools.islice(chosen, min(size, games - start))
        yield [replace(template, seed=seed, slot=slot) for slot, seed in enumerate(chunk, start)]


class _Simulation:
    """The driver's plan (the batches of seeds) and sink (the report, the record)."""

    def __init__(
        self,
        batches: Iterator[list[GameJob]],
        report: SimulationReport,
        record: RecordWriter,
        progress: Callable[[int], None] | None,
    ) -> None:
        self._batches = batches
        self._again: deque[GameJob] = deque()
        self.report = report
        self.record = record
        self.progress = progress

    def take(self, idle: bool) -> list[GameJob] | None:
        if self._again:
            return [self._again.popleft()]
        return next(self._batches, None)

    def again(self, job: GameJob) -> None:
        self._again.append(job)

    def played(self, results: list[GameResult]) -> None:
        for result in results:
            self.report.add(result)
        self.record.write(results)
        if self.progress:
            self.progress(len(results))

    def failed(self, job: GameJob, failure: SlotFailure, final: bool) -> None:
        if final:
            raise SimulationFailed(
                f"the game with seed {job.seed} could not be played: {failure.reason}"
            )


def simulate(
    variant: str,
    games: int,
    *,
    agents: str = "random",
    config: Mapping[str, Any] | None = None,
    workers: int = 1,
    first_seed: int | None = None,
    seeds: Iterable[int] | None = None,
    log_dir: str | None = None,
    retries: int = 2,
    decision_timeout: float = 120.0,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    agent_options: Mapping[str, Any] | None = None,
    on_seat_failure: SeatFailurePolicy = "abort",
) -> SimulationReport:
    """Play ``games`` games and aggregate the results. Game ``i``'s seed is
    :func:`~duskfall.store.deals.run_seed` ``(master, "simulate", i)`` of the master of
    ``first_seed`` (a fresh secret when it is None), or the ``i``-th of ``seeds`` when they are
    given.

    A seat that keeps failing aborts its game, unless ``on_seat_failure`` is ``"fallback"``
    (:class:`~duskfall.runtime.settings.RuntimeSettings`). Workers send the games back; this
    process alone writes their logs (with ``log_dir``) and index rows, a batch at a time. A
    game whose worker died is played again once; a game that cannot be played raises
    :class:`SimulationFailed`.

    Raises ConfigError for more than :func:`max_workers` workers or a ``log_dir`` that
    cannot be written.
    """
    if not 1 <= workers <= max_workers():
        raise ConfigError(
            f"workers must be between 1 and {max_workers()} on this machine "
            f"(4 per CPU, at least 8), not {workers}"
        )
    games_dir = prepare_log_dir(log_dir) if log_dir is not None else None
    db = default_db_path()
    template = GameJob(
        variant=variant,
        seed=0,  # each game's own is set per batch
        config=dict(config or {}),
        agents=agents,
        seats=(),
        settings={
            "retries": retries,
            "decision_timeout": decision_timeout,
            "on_seat_failure": on_seat_failure,
        },
        agent_options=dict(agent_options or {}),
        keep_log=games_dir is not None,
        keep_row=db is not None,
    )
    size = chunk_size or max(1, min(200, games // max(1, workers * 8) or 1))
    if seeds is None:
        seeds = run_seeds(run_master(first_seed, SIMULATE, db), SIMULATE, range(games))
    chosen = seeds
    report = SimulationReport(variant, agents)
    index = GameIndex(db) if db is not None else None
    plan = _Simulation(
        simulation_batches(template, chosen, games, size),
        report,
        RecordWriter(games_dir, index),
        progress,
    )
    start = time.perf_counter()
    if workers > 1:
        runner: Backend = PoolBackend(workers, 2 * workers, shared_limits=uses_models([agents]))
    else:
        runner = LoopBackend(1)
    try:
        drive(runner, plan, plan, attempts=2)
    finally:
        runner.close()
        if index is not None:
            index.close()
    report.seconds = time.perf_counter() - start
    return report
