"""Running a tournament: play the scheduled games that are missing, within the budgets.

The game index is the tournament's memory: every game is tagged with the tournament and its
slot, so :func:`tournament_progress` knows which slots are finished, which were interrupted
(their process is gone: a kill -9, a crash) and which were never played. ``run`` and
``resume`` both play exactly the missing and interrupted slots, each game from its start with
its scheduled seed, so an interrupted tournament ends with the same games as one that never
stopped. Only games in flight are lost when the driver dies.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.arena.backends import Backend, make_backend, uses_models
from duskfall.arena.driver import drive
from duskfall.arena.game_job import GameJob, GameResult
from duskfall.arena.schedule import Slot, build_schedule
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.usage import Usage
from duskfall.session import GameSetup, plan_game
from duskfall.store.index import GameIndex, GameRow

CONFIG_COPY = "tournament.json"
ABANDONED = "abandoned"  # termination of an interrupted game whose slot is played again


class TournamentBusy(DuskfallError):
    """Another live process is playing games of this tournament."""


@dataclass
class Spending:
    """Model usage so far, in total and per entrant."""

    total: Usage = field(default_factory=Usage)
    by_entrant: dict[str, Usage] = field(default_factory=dict)

    def add(self, usage_by_entrant: dict[str, Usage]) -> None:
        for name, usage in usage_by_entrant.items():
            self.total += usage
            self.by_entrant[name] = self.by_entrant.get(name, Usage()) + usage


@dataclass
class TournamentProgress:
    """Where a tournament stands, from the index: finished slots, interrupted ones, the rest."""

    config: TournamentConfig
    schedule: list[Slot]
    done: dict[int, GameRow]
    interrupted: list[GameRow]
    running: list[GameRow]
    abandoned: list[GameRow]

    @property
    def missing(self) -> list[Slot]:
        return [slot for slot in self.schedule if slot.index not in self.done]

    def spent(self) -> Spending:
        """Model usage of the games played so far (interrupted ones included: they were paid
        for), per entrant from the logs' ``llm_call`` events."""
        from duskfall.arena.results import entrant_usage

        spending = Spending()
        for row in [*self.done.values(), *self.interrupted, *self.abandoned]:
            spending.add(entrant_usage(row))
        return spending


def tournament_progress(config: TournamentConfig, index: GameIndex) -> TournamentProgress:
    """The state of ``config``'s tournament in ``index``."""
    schedule = build_schedule(config)
    done: dict[int, GameRow] = {}
    interrupted, running, abandoned = [], [], []
    for row in index.tournament_games(config.name):
        if row.tournament_slot is None:
            continue
        if row.termination == ABANDONED:
            abandoned.append(row)
        elif row.status in ("finished", "aborted"):
            done.setdefault(row.tournament_slot, row)
        elif row.process_alive is False:
            interrupted.append(row)
        else:
            running.append(row)
    return TournamentProgress(config, schedule, done, interrupted, running, abandoned)


@dataclass
class RunEvent:
    """Progress of a run, after each finished game."""

    done: int
    total: int
    tokens: int
    cost_usd: float
    result: GameResult | None = None


@dataclass
class RunSummary:
    """What one ``run``/``resume`` did."""

    played: int = 0
    failed: list[str] = field(default_factory=list)
    stopped_by: str | None = None  # the budget that stopped scheduling, if any
    seconds: float = 0.0
    spending: Spending = field(default_factory=Spending)


@dataclass
class Looks:
    """Planned looks (``stop = "separated"``): once the schedule's first ``at[k]`` slots are
    finished, and before any later slot starts, ``check(at[k])`` is called; a reason it
    returns stops the tournament there."""

    at: Sequence[int]
    check: Callable[[int], str | None]


def config_fingerprint(config: TournamentConfig) -> str:
    """A hash of what defines the schedule and its games (not concurrency, budgets nor how the
    board is fitted)."""
    defining = config.model_dump(
        mode="json", exclude={"parallel_games", "workers", "budget", "log_dir", "board"}
    )
    if config.stop == "all":  # as configs without a stopping rule were: the same hash
        defining.pop("stop")
        defining.pop("looks")
    return hashlib.sha256(json.dumps(defining, sort_keys=True).encode()).hexdigest()[:16]


