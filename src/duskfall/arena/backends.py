"""Where tournament games run: this process's event loop, worker processes, or a Ray cluster.

A backend takes batches of :class:`~duskfall.arena.game_job.GameJob` (``start``: a batch is
played one game after another; a tournament starts batches of one game, ``simulate`` larger
ones) and hands back finished games (``wait``: blocks until at least one batch is done). The
driver (:mod:`duskfall.arena.driver`) decides what to start next, so budgets can stop
scheduling at any point.

* ``local`` with one worker: every game is a task of one event loop, so the per-endpoint
  limits of the model layer hold across all the games of the tournament.
* ``local`` with several workers: a process pool (forked where safe) for CPU-bound bot
  games; with ``shared_limits`` the workers take endpoint slots from a manager process the
  driver starts (:mod:`duskfall.arena.shared_limits`), so the limits hold across them.
* ``ray``: each batch is a Ray task on an existing cluster (``ray.init(address=...)``); games
  write their logs and index rows where the job says, which must be a directory every node
  shares; with ``shared_limits`` every task takes endpoint slots from one named actor.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from duskfall.arena.game_job import GameJob, GameResult, play_batch, play_batch_blocking
from duskfall.arena.workers import start_method, start_worker
from duskfall.core.errors import ConfigError
from duskfall.llm.loops import share_limits

if TYPE_CHECKING:
    from duskfall.arena.shared_limits import LimitsService

BACKENDS = ("local", "ray")

Finished = list[GameResult] | BaseException  # a batch's games, or why it failed


class Backend(Protocol):
    capacity: int

    def start(self, jobs: Sequence[GameJob]) -> None: ...

    def wait(self) -> list[Finished]: ...

    def close(self) -> None: ...


class LoopBackend:
    """Games as tasks of one event loop in this process."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._loop = asyncio.new_event_loop()
        self._tasks: set[asyncio.Task[list[GameResult]]] = set()

    def start(self, jobs: Sequence[GameJob]) -> None:
        self._tasks.add(self._loop.create_task(play_batch(jobs)))

    def wait(self) -> list[Finished]:
        done, _ = self._loop.run_until_complete(
            asyncio.wait(self._tasks, return_when=asyncio.FIRST_COMPLETED)
        )
        self._tasks -= done
        return [task.exception() or task.result() for task in done]

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            self._loop.run_until_complete(asyncio.wait(self._tasks))
        self._loop.close()


class PoolBackend:
    """Games in worker processes (one batch per task)."""

    def __init__(self, workers: int, capacity: int, *, shared_limits: bool = False) -> None:
        self.capacity = max(workers, capacity)
        context = multiprocessing.get_context(start_method())
        self._limits: LimitsService | None = None
        service = None
        if shared_limits:
            from duskfall.arena.shared_limits import LimitsService

            self._limits = LimitsService(context)
            service = (self._limits.address, self._limits.authkey)
        self._pool = context.Pool(workers, start_worker, (os.getpid(), service))
        self._done: queue.Queue[Finished] = queue.Queue()

    def start(self, jobs: Sequence[GameJob]) -> None:
        self._pool.apply_async(
            play_batch_blocking, (jobs,), callback=self._done.put, error_callback=self._done.put
        )

    def wait(self) -> list[Finished]:
        out = [self._done.get()]
        while not self._done.empty():
            out.append(self._done.get_nowait())
        return out

    def close(self) -> None:
        self._pool.terminate()
        self._pool.join()
        if self._limits is not None:
            self._limits.close()


class RayBackend:
    """Games as Ray tasks (``pip install 'duskfall[ray]'``)."""

    def __init__(self, address: str | None, capacity: int, *, shared_limits: bool = False) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError("the ray backend needs Ray: pip install 'duskfall[ray]'") from None
        self._ray = ray
        if not ray.is_initialized():
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                where = address or "a local instance"
                raise ConfigError(f"cannot start or reach Ray at {where}: {exc}") from None
        self.capacity = capacity
        self._remote = ray.remote(max_retries=0)(play_batch_on_ray)
        self._pending: list[Any] = []
        self._keeper: Any = None
        self._keeper_name: str | None = None
        if shared_limits:
            from duskfall.arena.shared_limits import start_slot_keeper

            self._keeper_name = f"duskfall-limits-{secrets.token_hex(8)}"
            self._keeper = start_slot_keeper(ray, self._keeper_name)

    def start(self, jobs: Sequence[GameJob]) -> None:
        self._pending.append(self._remote.remote(list(jobs), self._keeper_name))

    def wait(self) -> list[Finished]:
        ready, self._pending = self._ray.wait(self._pending, num_returns=1)
        out: list[Finished] = []
        for ref in ready:
            try:
                out.append(self._ray.get(ref))
            except Exception as exc:
                out.append(exc)
        return out

    def close(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        if self._keeper is not None:
            self._ray.kill(self._keeper)


def play_batch_on_ray(jobs: Sequence[GameJob], keeper: str | None) -> list[GameResult]:
    """A Ray task: endpoint slots from the run's named actor ``keeper`` (if any), then the
    batch."""
    if keeper is not None:
        from duskfall.arena.shared_limits import RayLimits

        share_limits(RayLimits(keeper))
    try:
        return play_batch_blocking(jobs)
    finally:
        share_limits(None)  # the worker process may run another run's tasks next


def uses_models(specs: Iterable[str]) -> bool:
    """Whether any of these agent specs may call a model (``llm:...``, ``cognitive:...``): its
    games then need endpoint limits shared across processes."""
    return any(":" in spec for spec in specs)


def make_backend(
    name: str, *, workers: int, parallel: int, address: str | None, shared_limits: bool = False
) -> Backend:
    """The backend called ``name`` (raises ConfigError for an unknown one); ``shared_limits``
    holds endpoint limits across its processes (for games that call models)."""
    if name == "ray":
        return RayBackend(address, parallel, shared_limits=shared_limits)
    if name != "local":
        raise ConfigError(f"unknown backend {name!r}; backends: {', '.join(BACKENDS)}")
    if address is not None:
        raise ConfigError("--address is for the ray backend (add --backend ray)")
    if workers > 1:
        return PoolBackend(workers, parallel, shared_limits=shared_limits)
    return LoopBackend(parallel)
