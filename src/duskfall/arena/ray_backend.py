"""The ``ray`` backend: tasks of games on a Ray cluster (``pip install 'duskfall[ray]'``).

The driver connects to a cluster (``ray.init(address=...)``) and sends each task (a batch of
games) as a Ray task, spread over the nodes. A task plays its games and returns their results
and records to the driver; it writes nothing on the node it ran on. What can go wrong is
told in one line: a task whose worker or node died comes back as
:class:`~duskfall.arena.workers.TaskLost` (the driver plays its slots again), and a game that
failed comes back as a :class:`~duskfall.arena.game_job.SlotFailure`, never as an exception
Ray would have to carry (whose class the driver may not even be able to unpickle).

Secrets: the values of the variables a run declares (``--env NAME``, ``env = [...]``) are
sent with each task (:class:`~duskfall.arena.worker_env.WorkerEnv`) and set in the worker's
environment there. They are not put in Ray's ``runtime_env``: Ray's runtime-env agent writes
the ``env_vars`` it is given, values and all, into its log file on every node
(``runtime_env_agent.log``), and nothing of a secret may reach a log.
"""

from __future__ import annotations

import logging
import secrets as random_tokens
from collections.abc import Callable, Sequence
from typing import Any

from duskfall.arena.game_job import GameJob, Played, play_batch_blocking
from duskfall.arena.leases import DEFAULT_TTL
from duskfall.arena.worker_env import WorkerEnv
from duskfall.arena.workers import TaskLost
from duskfall.core.errors import ConfigError
from duskfall.llm.loops import share_limits

Finished = list[Played] | TaskLost
log = logging.getLogger(__name__)

# Ray's exceptions for a task that came back without its result, in words
_LOST = {
    "NodeDiedError": "the node running it died or became unreachable",
    "WorkerCrashedError": "its worker process died",
    "OwnerDiedError": "the process that owned it died",
    "ObjectLostError": "its result was lost with the node that held it",
    "ObjectFetchTimedOutError": "its result could not be fetched from its node",
    "TaskCancelledError": "it was cancelled",
    "OutOfMemoryError": "its node ran out of memory",
    "RuntimeEnvSetupError": "its node could not set up the Python environment",
    "TaskUnschedulableError": "no node can run it",
}


def lost_reason(exc: BaseException) -> str:
    """One line for a Ray error that cost a task its result."""
    for kind in type(exc).__mro__:
        words = _LOST.get(kind.__name__)
        if words is not None:
            return f"{words} ({kind.__name__})"
    first = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {first[0][:200] if first else ''}".rstrip(": ")


def play_on_ray(
    jobs: Sequence[GameJob], keeper: str | None, ttl: float, env: WorkerEnv
) -> list[Played]:
    """A Ray task: the run's variables in the environment, endpoint slots leased from the
    run's actor ``keeper`` (if any), then the batch."""
    env.apply()
    if keeper is not None:
        from duskfall.arena.shared_limits import RayLimits

        share_limits(RayLimits(keeper, ttl))
    try:
        return play_batch_blocking(jobs)
    finally:
        share_limits(None)  # the worker process may run another run's tasks next


class RayBackend:
    """Tasks of games on a Ray cluster."""

    games_per_cpu_task = 32

    def __init__(
        self,
        address: str | None,
        capacity: int,
        *,
        shared_limits: bool = False,
        lease_seconds: float = DEFAULT_TTL,
        env: WorkerEnv | None = None,
    ) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError("the ray backend needs Ray: pip install 'duskfall[ray]'") from None
        self._ray = ray
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            try:
                ray.init(
                    address=address,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
            except (ConnectionError, ValueError, RuntimeError, TimeoutError) as exc:
                where = address or "a local instance"
                first = str(exc).strip().splitlines()
                raise ConfigError(
                    f"cannot start or reach Ray at {where}: {first[0] if first else exc}"
                ) from None
        self._quiet = _cluster_messages_to_log(ray)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.capacity = max(capacity, 2 * cpus)
        self._remote = ray.remote(max_retries=0, scheduling_strategy="SPREAD")(play_on_ray)
        self._pending: dict[Any, int] = {}  # object ref -> task id
        self._env = env or WorkerEnv({})
        self._ttl = lease_seconds
        self._keeper: Any = None
        self._keeper_name: str | None = None
        if shared_limits:
            from duskfall.arena.shared_limits import start_lease_keeper

            self._keeper_name = f"duskfall-limits-{random_tokens.token_hex(8)}"
            self._keeper = start_lease_keeper(ray, self._keeper_name, lease_seconds)

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None:
        ref = self._remote.remote(list(jobs), self._keeper_name, self._ttl, self._env)
        self._pending[ref] = task_id

    def wait(self, timeout: float) -> list[tuple[int, Finished]]:
        if not self._pending:
            return []
        refs = list(self._pending)
        ready, rest = self._ray.wait(refs, num_returns=1, timeout=timeout)
        if ready and rest:
            more, _ = self._ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        out: list[tuple[int, Finished]] = []
        for ref in ready:
            task_id = self._pending.pop(ref)
            try:
                out.append((task_id, self._ray.get(ref)))
            except Exception as exc:
                out.append((task_id, TaskLost(lost_reason(exc))))
        return out

    def stop(self, task_id: int) -> None:
        for ref, started in list(self._pending.items()):
            if started == task_id:
                del self._pending[ref]
                self._ray.cancel(ref, force=True)

    def close(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending.clear()
        if self._keeper is not None:
            self._ray.kill(self._keeper)
        if self._owns_ray:
            self._ray.shutdown()
        self._quiet()


def _cluster_messages_to_log(ray: Any) -> Callable[[], None]:
    """Ray prints the cluster's error messages (a node marked dead, with pages of its raylet's
    log) on the driver's standard output, through the progress bar and the summary: send
    their first line to this module's log instead. Returns what puts Ray's printing back."""
    module = getattr(getattr(ray, "_private", None), "worker", None)
    printing = getattr(module, "print_to_stdstream", None)
    if module is None or printing is None:
        return lambda: None

    def to_log(data: dict[str, Any], ignore_prefix: bool) -> None:
        lines = [str(line) for line in data.get("lines") or ()]
        first = lines[0].strip().splitlines()[0] if lines and lines[0].strip() else ""
        if first:
            log.info("ray: %s", first)

    module.print_to_stdstream = to_log
    return lambda: setattr(module, "print_to_stdstream", printing)