def _check_same_config(config: TournamentConfig, games_dir: Path) -> None:
    """Keep a copy of the config next to the games; refuse a changed one."""
    copy = games_dir / CONFIG_COPY
    fingerprint = config_fingerprint(config)
    if copy.exists():
        try:
            stored = json.loads(copy.read_text(encoding="utf-8")).get("fingerprint")
        except (OSError, ValueError):
            stored = None
        if stored is not None and stored != fingerprint:
            raise ConfigError(
                f"tournament {config.name!r} was started with another config (see {copy}); "
                "give it a new name to play a different tournament"
            )
    copy.write_text(
        json.dumps(
            {"fingerprint": fingerprint, "config": config.model_dump(mode="json")}, indent=2
        ),
        encoding="utf-8",
    )


def stored_config(index: GameIndex, name: str) -> TournamentConfig:
    """The config a tournament was played with (its copy next to the games' logs)."""
    from duskfall.arena.tournament_config import parse_tournament

    for row in index.tournament_games(name):
        if row.log_path is None:
            continue
        copy = Path(row.log_path).parent / CONFIG_COPY
        try:
            return parse_tournament(json.loads(copy.read_text(encoding="utf-8"))["config"])
        except (OSError, ValueError, KeyError):
            continue
    raise ConfigError(f"no tournament {name!r} with a stored config in {index.path}")


def _budget_stop(config: TournamentConfig, spending: Spending) -> str | None:
    """The budget that is used up (no new game should start), or None."""
    budget = config.budget
    total = spending.total
    if budget.max_cost_usd is not None and total.cost_usd >= budget.max_cost_usd:
        return f"max_cost_usd {budget.max_cost_usd:g} reached (${total.cost_usd:.4f})"
    if budget.max_tokens is not None and total.total_tokens >= budget.max_tokens:
        return f"max_tokens {budget.max_tokens} reached ({total.total_tokens})"
    return None


def _exhausted(config: TournamentConfig, spending: Spending) -> set[str]:
    """Entrants whose own budget is used up: their games are not started."""
    budget = config.budget
    out = set()
    for name, usage in spending.by_entrant.items():
        if (
            budget.per_entrant_max_cost_usd is not None
            and usage.cost_usd >= budget.per_entrant_max_cost_usd
        ) or (
            budget.per_entrant_max_tokens is not None
            and usage.total_tokens >= budget.per_entrant_max_tokens
        ):
            out.add(name)
    return out


def _job(config: TournamentConfig, slot: Slot, games_dir: Path, db: Path | None) -> GameJob:
    return GameJob(
        tournament=config.name,
        slot=slot.index,
        variant=slot.variant,
        seed=slot.seed,
        config=slot.config,
        agents=slot.agents(config.seat_agents()),
        seats=slot.seats,
        log_dir=str(games_dir),
        db=None if db is None else str(db),
        settings={
            "retries": config.retries,
            "decision_timeout": config.decision_timeout,
            "on_seat_failure": config.on_seat_failure,
        },
        agent_options=_agent_options(config),
        remote=dict(config.remote),
    )


def _agent_options(config: TournamentConfig) -> dict[str, Any]:
    """The config's agent options, with ``beliefs`` for model-backed entrants."""
    options = dict(config.agent_options)
    if config.beliefs != "off" and any(
        spec.startswith(("llm:", "cognitive:")) for spec in config.entrants.values()
    ):
        options.setdefault("beliefs", config.beliefs)
    return options


