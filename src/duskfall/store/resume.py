"""Resume: continue a game whose process died (kill -9, power loss) from its log.

1. Read the log leniently; a torn or corrupt last line is cut off (everything before it is kept
   byte for byte). Damage in the middle of a log is refused: cutting there would lose events.
2. Re-apply the recorded actions to a fresh state (:func:`~duskfall.store.replay.replay`), which
   also checks the log against the rules. Rules events that the last actions produced but the
   log had not received yet are appended first.
3. Re-create each seat's participant from the header's roster (bots with their seeds, so a bot's
   memory restarts), and continue with the scheduler: the record carries on the ``seq``
   numbering and the log writer appends. Seats of a half-settled simultaneous decision that
   had already acted are not asked again: ``pending()`` names only the others.

The finished log then replays exactly like a game that was never interrupted.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.agents.specs import AgentContext, make_participant
from duskfall.core.errors import ConfigError, DuskfallError, LogCorrupt
from duskfall.runtime.game import OBSERVER_FACTORIES, GameSetup, PreparedGame
from duskfall.runtime.participant import Participant
from duskfall.runtime.record import GameRecord, Observer
from duskfall.runtime.scheduler import Scheduler
from duskfall.runtime.settings import RuntimeSettings
from duskfall.store.index import GameIndex, UnknownGame, default_db_path
from duskfall.store.indexing import IndexObserver
from duskfall.store.log import GameLog, LogWriter, read_log, truncate_to_whole_events
from duskfall.store.replay import ReplayResult, replay


class CannotResume(DuskfallError):
    """This game cannot be continued (already over, still running, unknown agents...)."""


@dataclass
class ResumedGame:
    """A resumable game ready to run, and what was found in its log."""

    game: PreparedGame
    kept_events: int
    repaired: LogCorrupt | None
    waiting: list[int]

    async def run(self) -> Any:
        return await self.game.run()


def log_path_for(target: str, db: str | Path | None = None) -> Path:
    """A log path given either a path or a game id looked up in the index."""
    path = Path(target)
    if path.suffix == ".jsonl" or path.exists():
        return path
    index_path = db if db is not None else default_db_path()
    if index_path is None:
        raise CannotResume(f"{target}: no such log file (and the game index is off)")
    with GameIndex(index_path) as index:
        try:
            row = index.get(target)
        except UnknownGame as exc:
            raise CannotResume(f"{target}: no such log file, and {exc}") from None
    if row.log_path is None:
        raise CannotResume(f"game {row.id} was simulated without a log; it cannot be resumed")
    return Path(row.log_path)


def _load(path: Path) -> GameLog:
    log = read_log(path, strict=False)
    if log.finished:
        outcome = log.outcome
        result = f" ({outcome.winner or 'draw'}, {outcome.termination.value})" if outcome else ""
        raise CannotResume(f"game {log.header.game_id} is already over{result}; nothing to resume")
    return log


def _check_damage_is_at_the_end(path: Path, log: GameLog) -> None:
    """Only a damaged *last* line is cut on resume; whole events after a bad line are kept."""
    if log.corrupt is None:
        return
    after_bad_line = path.read_bytes().split(b"\n")[2 + len(log.events) :]
    if any(line.strip() for line in after_bad_line):
        raise CannotResume(
            f"{log.corrupt}, and more lines follow it; repair the log by hand "
            "(resume only cuts a damaged last line)"
        )


def _check_not_running(game_id: str, force: bool) -> None:
    db = default_db_path()
    if force or db is None or not db.exists():
        return
    with GameIndex(db) as index:
        try:
            row = index.get(game_id)
        except DuskfallError:
            return
    if row.pid != os.getpid() and row.process_alive:
        raise CannotResume(
            f"game {game_id} is still running in process {row.pid}; "
            "stop it first (or pass --force if that process is not a duskfall game)"
        )


def _participants(
    result: ReplayResult,
    log: GameLog,
    given: Mapping[int, Participant],
    options: Mapping[str, Any],
) -> tuple[dict[int, Participant], list[str]]:
    roster = {int(entry["seat"]): str(entry["agent"]) for entry in log.header.roster}
    num_seats = result.state.num_seats
    participants: dict[int, Participant] = {}
    agents: list[str] = []
    for seat in range(num_seats):
        agent = roster.get(seat, "unknown")
        if seat in given:
            participants[seat] = given[seat]
        else:
            context = AgentContext(result.variant, seat, log.header.seed, "", dict(options))
            try:
                participants[seat] = make_participant(agent, context)
            except ConfigError as exc:
                raise CannotResume(
                    f"seat {seat} was played by {agent!r}, which cannot be re-created here ({exc})"
                ) from None
        agents.append(agent)
    return participants, agents


def prepare_resume(
    path: str | Path,
    *,
    participants: Mapping[int, Participant] | None = None,
    settings: RuntimeSettings | None = None,
    agent_options: Mapping[str, Any] | None = None,
    observers: Sequence[Observer] = (),
    force: bool = False,
) -> ResumedGame:
    """Repair and re-apply the log at ``path`` and build the scheduler that continues it.

    ``participants`` replaces the roster's agent for some seats (e.g. reconnected remote
    players). Raises :class:`CannotResume`, ``LogCorrupt`` or ``ReplayMismatch``.
    """
    path = Path(path)
    log = _load(path)
    header = log.header
    _check_damage_is_at_the_end(path, log)
    _check_not_running(header.game_id, force)
    try:
        result = replay(log)
    except ConfigError:
        raise CannotResume(
            f"{path}: variant {header.variant!r} has no rules engine here; it cannot be resumed"
        ) from None
    new_participants, agents = _participants(result, log, participants or {}, agent_options or {})
    if log.corrupt is not None:
        truncate_to_whole_events(path, log)
    all_observers: list[Observer] = [LogWriter(path, append=True)]
    for factory in OBSERVER_FACTORIES:
        extra = factory(header, path)
        if isinstance(extra, IndexObserver):
            extra.catch_up(log.events)
        if extra is not None:
            all_observers.append(extra)
    all_observers.extend(observers)
    record = GameRecord(header.game_id, all_observers)
    record.events = list(log.events)
    state = result.state
    scheduler = Scheduler(
        result.variant, state, new_participants, record, seed=header.seed, settings=settings
    )
    scheduler.started = True
    record.extend(result.unrecorded)
    setup = GameSetup(
        variant=header.variant,
        seed=header.seed,
        agents=",".join(agents),
        config=header.config,
        game_id=header.game_id,
        log_path=path,
        settings=scheduler.settings,
        participants=dict(participants or {}),
        agent_options=dict(agent_options or {}),
        observers=tuple(observers),
    )
    game = PreparedGame(setup, result.variant, state, scheduler, record, header, path, agents)
    waiting = sorted({d.seat for d in state.pending()}) if state.outcome() is None else []
    return ResumedGame(game, len(log.events), log.corrupt, waiting)


async def resume_game(path: str | Path, **options: Any) -> ResumedGame:
    """Resume the game logged at ``path`` and play it to its end (see :func:`prepare_resume`)."""
    resumed = prepare_resume(path, **options)
    await resumed.run()
    return resumed
