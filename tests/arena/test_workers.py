"""The worker pool: a worker that dies loses only its task, which comes back at once as lost
(with how it died), and a new worker takes its place."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

from duskfall.arena.workers import TaskLost, WorkerPool


def _work(task: str) -> str:
    if task == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if task == "hang":
        time.sleep(60)
    return task.upper()


def _collect(pool: WorkerPool, count: int) -> dict[int, object]:
    found: dict[int, object] = {}
    deadline = time.monotonic() + 30
    while len(found) < count and time.monotonic() < deadline:
        found.update(pool.wait(0.5))
    return found


def test_a_dead_worker_loses_only_its_task_and_is_replaced() -> None:
    pool = WorkerPool(2, _work, context=multiprocessing.get_context("fork"))
    try:
        for task_id, task in enumerate(["a", "die", "b", "c"]):
            pool.submit(task_id, task)
        found = _collect(pool, 4)
        assert found[0] == "A" and found[2] == "B" and found[3] == "C"
        assert found[1] == TaskLost("its worker process died (killed by SIGKILL)")
        pool.submit(9, "after")  # the pool still has two workers
        pool.submit(10, "more")
        assert _collect(pool, 2) == {9: "AFTER", 10: "MORE"}
    finally:
        pool.close()


def test_a_stopped_task_never_comes_back() -> None:
    pool = WorkerPool(1, _work, context=multiprocessing.get_context("fork"))
    try:
        pool.submit(1, "hang")
        pool.submit(2, "next")
        assert pool.wait(0.2) == []
        pool.stop(1)
        assert _collect(pool, 1) == {2: "NEXT"}
    finally:
        pool.close()
