"""Endpoint limits held across every game of a run, wherever its games are played.

A model's ``concurrency`` (calls at a time to one endpoint) is a semaphore of the event loop
it runs in (:func:`duskfall.llm.loops.concurrency_limit`). Games on one event loop (the local
backend with one worker) share it as they are. Games in several processes take their slots
as leases (:mod:`duskfall.arena.leases`) from one service instead
(:func:`duskfall.llm.loops.share_limits`), so a worker that dies holding a slot gives it back
when its lease runs out:

* process pool: a manager process the driver starts (and that ends with it) keeps the
  leases; each worker connects to it when it starts (:class:`PoolLimits`);
* Ray: an actor of the run keeps them (:class:`RayLimits`), placed on the driver's own node,
  so that it lives and dies with the driver: a worker node lost takes none of the limits
  with it, and a driver started again (``resume``) starts a new one. If the actor's own
  process dies, Ray starts it again: the holders tell it their tickets at their next renewal,
  and it hands out no new slot before that (:class:`~duskfall.arena.leases.LeaseTable`).

A slot wait is cancellable: a call abandoned while it waits never gets the slot afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.context import BaseContext
from multiprocessing.managers import BaseManager
from typing import Any

from duskfall.arena.leases import DEFAULT_TTL, LeaseTable
from duskfall.arena.lifeline import exit_with_parent
from duskfall.llm.loops import share_limits

WAIT_STEP = 1.0  # a waiting acquire looks again at least this often (leases run out)


def _holder() -> str:
    """This process, as a lease holder: ``host:pid:random`` (a pid may be reused)."""
    import socket

    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _renew_forever(renew: Callable[[], object], ttl: float, name: str) -> None:
    """A daemon thread calling ``renew`` every ``ttl / 3`` seconds, until it fails for good
    (the service is gone: this process's run is over)."""

    def loop() -> None:
        failures = 0
        while failures < 3:
            time.sleep(ttl / 3)
            try:
                renew()
                failures = 0
            except Exception:
                failures += 1

    threading.Thread(target=loop, name=name, daemon=True).start()


# -- process pool ---------------------------------------------------------------------------


class PoolLeaseKeeper:
    """The manager process's lease table; its methods are called from the workers' threads."""

    def __init__(self, ttl: float) -> None:
        self._table = LeaseTable(ttl)
        self._changed = threading.Condition()

    def acquire(self, key: str, limit: int, ticket: str, holder: str) -> bool:
        """Block until ``ticket`` has a slot (True) or was given back meanwhile (False)."""
        with self._changed:
            while True:
                granted = self._table.take(key, limit, ticket, holder)
                if granted is None or granted:
                    return bool(granted)
                expiry = self._table.next_expiry()
                self._changed.wait(WAIT_STEP if expiry is None else min(WAIT_STEP, expiry))

    def release(self, ticket: str) -> None:
        with self._changed:
            if self._table.give_back(ticket):
                self._changed.notify_all()

    def renew(self, holder: str, held: dict[str, str]) -> int:
        with self._changed:
            return self._table.renew(holder, held)

    def holders(self) -> list[tuple[str, str]]:
        with self._changed:
            self._table.expire()
            return self._table.holders()


_pool_keeper: PoolLeaseKeeper | None = None


def _keeper(ttl: float) -> PoolLeaseKeeper:
    """The manager process's one keeper (made by the first caller)."""
    global _pool_keeper
    if _pool_keeper is None:
        _pool_keeper = PoolLeaseKeeper(ttl)
    return _pool_keeper


class _LimitsManager(BaseManager):
    pass


_LimitsManager.register("keeper", _keeper)


class LimitsService:
    """The driver's side for a process pool: a manager process keeping the leases."""

    def __init__(self, context: BaseContext, ttl: float = DEFAULT_TTL) -> None:
        self.authkey = secrets.token_bytes(16)
        self.ttl = ttl
        self._manager = _LimitsManager(address=("127.0.0.1", 0), authkey=self.authkey, ctx=context)
        self._manager.start(exit_with_parent, (os.getpid(),))  # no orphan after a kill -9
        self.address: tuple[str, int] = self._manager.address  # type: ignore[assignment]
        self.keeper: Any = self._manager.keeper(ttl)  # type: ignore[attr-defined]

    @property
    def connection(self) -> tuple[tuple[str, int], bytes, float]:
        """What a worker needs to reach the service (address, key, lease time)."""
        return (self.address, self.authkey, self.ttl)

    def close(self) -> None:
        self._manager.shutdown()


class PoolLimits:
    """A worker's side: slots leased from the driver's :class:`LimitsService`."""

    def __init__(self, address: tuple[str, int], authkey: bytes, ttl: float) -> None:
        self._manager = _LimitsManager(address=address, authkey=authkey)
        self._manager.connect()
        self._keeper: Any = self._manager.keeper(ttl)  # type: ignore[attr-defined]
        self.holder = _holder()
        self._tickets = itertools.count()
        self._held: dict[str, str] = {}  # ticket -> endpoint key, told at every renewal
        # a blocked acquire holds a thread: its own pool, so releases never wait behind one
        self._waiters = ThreadPoolExecutor(max_workers=64, thread_name_prefix="endpoint-slot")
        _renew_forever(
            lambda: self._keeper.renew(self.holder, dict(self._held)), ttl, "endpoint-lease"
        )

    @contextlib.asynccontextmanager
    async def hold(self, key: str, limit: int) -> AsyncIterator[None]:
        ticket = f"{self.holder}:{next(self._tickets)}"
        loop = asyncio.get_running_loop()
        waiting = loop.run_in_executor(
            self._waiters, self._keeper.acquire, key, limit, ticket, self.holder
        )
        try:
            await asyncio.shield(waiting)
        except asyncio.CancelledError:
            self._waiters.submit(self._keeper.release, ticket)  # granted or not: never kept
            raise
        self._held[ticket] = key
        try:
            yield
        finally:
            self._held.pop(ticket, None)
            self._keeper.release(ticket)


def share_pool_limits(service: tuple[tuple[str, int], bytes, float] | None) -> None:
    """Worker initialiser part: take this process's endpoint slots from the driver's
    service (its address, key and lease time), if it has one."""
    if service is not None:
        share_limits(PoolLimits(*service))


# -- Ray --------------------------------------------------------------------------------------


class RayLeaseKeeper:
    """The Ray actor: the lease table on the actor's event loop."""

    def __init__(self, ttl: float) -> None:
        import ray

        restarted = ray.get_runtime_context().was_current_actor_reconstructed
        self._table = LeaseTable(ttl, restarted=restarted)
        self._changed: asyncio.Condition | None = None

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    async def acquire(self, key: str, limit: int, ticket: str, holder: str) -> bool:
        changed = self._condition()
        async with changed:
            while True:
                granted = self._table.take(key, limit, ticket, holder)
                if granted is None or granted:
                    return bool(granted)
                expiry = self._table.next_expiry()
                step = WAIT_STEP if expiry is None else min(WAIT_STEP, expiry)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), step)

    async def release(self, ticket: str) -> None:
        changed = self._condition()
        async with changed:
            if self._table.give_back(ticket):
                changed.notify_all()

    async def renew(self, holder: str, held: dict[str, str]) -> int:
        return self._table.renew(holder, held)

    async def holders(self) -> list[tuple[str, str]]:
        self._table.expire()
        return self._table.holders()


