"""The driver loop shared by tournaments and ``simulate``: keep a backend busy with tasks of
games, hand every played game to the record, play a failed slot again.

Slots are idempotent: a game is keyed by its slot and played from its start with its seed,
so playing a slot again gives the same game. A slot whose task was lost (its worker or node
died, or it ran past ``game_timeout`` seconds a game), whose game failed, or (with
``retry_unreached``) whose game fell back because a model endpoint never answered, is played
again, up to ``attempts`` tries in all; then it is given up, with the reason. The loop never
blocks for long (``tick``): a Ctrl-C (KeyboardInterrupt) reaches the caller at once, with
every task still in flight left to the caller's ``finally`` (``backend.close()``).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from duskfall.arena.backends import Backend, Finished
from duskfall.arena.game_job import GameJob, GameResult, SlotFailure
from duskfall.arena.workers import TaskLost

TICK = 0.5  # seconds the loop waits for a task before it looks around again


class Plan(Protocol):
    """What to play: batches of jobs, in order; slots to play again go to its front."""

    def take(self, idle: bool) -> Sequence[GameJob] | None:
        """The next task's jobs; None or empty to start nothing now (and, when ``idle``,
        nothing is in flight, to end the run)."""

    def again(self, job: GameJob) -> None:
        """Play ``job``'s slot again (it failed; it has tries left)."""


class Sink(Protocol):
    """Where played games and failed attempts go (the record)."""

    def played(self, results: list[GameResult]) -> None:
        """Games played (one task's): record them."""

    def failed(self, job: GameJob, failure: SlotFailure, final: bool) -> None:
        """A try at ``job``'s slot failed (``final``: no try is left)."""


def drive(
    runner: Backend,
    plan: Plan,
    sink: Sink,
    *,
    attempts: int = 1,
    game_timeout: float | None = None,
    retry_unreached: bool = False,
    tick: float = TICK,
) -> None:
    """Start tasks from ``plan`` while ``runner`` has room, hand what comes back to ``sink``,
    until the plan has nothing more and nothing is in flight."""
    tasks: dict[int, tuple[Sequence[GameJob], float]] = {}
    failures: Counter[int] = Counter()  # slot -> failed tries
    ids = itertools.count()

    def give_up_or_again(job: GameJob, failure: SlotFailure) -> None:
        failures[job.slot] += 1
        final = failures[job.slot] >= attempts
        sink.failed(job, failure, final)
        if not final:
            plan.again(job)

    def settle(jobs: Sequence[GameJob], finished: Finished) -> None:
        if isinstance(finished, TaskLost):
            for job in jobs:
                give_up_or_again(job, SlotFailure(job.slot, finished.reason))
            return
        by_slot = {job.slot: job for job in jobs}
        played: list[GameResult] = []
        for outcome in finished:
            job = by_slot.pop(outcome.slot)
            if isinstance(outcome, SlotFailure):
                give_up_or_again(job, outcome)
            elif retry_unreached and outcome.unreached is not None:
                reason = f"a model endpoint could not be reached: {outcome.unreached}"
                give_up_or_again(
                    job, SlotFailure(job.slot, reason, outcome.node, outcome.total, outcome.files)
                )
            else:
                played.append(outcome)
        if played:
            sink.played(played)
        for job in by_slot.values():  # a batch always answers for all its jobs; in case not
            give_up_or_again(job, SlotFailure(job.slot, "its task came back without it"))

    while True:
        while len(tasks) < runner.capacity:
            batch = plan.take(idle=not tasks)
            if not batch:
                break
            task_id = next(ids)
            runner.start(task_id, batch)
            tasks[task_id] = (batch, time.monotonic())
        if not tasks:
            return
        for task_id, finished in runner.wait(tick):
            jobs, _ = tasks.pop(task_id)
            settle(jobs, finished)
        if game_timeout is not None:
            now = time.monotonic()
            for task_id, (jobs, started) in list(tasks.items()):
                if now - started > game_timeout * len(jobs):
                    runner.stop(task_id)
                    del tasks[task_id]
                    settle(jobs, TaskLost(f"a game ran longer than {game_timeout:g}s"))
