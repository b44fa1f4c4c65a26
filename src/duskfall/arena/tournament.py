"""Running a tournament: play the scheduled games that are missing, within the budgets.

The driver (this process) owns the record. Wherever games are played (its event loop,
worker processes, a Ray cluster), workers send each game back and only the driver writes
logs, the index and the execution record of the slots (:mod:`duskfall.store.slots`), on its
own disk. It holds the tournament's lock (:mod:`duskfall.arena.driver_lock`) while it runs,
so a second driver is refused, and a driver that starts after one died knows at once, from
any host, that the slots left ``running`` were lost: it plays them again. ``run`` and
``resume`` both play exactly the missing slots, each game from its start with its scheduled
seed (and the same game id: a slot's game is written once), so an interrupted tournament
ends with the same games as one that never stopped. Only games in flight are lost when the
driver dies; a failed game is played again (``[execution] attempts``) and its slot marked
failed, with the reason, if every try fails.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from duskfall.agents.kinds import calls_models
from duskfall.arena.backends import Backend, make_backend, uses_models
from duskfall.arena.deals import with_deals
from duskfall.arena.driver import drive
from duskfall.arena.driver_lock import DriverLock
from duskfall.arena.game_job import ForkJob, GameJob
from duskfall.arena.progress import ABANDONED, tournament_progress
from duskfall.arena.recording import RecordWriter
from duskfall.arena.schedule import Slot
from duskfall.arena.sealing import keep_private
from duskfall.arena.seed_release import DealReleases
from duskfall.arena.tournament_config import TournamentConfig, parse_tournament
from duskfall.arena.tournament_run import (
    Looks,
    RunEvent,
    RunSummary,
    TournamentRun,
)
from duskfall.arena.worker_env import absolute_options, absolute_spec, worker_env
from duskfall.core.errors import ConfigError
from duskfall.session import GameSetup, plan_game
from duskfall.store.index import GameIndex
from duskfall.store.packed import packed_file
from duskfall.store.slots import SlotTable

CONFIG_COPY = "tournament.json"
DEALS_MARK = "deals"  # in the copy: how the games are dealt ("keyed"; absent: before keys)
KEYED = "keyed"


class TournamentInterrupted(Exception):
    """The driver was stopped (Ctrl-C, SIGTERM): what it did, for the resume hint."""

    def __init__(self, summary: RunSummary) -> None:
        super().__init__("interrupted")
        self.summary = summary


def config_fingerprint(config: TournamentConfig) -> str:
    """A hash of what defines the schedule and its games (not concurrency, budgets, how games
    are run nor how the board is fitted)."""
    defining = config.model_dump(
        mode="json",
        exclude={
            **dict.fromkeys(
                ("parallel_games", "workers", "budget", "log_dir", "execution", "board"), True
            ),
            "remote": {"__all__": {"env", "pass_env", "sealed"}},  # how its programs run
        },
    )
    if config.stop == "all":  # as configs without a stopping rule were: the same hash
        defining.pop("stop")
        defining.pop("looks")
    return hashlib.sha256(json.dumps(defining, sort_keys=True).encode()).hexdigest()[:16]


def _check_same_config(config: TournamentConfig, games_dir: Path, db: Path) -> str:
    """Keep a copy of the config next to the games; refuse a changed one once a game has
    started (before, the new config replaces the copy). Returns the tournament's salt (kept in
    the copy: what its games' ids are drawn from)."""
    copy = games_dir / CONFIG_COPY
    fingerprint = config_fingerprint(config)
    stored: dict[str, Any] = {}
    if copy.exists():
        try:
            stored = json.loads(copy.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = {}
        changed = stored.get("fingerprint") not in (None, fingerprint)
        if changed and _started(config.name, games_dir, db):
            raise ConfigError(
                f"tournament {config.name!r} was started with another config (see {copy}); "
                "give it a new name to play a different tournament"
            )
    salt = stored.get("salt") if isinstance(stored.get("salt"), str) else secrets.token_hex(16)
    copy_of: dict[str, Any] = {"fingerprint": fingerprint, "salt": salt}
    if not stored or stored.get(DEALS_MARK) == KEYED:
        copy_of[DEALS_MARK] = KEYED
    copy_of["config"] = config.model_dump(mode="json")
    text = json.dumps(copy_of, indent=2)
    partial = copy.with_name(f".{copy.name}.part")
    partial.write_text(text, encoding="utf-8")
    partial.replace(copy)
    return str(salt)


def dealt_as_stored(
    config: TournamentConfig, games_dir: Path, db: Path, *, create: bool = False
) -> TournamentConfig:
    """``config`` with the deals its games were (or will be) played with: its secret master
    (:func:`duskfall.arena.deals.with_deals`), or, for a tournament started before deals were
    keyed (its copy has no ``deals`` mark), its seed as the schedule used it then, so that its
    games, reports and ``resume`` stay what they were."""
    try:
        stored = json.loads((games_dir / CONFIG_COPY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = None
    if isinstance(stored, dict) and stored.get(DEALS_MARK) != KEYED:
        return config.dealt(config.seed or 0)
    return with_deals(config, db, create=create)


def _started(name: str, games_dir: Path, db: Path) -> bool:
    """Whether tournament ``name`` has started a game: a row in the index or a log written."""
    if any(games_dir.glob("*.jsonl")):
        return True
    if not db.exists():
        return False
    with GameIndex(db) as index:
        return bool(index.tournament_games(name))


def slot_game_id(salt: str, config: TournamentConfig, slot: Slot) -> str:
    """The id of a slot's game: the same for every try at the slot (its game is written
    once), unguessable without the tournament's salt (it says nothing about the deal)."""
    digest = hashlib.sha256(f"{salt}:{config.name}:{slot.index}".encode()).hexdigest()
    return f"{slot.variant}-{digest[:16]}"


def follow_moved_logs(index: GameIndex, name: str, games_dir: Path) -> int:
    """Point the index at the logs in ``games_dir`` of tournament ``name``'s games whose logs
    are not where it says (the folder and index were moved, or copied to the machine that
    resumes): their rows name the folder they were written in. Returns how many moved."""
    moved = 0
    for row in index.tournament_games(name):
        if row.log_path is None or Path(row.log_path).exists():
            continue
        here = games_dir / Path(row.log_path).name
        if here.exists():
            index.move_log(row.id, here)
            moved += 1
    return moved


def stored_config(index: GameIndex, name: str) -> TournamentConfig:
    """The config a tournament was played with (its copy next to the games' logs)."""
    for row in index.tournament_games(name):
        if row.log_path is None:
            continue
        copy = Path(row.log_path).parent / CONFIG_COPY
        try:
            config = parse_tournament(json.loads(copy.read_text(encoding="utf-8"))["config"])
        except (OSError, ValueError, KeyError):
            continue
        return dealt_as_stored(config, copy.parent, index.path)
    raise ConfigError(f"no tournament {name!r} with a stored config in {index.path}")


def _job(config: TournamentConfig, slot: Slot, salt: str, here: Path) -> GameJob:
    agents = slot.agents(config.seat_agents())
    fork = None
    if slot.fork is not None:  # its source log travels with it
        source = Path(slot.fork.source)
        try:
            packed = packed_file(source)
        except OSError as exc:
            raise ConfigError(f"cannot read the source game {source}: {exc.strerror}") from None
        fork = ForkJob(packed, source.name, slot.fork.at, slot.fork.seed, slot.fork.change)
    return GameJob(
        tournament=config.name,
        slot=slot.index,
        variant=slot.variant,
        seed=slot.seed,
        config=slot.config,
        agents=",".join(absolute_spec(agent, here) for agent in agents.split(",")),
        seats=slot.seats,
        settings={
            "retries": config.retries,
            "decision_timeout": config.decision_timeout,
            "on_seat_failure": config.on_seat_failure,
        },
        agent_options=absolute_options(_agent_options(config), here),
        game_id=slot_game_id(salt, config, slot),
        keep_log=True,
        keep_row=True,
        remote=dict(config.remote),
        fork=fork,
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
    env: Sequence[str] = (),
    looks: Looks | None = None,
) -> RunSummary:
    """Play every missing game of ``config``'s tournament (also those of failed slots).

    Games are logged in ``config.games_dir(base_dir)`` and indexed in ``db``, by this process
    alone. ``env`` names variables (secrets) workers get from this shell, besides the
    config's ``[execution] env``; ``looks`` are a stopping rule's planned looks. Raises
    :class:`TournamentBusy` when another live process is playing this tournament, and
    :class:`TournamentInterrupted` (with what was done) on Ctrl-C. With ``stop = "separated"``
    the looks are by default the rule's own (:func:`duskfall.arena.stopping.separation_looks`).
    """
    games_dir = config.games_dir(base_dir).resolve()
    db = Path(db).resolve()
    config = dealt_as_stored(config, games_dir, db, create=True)
    if looks is None and config.stop == "separated":
        from duskfall.arena.stopping import separation_looks  # scipy: the arena extra

        looks = separation_looks(config, db)
    try:
        games_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create {games_dir}: {exc.strerror or exc}") from None
    keep_private(games_dir, db)  # before the config's copy (its remote env) is written in it
    salt = _check_same_config(config, games_dir, db)
    variables = worker_env([*config.execution.env, *env])
    with DriverLock(games_dir, config.name) as lock, GameIndex(db) as index, SlotTable(db) as slots:
        keep_private(games_dir, db)  # the index now exists: no remote entrant reads it
        slots.take_over(config.name)  # we hold the lock: their driver is gone
        follow_moved_logs(index, config.name, games_dir)
        state = tournament_progress(config, index)
        for row in [*state.interrupted, *state.running]:  # rows of drivers before this design
            index.abandon(row.id, ABANDONED)
        releases = DealReleases(config.name, state.schedule, db)
        releases.ended(state.done)  # deals that ended before (an older index, a dead driver)
        missing = state.missing
        preflight(config, missing)
        summary = RunSummary(spending=state.spent(), lost_before=len(state.lost))
        start = time.perf_counter()
        models = uses_models(config.entrants.values())
        runner = (backend_factory or _backend_maker(config, backend, address, models, variables))()
        here = Path(os.getcwd())
        run = TournamentRun(
            config,
            [_job(config, slot, salt, here) for slot in missing],
            record=RecordWriter(games_dir, index),
            slots=slots,
            driver=lock.me.name,
            summary=summary,
            done=len(state.done),
            games_per_task=1 if models else _games_per_task(config, runner),
            progress=progress,
            looks=looks,
            releases=releases,
        )
        run.declared = set(variables.secrets)
        try:
            drive(
                runner,
                run,
                run,
                attempts=config.execution.attempts,
                game_timeout=config.execution.game_timeout,
                retry_unreached=True,
            )
        except KeyboardInterrupt:
            summary.interrupted = True
            raise TournamentInterrupted(summary) from None
        finally:
            runner.close()
            slots.stopped(config.name, lock.me.name)
            summary.seconds = time.perf_counter() - start
    return summary


def _backend_maker(
    config: TournamentConfig, backend: str, address: str | None, models: bool, variables: Any
) -> Callable[[], Backend]:
    return lambda: make_backend(
        backend,
        workers=config.workers,
        parallel=config.parallel_games,
        address=address,
        shared_limits=models,
        lease_seconds=config.execution.lease_seconds,
        env=variables,
    )


def _games_per_task(config: TournamentConfig, runner: Backend) -> int:
    """Bot games a task takes: the config's, else the backend's (1 on the event loop)."""
    return config.execution.games_per_task or runner.games_per_cpu_task


def preflight(config: TournamentConfig, slots: Sequence[Slot]) -> None:
    """Check every model-backed entrant once (one tiny request per model) on games of the
    schedule, before any game is played: an entrant that cannot play is one error line
    (:class:`~duskfall.session.SeatNotReady`), not a tournament of fallbacks."""
    unchecked = {name for name, spec in config.entrants.items() if calls_models(spec)}
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