def start_lease_keeper(ray: Any, name: str, ttl: float) -> Any:
    """The run's named actor, on this (the driver's) node; restarted if its process dies."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    actor = ray.remote(num_cpus=0, max_concurrency=10_000, max_restarts=-1, max_task_retries=-1)(
        RayLeaseKeeper
    )
    return actor.options(name=name, lifetime="non_detached", scheduling_strategy=here).remote(ttl)


_ray_renewing: set[str] = set()  # keepers this process renews its leases with
_ray_held: dict[str, dict[str, str]] = {}  # keeper -> this process's tickets -> endpoint key


class RayLimits:
    """A Ray task's side: slots leased from the run's actor called ``name``."""

    holder = _holder()  # one per process: every task of it renews through one thread
    _tickets = itertools.count()

    def __init__(self, name: str, ttl: float) -> None:
        import ray

        self._actor = ray.get_actor(name)
        self._held = _ray_held.setdefault(name, {})
        if name not in _ray_renewing:
            _ray_renewing.add(name)
            actor, holder, held = self._actor, self.holder, self._held
            _renew_forever(
                lambda: ray.get(actor.renew.remote(holder, dict(held)), timeout=ttl),
                ttl,
                "endpoint-lease",
            )

    @contextlib.asynccontextmanager
    async def hold(self, key: str, limit: int) -> AsyncIterator[None]:
        ticket = f"{self.holder}:{next(self._tickets)}"
        try:
            await self._actor.acquire.remote(key, limit, ticket, self.holder)
        except asyncio.CancelledError:
            self._actor.release.remote(ticket)  # granted or not: never kept
            raise
        self._held[ticket] = key
        try:
            yield
        finally:
            self._held.pop(ticket, None)
            self._actor.release.remote(ticket)
