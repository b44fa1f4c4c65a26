"""Where games run: this process's event loop, worker processes, or a Ray cluster.

Every backend plays *tasks*: a batch of :class:`~duskfall.arena.game_job.GameJob` played one
after another, started with an id (``start``), and hands back each finished task's games,
every one a :class:`~duskfall.arena.game_job.GameResult` or a
:class:`~duskfall.arena.game_job.SlotFailure`, or a :class:`TaskLost` when the task came back
without them (its worker or its node died; ``wait``, which returns within its timeout, so the
driver stays responsive). ``stop`` gives up a task. Nothing a backend runs writes the record:
results come back to the driver (:mod:`duskfall.arena.driver`), which alone writes logs and
the index. So the backends differ only in where games run:

* ``local`` with one worker: every task is a task of one event loop, so the per-endpoint
  limits of the model layer hold across all the games of the run;
* ``local`` with several workers: worker processes (:class:`~duskfall.arena.workers.WorkerPool`,
  forked where safe) for CPU-bound bot games; with ``shared_limits`` they lease endpoint
  slots from a manager process the driver starts (:mod:`duskfall.arena.shared_limits`);
* ``ray``: each task is a Ray task on a cluster (:mod:`duskfall.arena.ray_backend`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Iterable, Sequence
from typing import Protocol

from duskfall.agents.kinds import calls_models
from duskfall.agents.specs import agents_of
from duskfall.arena.game_job import GameJob, Played, play_batch, play_batch_blocking
from duskfall.arena.leases import DEFAULT_TTL
from duskfall.arena.shared_limits import LimitsService
from duskfall.arena.worker_env import WorkerEnv
from duskfall.arena.workers import TaskLost, WorkerPool, start_method
from duskfall.core.errors import ConfigError

BACKENDS = ("local", "ray")

Finished = list[Played] | TaskLost  # a task's games, or why it has none


class Backend(Protocol):
    capacity: int  # tasks it keeps going at once
    games_per_cpu_task: int  # how many bot games a task may take (1: one game a task)

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None: ...

    def wait(self, timeout: float) -> list[tuple[int, Finished]]: ...

    def stop(self, task_id: int) -> None: ...

    def close(self) -> None: ...


class LoopBackend:
    """Games as tasks of one event loop in this process."""

    games_per_cpu_task = 1  # one process: batches would only delay the results

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._loop = asyncio.new_event_loop()
        self._tasks: dict[asyncio.Task[list[Played]], int] = {}

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None:
        task = self._loop.create_task(play_batch(jobs, compress=False))
        self._tasks[task] = task_id

    def wait(self, timeout: float) -> list[tuple[int, Finished]]:
        if not self._tasks:
            return []
        done, _ = self._loop.run_until_complete(
            asyncio.wait(self._tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        )
        out: list[tuple[int, Finished]] = []
        for task in done:
            task_id = self._tasks.pop(task)
            error = task.exception()
            out.append((task_id, TaskLost(f"{error}") if error else task.result()))
        return out

    def stop(self, task_id: int) -> None:
        for task, started in list(self._tasks.items()):
            if started == task_id:
                task.cancel()
                del self._tasks[task]

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            self._loop.run_until_complete(asyncio.wait(self._tasks))
        self._loop.close()


class PoolBackend:
    """Games in worker processes (one task per worker at a time; two per worker queued)."""

    def __init__(
        self,
        workers: int,
        capacity: int,
        *,
        shared_limits: bool = False,
        lease_seconds: float = DEFAULT_TTL,
        games_per_task: int = 16,
    ) -> None:
        self.capacity = max(2 * workers, capacity)
        self.games_per_cpu_task = games_per_task
        context = multiprocessing.get_context(start_method())
        self._limits: LimitsService | None = None
        if shared_limits:
            self._limits = LimitsService(context, lease_seconds)
        connection = self._limits.connection if self._limits is not None else None
        self._pool = WorkerPool(workers, play_batch_blocking, context=context, limits=connection)

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None:
        self._pool.submit(task_id, list(jobs))

    def wait(self, timeout: float) -> list[tuple[int, Finished]]:
        return self._pool.wait(timeout)

    def stop(self, task_id: int) -> None:
        self._pool.stop(task_id)

    def close(self) -> None:
        self._pool.close()
        if self._limits is not None:
            self._limits.close()


def uses_models(specs: Iterable[str]) -> bool:
    """Whether any of these agent specs may call a model (``llm:...``, ``cognitive:...``, a
    ``mix:`` holding one; see :func:`~duskfall.agents.kinds.calls_models`): its games then need
    endpoint limits shared across processes, and are played one per task."""
    return any(calls_models(agent) for spec in specs for agent in agents_of(spec))


def make_backend(
    name: str,
    *,
    workers: int,
    parallel: int,
    address: str | None,
    shared_limits: bool = False,
    lease_seconds: float = DEFAULT_TTL,
    env: WorkerEnv | None = None,
) -> Backend:
    """The backend called ``name`` (raises ConfigError for an unknown one); ``shared_limits``
    holds endpoint limits across its processes (for games that call models), as leases of
    ``lease_seconds``; ``env`` (declared variables, absolute paths) reaches Ray's workers (a
    pool's workers inherit this process's environment)."""
    if name == "ray":
        from duskfall.arena.ray_backend import RayBackend

        return RayBackend(
            address,
            parallel,
            shared_limits=shared_limits,
            lease_seconds=lease_seconds,
            env=env,
        )
    if name != "local":
        raise ConfigError(f"unknown backend {name!r}; backends: {', '.join(BACKENDS)}")
    if address is not None:
        raise ConfigError("--address is for the ray backend (add --backend ray)")
    if workers > 1:
        return PoolBackend(
            workers, parallel, shared_limits=shared_limits, lease_seconds=lease_seconds
        )
    return LoopBackend(parallel)