def run_tournament(
    config: TournamentConfig,
    *,
    base_dir: Path,
    db: Path,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[RunEvent], None] | None = None,
    backend_factory: Callable[[], Backend] | None = None,
    looks: Looks | None = None,
) -> RunSummary:
    """Play every missing or interrupted game of ``config``'s tournament.

    Games are logged in ``config.games_dir(base_dir)`` and indexed in ``db``. Raises
    :class:`TournamentBusy` when another live process is playing this tournament. With
    ``stop = "separated"`` the run pauses at the planned looks (``looks``, by default the
    rule's own: :func:`duskfall.arena.stopping.separation_looks`).
    """
    if looks is None and config.stop == "separated":
        from duskfall.arena.stopping import separation_looks

        looks = separation_looks(config, db)
    games_dir = config.games_dir(base_dir)
    try:
        games_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create {games_dir}: {exc.strerror or exc}") from None
    _check_same_config(config, games_dir)
    with GameIndex(db) as index:
        state = tournament_progress(config, index)
        if state.running:
            pids = ", ".join(sorted({str(row.pid) for row in state.running}))
            raise TournamentBusy(
                f"tournament {config.name!r} is being played by process {pids}; "
                "wait for it or stop it first"
            )
        spending = state.spent()
        for row in state.interrupted:  # its slot is played again from the start
            index.abandon(row.id, ABANDONED)
        done = len(state.done)
        missing = state.missing
    preflight(config, missing)
    summary = RunSummary(spending=spending)
    start = time.perf_counter()
    make = backend_factory or (
        lambda: make_backend(
            backend,
            workers=config.workers,
            parallel=config.parallel_games,
            address=address,
            shared_limits=uses_models(config.entrants.values()),
        )
    )
    runner = make()
    try:
        jobs = _jobs(config, missing, games_dir, db)
        _drive(config, runner, jobs, summary, done, progress, looks)
    finally:
        runner.close()
    summary.seconds = time.perf_counter() - start
    return summary


def preflight(config: TournamentConfig, slots: Sequence[Slot]) -> None:
    """Check every model-backed entrant once (one tiny request per model) on games of the
    schedule, before any game is played: an entrant that cannot play is one error line
    (:class:`~duskfall.session.SeatNotReady`), not a tournament of fallbacks."""
    unchecked = {name for name, spec in config.entrants.items() if ":" in spec}
    for slot in slots:
        if not unchecked & set(slot.seats):
            continue
        unchecked -= set(slot.seats)
        setup = GameSetup(
            slot.variant,
            seed=slot.seed,
            agents=slot.agents(config.seat_agents()),
            config=slot.config,
            write_log=False,
            agent_options=_agent_options(config),
        )
        asyncio.run(plan_game(setup).preflight())
        if not unchecked:
            return


def _jobs(
    config: TournamentConfig, slots: Iterable[Slot], games_dir: Path, db: Path
) -> list[GameJob]:
    return [_job(config, slot, games_dir, db) for slot in slots]


def _drive(
    config: TournamentConfig,
    runner: Backend,
    pending: list[GameJob],
    summary: RunSummary,
    done: int,
    progress: Callable[[RunEvent], None] | None,
    looks: Looks | None = None,
) -> None:
    """Play ``pending`` one game a batch, checking the budgets before each new game (and
    pausing at each planned look until the games before it are done)."""
    queue = list(pending)
    finished = [done]
    in_flight: set[int] = set()
    points = sorted(looks.at) if looks is not None else []

    def look_stops(job: GameJob) -> bool | None:
        """Take the looks ``job`` comes after: True to stop, None to wait, False to go on."""
        while points and job.slot >= points[0] and looks is not None:
            if any(slot < points[0] for slot in in_flight):
                return None
            summary.stopped_by = looks.check(points.pop(0))
            if summary.stopped_by is not None:
                return True
        return False

    def next_batch() -> list[GameJob] | None:
        if not queue or summary.stopped_by is not None:
            return None
        summary.stopped_by = _budget_stop(config, summary.spending)
        if summary.stopped_by is not None:
            return None
        exhausted = _exhausted(config, summary.spending)
        job = next((j for j in queue if not exhausted & set(j.seats)), None)
        if job is None:
            summary.stopped_by = "per-entrant budget reached by " + ", ".join(sorted(exhausted))
            return None
        stop = look_stops(job)
        if stop is None:
            return []
        if stop:
            return None
        queue.remove(job)
        in_flight.add(job.slot)
        return [job]

    def on_results(results: list[GameResult]) -> None:
        for result in results:
            in_flight.discard(result.slot)
            finished[0] += 1
            summary.played += 1
            summary.spending.add(result.usage)
            if progress is not None:
                spent = summary.spending.total
                event = RunEvent(
                    finished[0], config.total_games, spent.total_tokens, spent.cost_usd, result
                )
                progress(event)

    def on_failure(exc: BaseException) -> None:
        summary.failed.append(_one_line(exc))
        if summary.stopped_by is None:
            summary.stopped_by = "a game failed: " + summary.failed[0]

    drive(runner, next_batch, on_results, on_failure)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def seat_counts(slots: Iterable[Slot]) -> Counter[str]:
    """Seats each entrant is scheduled to play."""
    return Counter(name for slot in slots for name in slot.seats)
