"""Endpoint limits held across every game of a run, wherever its games are played.

A model's ``concurrency`` (calls at a time to one endpoint) is a semaphore of the event loop
it runs in (:func:`duskfall.llm.loops.concurrency_limit`). Games on one event loop (the local
backend with one worker) share it as they are. Games in several processes take their slots
from one place instead (:func:`duskfall.llm.loops.share_limits`):

* process pool: a manager process the driver starts holds one semaphore per endpoint and
  limit; each worker connects to it when it starts (:class:`PoolLimits`);
* Ray: a named actor (:class:`RayLimits`) holds them, on whatever node it was placed; every
  task of the run finds it by name, so the limits hold across the machines of the cluster.

A slot wait is cancellable: a call abandoned while it waits gives back the slot it would
have got.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import secrets
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.context import BaseContext
from multiprocessing.managers import AcquirerProxy, BaseManager  # type: ignore[attr-defined]
from typing import Any

from duskfall.arena.workers import exit_with_parent
from duskfall.llm.loops import share_limits

_semaphores: dict[tuple[str, int], threading.BoundedSemaphore] = {}
_lock = threading.Lock()


def _semaphore(key: str, limit: int) -> threading.BoundedSemaphore:
    """The manager process's semaphore for endpoint ``key`` with ``limit`` slots."""
    with _lock:
        found = _semaphores.get((key, limit))
        if found is None:
            found = _semaphores[key, limit] = threading.BoundedSemaphore(limit)
        return found


class _LimitsManager(BaseManager):
    pass


_LimitsManager.register("semaphore", _semaphore, proxytype=AcquirerProxy)


class LimitsService:
    """The driver's side for a process pool: a manager process serving the semaphores."""

    def __init__(self, context: BaseContext) -> None:
        self.authkey = secrets.token_bytes(16)
        self._manager = _LimitsManager(address=("127.0.0.1", 0), authkey=self.authkey, ctx=context)
        self._manager.start(exit_with_parent, (os.getpid(),))  # no orphan after a kill -9
        self.address: tuple[str, int] = self._manager.address  # type: ignore[assignment]

    def close(self) -> None:
        self._manager.shutdown()


class PoolLimits:
    """A worker's side: slots from the driver's :class:`LimitsService`."""

    def __init__(self, address: tuple[str, int], authkey: bytes) -> None:
        self._manager = _LimitsManager(address=address, authkey=authkey)
        self._manager.connect()
        self._proxies: dict[tuple[str, int], Any] = {}
        # a blocked acquire holds a thread: its own pool, so releases never wait behind one
        self._waiters = ThreadPoolExecutor(max_workers=64, thread_name_prefix="endpoint-slot")

    def _proxy(self, key: str, limit: int) -> Any:
        proxy = self._proxies.get((key, limit))
        if proxy is None:
            proxy = self._proxies[key, limit] = self._manager.semaphore(key, limit)  # type: ignore[attr-defined]
        return proxy

    @contextlib.asynccontextmanager
    async def hold(self, key: str, limit: int) -> AsyncIterator[None]:
        proxy = self._proxy(key, limit)
        waiting = asyncio.get_running_loop().run_in_executor(self._waiters, proxy.acquire)
        try:
            await asyncio.shield(waiting)
        except asyncio.CancelledError:
            waiting.add_done_callback(lambda done: _release_if_acquired(done, proxy))
            raise
        try:
            yield
        finally:
            proxy.release()


def _release_if_acquired(done: asyncio.Future[Any], proxy: Any) -> None:
    if not done.cancelled() and done.exception() is None:
        proxy.release()


def share_pool_limits(service: tuple[tuple[str, int], bytes] | None) -> None:
    """Worker initialiser part: take this process's endpoint slots from the driver's
    service (its address and key), if it has one."""
    if service is not None:
        share_limits(PoolLimits(*service))


class _SlotKeeper:
    """The Ray actor: endpoint semaphores on its own event loop, slots by ticket."""

    def __init__(self) -> None:
        self._semaphores: dict[tuple[str, int], asyncio.Semaphore] = {}
        self._held: dict[str, asyncio.Semaphore] = {}
        self._dropped: set[str] = set()

    async def acquire(self, key: str, limit: int, ticket: str) -> None:
        semaphore = self._semaphores.setdefault((key, limit), asyncio.Semaphore(limit))
        await semaphore.acquire()
        if ticket in self._dropped:  # its caller gave up while it waited
            self._dropped.discard(ticket)
            semaphore.release()
        else:
            self._held[ticket] = semaphore

    async def release(self, ticket: str) -> None:
        semaphore = self._held.pop(ticket, None)
        if semaphore is None:
            self._dropped.add(ticket)  # still waiting: give the slot back once it comes
        else:
            semaphore.release()


def start_slot_keeper(ray: Any, name: str) -> Any:
    """The run's named Ray actor (max_concurrency: waits for slots run side by side)."""
    actor = ray.remote(num_cpus=0, max_concurrency=10_000)(_SlotKeeper)
    return actor.options(name=name, lifetime="non_detached").remote()


class RayLimits:
    """A Ray task's side: slots from the run's named actor."""

    _tickets = itertools.count()

    def __init__(self, name: str) -> None:
        import ray

        self._actor = ray.get_actor(name)
        self._prefix = secrets.token_hex(8)

    @contextlib.asynccontextmanager
    async def hold(self, key: str, limit: int) -> AsyncIterator[None]:
        ticket = f"{self._prefix}-{next(self._tickets)}"
        try:
            await self._actor.acquire.remote(key, limit, ticket)
            yield
        finally:
            self._actor.release.remote(ticket)
