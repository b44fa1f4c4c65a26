"""Worker processes of the process-pool backend: how many, how they start, how they end, and
the pool that hands them tasks and notices when one dies.

Workers are forked where that is safe (Linux, no other thread in this process): they start at
once, with everything already imported. At most :func:`max_workers` processes are started,
and each one exits as soon as the process that started it is gone (no orphans). They ignore
Ctrl-C: the terminal sends it to the whole process group, and the driver answers it (it stops
them itself).

:class:`WorkerPool` gives each worker one task at a time over its own pipe, so a worker that
dies (killed, out of memory) loses only the task it was playing: that task comes back as
:class:`TaskLost` at once, and a new worker takes the dead one's place.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import Any

from duskfall.arena.lifeline import exit_with_parent
from duskfall.arena.shared_limits import share_pool_limits


def max_workers() -> int:
    """The most worker processes a run starts: 4 per CPU, at least 8, at most 64."""
    return min(64, max(8, 4 * (os.cpu_count() or 1)))


def start_method() -> str:
    """``fork`` on Linux when this process runs no other thread (a fork copies no lock held
    by another thread then): workers start in milliseconds instead of importing everything
    again; ``spawn`` otherwise."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def start_worker(parent: int, limits: tuple[tuple[str, int], bytes, float] | None = None) -> None:
    """Worker initialiser: ignore Ctrl-C (the driver stops its workers), exit with ``parent``;
    leave the start-up heap out of the garbage collector's full scans (``gc.freeze``: it is
    never garbage); take endpoint limits from the driver's service at ``limits`` (address,
    key, lease time), if given."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    exit_with_parent(parent)
    if limits is not None:
        share_pool_limits(limits)


@dataclass(frozen=True)
class TaskLost:
    """A task that came back without its games: one line saying why."""

    reason: str


def _serve(connection: Connection, work: Callable[[Any], Any], parent: int, limits: Any) -> None:
    """A worker's life: take a task, send its result back, until the pipe closes."""
    start_worker(parent, limits)
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        try:
            result: Any = work(task)
        except Exception as exc:  # the work guards each game; this is a bug outside them
            result = TaskLost(f"the worker failed: {type(exc).__name__}: {exc}")
        connection.send(result)


@dataclass
class _Worker:
    process: Any
    connection: Connection
    task: int | None = None


class WorkerPool:
    """``size`` worker processes running ``work(task)``, one task each at a time."""

    def __init__(
        self,
        size: int,
        work: Callable[[Any], Any],
        *,
        context: BaseContext,
        limits: tuple[tuple[str, int], bytes, float] | None = None,
    ) -> None:
        self._work = work
        self._context = context
        self._limits = limits
        self._queue: deque[tuple[int, Any]] = deque()
        self._workers: list[_Worker] = [self._spawn() for _ in range(size)]
        self._stopped: set[int] = set()

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=_serve,
            args=(theirs, self._work, os.getpid(), self._limits),
            name="duskfall-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        return _Worker(process, ours)

    def submit(self, task_id: int, task: Any) -> None:
        """Play ``task`` on the next idle worker (queued until one is)."""
        self._queue.append((task_id, task))
        self._dispatch()

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not self._queue:
                return
            if worker.task is None:
                worker.task, task = self._queue.popleft()
                worker.connection.send(task)

    def wait(self, timeout: float) -> list[tuple[int, Any]]:
        """Tasks finished within ``timeout`` seconds: (task id, result or :class:`TaskLost`)."""
        busy = [w for w in self._workers if w.task is not None]
        if not busy:
            if timeout > 0:
                time.sleep(min(timeout, 0.05))
            return []
        watched: dict[Any, _Worker] = {}
        for worker in busy:
            watched[worker.connection] = worker
            watched[worker.process.sentinel] = worker
        finished: list[tuple[int, Any]] = []
        for ready in wait(list(watched), timeout):
            worker = watched[ready]
            if worker.task is None:
                continue  # its pipe and its sentinel both woke us
            task_id = worker.task
            result = self._receive(worker)
            if task_id not in self._stopped:
                finished.append((task_id, result))
            self._stopped.discard(task_id)
        self._dispatch()
        return finished

    def _receive(self, worker: _Worker) -> Any:
        """The result of ``worker``'s task, or why it has none (the worker is then replaced)."""
        worker.task = None
        if worker.process.is_alive() or worker.connection.poll():
            try:
                return worker.connection.recv()
            except (EOFError, OSError):
                pass
        worker.process.join(5)
        code = worker.process.exitcode
        self._replace(worker)
        return TaskLost(f"its worker process died ({_exit_text(code)})")

    def _replace(self, worker: _Worker) -> None:
        worker.connection.close()
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(5)
        self._workers[self._workers.index(worker)] = self._spawn()

    def stop(self, task_id: int) -> None:
        """Give up ``task_id``: its worker is killed (and replaced); no result comes back."""
        self._queue = deque(item for item in self._queue if item[0] != task_id)
        for worker in self._workers:
            if worker.task == task_id:
                self._stopped.add(task_id)
                worker.process.kill()

    def close(self) -> None:
        for worker in self._workers:
            worker.connection.close()
            if worker.process.is_alive():
                worker.process.kill()
        for worker in self._workers:
            worker.process.join(5)


def _exit_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
