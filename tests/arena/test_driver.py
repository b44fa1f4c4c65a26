"""The driver loop: slots played again when their task is lost, their game fails or falls back
for an unreachable endpoint; given up with the reason after their tries; a task that hangs
given up after its time; every played game handed to the record once."""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from duskfall.arena.backends import Finished
from duskfall.arena.driver import drive
from duskfall.arena.game_job import GameJob, GameResult, SlotFailure
from duskfall.arena.workers import TaskLost


def _job(slot: int) -> GameJob:
    return GameJob("sports-mafia", slot, {}, "random", (), {}, slot=slot)


def _played(job: GameJob, **fields: Any) -> GameResult:
    return GameResult(job.slot, f"g{job.slot}", "RED", "win", {}, seed=job.seed, **fields)


class Scripted:
    """A backend whose tasks end as ``script(try number, jobs)`` says (None: never)."""

    games_per_cpu_task = 1

    def __init__(self, script: Callable[[int, Sequence[GameJob]], Finished | None]) -> None:
        self.capacity = 2
        self.script = script
        self.tries: dict[int, int] = {}
        self.running: dict[int, Sequence[GameJob]] = {}
        self.stopped: list[int] = []

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None:
        self.running[task_id] = jobs

    def wait(self, timeout: float) -> list[tuple[int, Finished]]:
        out = []
        for task_id, jobs in list(self.running.items()):
            tries = self.tries[jobs[0].slot] = self.tries.get(jobs[0].slot, 0) + 1
            finished = self.script(tries, jobs)
            if finished is not None:
                del self.running[task_id]
                out.append((task_id, finished))
        if not out:
            time.sleep(timeout)
        return out

    def stop(self, task_id: int) -> None:
        self.stopped.append(task_id)
        self.running.pop(task_id, None)

    def close(self) -> None:
        pass


class Run:
    """Plan and sink: the slots in order, what came back."""

    def __init__(self, slots: int, per_task: int = 1) -> None:
        self.queue = deque(_job(slot) for slot in range(slots))
        self.per_task = per_task
        self.played: list[int] = []
        self.failures: list[tuple[int, str, bool]] = []

    def take(self, idle: bool) -> list[GameJob] | None:
        batch = [self.queue.popleft() for _ in range(min(self.per_task, len(self.queue)))]
        return batch or None

    def again(self, job: GameJob) -> None:
        self.queue.appendleft(job)

    def played_games(self, results: list[GameResult]) -> None:
        self.played += [result.slot for result in results]

    def failed(self, job: GameJob, failure: SlotFailure, final: bool) -> None:
        self.failures.append((job.slot, failure.reason, final))


class Sink:
    def __init__(self, run: Run) -> None:
        self.run = run

    def played(self, results: list[GameResult]) -> None:
        self.run.played_games(results)

    def failed(self, job: GameJob, failure: SlotFailure, final: bool) -> None:
        self.run.failed(job, failure, final)


def test_a_lost_task_is_played_again_and_a_hopeless_slot_given_up_with_its_reason() -> None:
    def script(tries: int, jobs: Sequence[GameJob]) -> Finished:
        slot = jobs[0].slot
        if slot == 1 and tries == 1:
            return TaskLost("its worker process died (killed by SIGKILL)")
        if slot == 2:
            return [SlotFailure(2, "ConfigError: no such model", "node-b")]
        return [_played(job) for job in jobs]

    run = Run(4)
    drive(Scripted(script), run, Sink(run), attempts=3)
    assert sorted(run.played) == [0, 1, 3]
    assert run.failures == [
        (1, "its worker process died (killed by SIGKILL)", False),
        (2, "ConfigError: no such model", False),
        (2, "ConfigError: no such model", False),
        (2, "ConfigError: no such model", True),
    ]


def test_a_game_whose_endpoint_never_answered_is_played_again_not_counted() -> None:
    def script(tries: int, jobs: Sequence[GameJob]) -> Finished:
        unreached = "cannot reach http://127.0.0.1:9/v1" if tries == 1 else None
        return [_played(job, fallbacks=3 if unreached else 0, unreached=unreached) for job in jobs]

    counted = Run(2)
    drive(Scripted(script), counted, Sink(counted), attempts=3)
    assert sorted(counted.played) == [0, 1] and not counted.failures  # simulate keeps them
    retried = Run(2)
    drive(Scripted(script), retried, Sink(retried), attempts=3, retry_unreached=True)
    assert sorted(retried.played) == [0, 1]
    assert [(slot, final) for slot, _, final in retried.failures] == [(0, False), (1, False)]
    assert "could not be reached: cannot reach" in retried.failures[0][1]


def test_a_task_that_never_ends_is_given_up_after_its_time_and_played_again() -> None:
    first: list[Sequence[GameJob]] = []

    def script(tries: int, jobs: Sequence[GameJob]) -> Finished | None:
        if not first or first[0] is jobs:  # the first task hangs
            first[:1] = [jobs]
            return None
        return [_played(job) for job in jobs]

    backend = Scripted(script)
    run = Run(2, per_task=2)
    drive(backend, run, Sink(run), attempts=2, game_timeout=0.01, tick=0.01)
    assert backend.stopped  # the hung task was stopped
    assert run.failures[0][1] == "a game ran longer than 0.01s"
    assert sorted(run.played) == [0, 1]


def test_a_batch_answers_for_every_one_of_its_games() -> None:
    def script(tries: int, jobs: Sequence[GameJob]) -> Finished:
        return [_played(jobs[0])] if tries == 1 else [_played(job) for job in jobs]

    run = Run(3, per_task=3)
    drive(Scripted(script), run, Sink(run), attempts=3)
    assert sorted(run.played) == [0, 1, 2]
    assert {reason for _, reason, _ in run.failures} == {"its task came back without it"}


def test_ctrl_c_reaches_the_caller_at_once() -> None:
    def script(tries: int, jobs: Sequence[GameJob]) -> Finished:
        raise KeyboardInterrupt

    run = Run(3)
    with pytest.raises(KeyboardInterrupt):
        drive(Scripted(script), run, Sink(run))


def test_results_keep_their_games_fields() -> None:
    job = _job(5)
    result = dataclasses.replace(_played(job), node="node-b")
    assert result.node == "node-b" and result.total.total_tokens == 0


def test_every_game_of_a_lost_batch_is_played_again() -> None:
    lost = [False]

    def script(tries: int, jobs: Sequence[GameJob]) -> Finished:
        if len(jobs) == 3 and not lost[0]:
            lost[0] = True
            return TaskLost("the node running it died or became unreachable (NodeDiedError)")
        return [_played(job) for job in jobs]

    run = Run(3, per_task=3)
    drive(Scripted(script), run, Sink(run), attempts=2)
    assert sorted(run.played) == [0, 1, 2]
    assert sorted(slot for slot, _, final in run.failures if not final) == [0, 1, 2]
