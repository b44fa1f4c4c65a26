"""Resume: continue a game whose process died (kill -9, power loss) from its log.

The store repairs and checks the log (:func:`duskfall.store.resume.open_for_resume`: a torn
last line is cut, damage in the middle refused, a game still running elsewhere refused);
the recorded actions are re-applied to fresh rules (which also verifies the log); then the game
is planned and assembled exactly like a new one (:func:`duskfall.session.game.plan_seats`:
participants from the header's roster; :func:`duskfall.session.game.assemble`: log appended
to, index row caught up, seat feeds) and the scheduler
continues. Rules events the last actions produced but the log had not received yet are
appended first. Seats of a half-settled simultaneous decision that had already acted are not
asked again: ``pending()`` names only the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.core.errors import ConfigError, LogCorrupt
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.llm.preflight import Announce
from duskfall.runtime.participant import Player
from duskfall.runtime.record import Observer
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session.game import (
    GamePlan,
    PreparedGame,
    RunOptions,
    assemble,
    options_of,
    plan_seats,
)
from duskfall.session.participants import SeatAgentError
from duskfall.store.log import GameLog, truncate_to_whole_events
from duskfall.store.replay import replay
from duskfall.store.resume import CannotResume, log_path_for, open_for_resume

__all__ = [
    "CannotResume",
    "ResumePlan",
    "ResumedGame",
    "log_path_for",
    "plan_resume",
    "prepare_resume",
    "resume_game",
]


@dataclass
class ResumedGame:
    """A resumable game ready to run, and what was found in its log."""

    game: PreparedGame
    kept_events: int
    repaired: LogCorrupt | None
    waiting: list[int]

    async def run(self) -> Outcome:
        return await self.game.run()


@dataclass
class ResumePlan:
    """A resumable game planned from its log; the log is not touched until :meth:`start`
    (``await plan.preflight()`` first checks its model-backed seats)."""

    plan: GamePlan
    log: GameLog
    unrecorded: list[Event]

    async def preflight(self, announce: Announce | None = None) -> None:
        """Check every model-backed seat once (raises SeatNotReady naming seats and fix)."""
        await self.plan.preflight(announce)

    def start(self) -> ResumedGame:
        """Repair the log (a torn last line), assemble the game and catch its log up."""
        plan, log = self.plan, self.log
        assert plan.log_path is not None
        if log.corrupt is not None:
            truncate_to_whole_events(plan.log_path, log)
        game = assemble(plan)
        game.scheduler.started = True
        game.record.extend(self.unrecorded)
        state = plan.state
        waiting = sorted({d.seat for d in state.pending()}) if state.outcome() is None else []
        return ResumedGame(game, len(log.events), log.corrupt, waiting)


def prepare_resume(path: str | Path, **options: Any) -> ResumedGame:
    """Repair and re-apply the log at ``path`` and build the scheduler that continues it.

    Options: ``participants`` replaces the roster's agent for some seats (e.g. reconnected
    remote players); ``settings``, ``agent_options``, ``observers``, ``force``. Raises
    :class:`CannotResume`, ``LogCorrupt`` or ``ReplayMismatch``.
    """
    return plan_resume(path, **options).start()


def plan_resume(
    path: str | Path,
    *,
    participants: Mapping[int, Player] | None = None,
    settings: RuntimeSettings | None = None,
    agent_options: Mapping[str, Any] | None = None,
    observers: Sequence[Observer] = (),
    force: bool = False,
) -> ResumePlan:
    """The game logged at ``path``, re-applied and planned (see :func:`prepare_resume`);
    nothing is written until :meth:`ResumePlan.start`."""
    path = Path(path)
    log = open_for_resume(path, force=force)
    header = log.header
    try:
        result = replay(log)
    except ConfigError:
        raise CannotResume(
            f"{path}: variant {header.variant!r} has no rules engine here; it cannot be resumed"
        ) from None
    roster = {int(entry["seat"]): str(entry["agent"]) for entry in header.roster}
    agents = [roster.get(seat, "unknown") for seat in range(result.state.num_seats)]
    run_options = RunOptions(settings or RuntimeSettings(), tuple(observers))
    try:
        plan = plan_seats(
            result.variant,
            result.state,
            header,
            agents,
            path,
            run_options,
            players=participants,
            agent_options={**options_of(header), **(agent_options or {})},
            events=log.events,
        )
    except SeatAgentError as exc:
        raise CannotResume(
            f"seat {exc.seat} was played by {exc.agent!r}, which cannot be re-created here "
            f"({exc.reason})"
        ) from None
    return ResumePlan(plan, log, list(result.unrecorded))


async def resume_game(path: str | Path, **options: Any) -> ResumedGame:
    """Resume the game logged at ``path`` and play it to its end (see :func:`prepare_resume`)."""
    resumed = prepare_resume(path, **options)
    await resumed.run()
    return resumed
