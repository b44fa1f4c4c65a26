"""Objects that belong to one event loop (semaphores, HTTP clients), created on first use."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    """One ``T`` per running event loop, so a shared model works across loops (and tests)."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._values: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        value = self._values.get(loop)
        if value is None:
            value = self._values[loop] = self._make()
        return value


_SHARED: dict[tuple[str, ...], PerLoop[Any]] = {}


def shared_per_loop(key: tuple[str, ...], make: Callable[[], T]) -> PerLoop[T]:
    """The :class:`PerLoop` registered under ``key``, created with ``make`` the first time.

    HTTP providers share one SDK client per endpoint and credentials this way: building a
    client (connection pool, TLS context) is costly, and a shared pool reuses connections.
    """
    per_loop = _SHARED.get(key)
    if per_loop is None:
        per_loop = _SHARED[key] = PerLoop(make)
    return per_loop


_LIMITS: dict[tuple[str, int], PerLoop[asyncio.Semaphore]] = {}


class SharedLimits(Protocol):
    """Endpoint limits held across processes (a tournament's workers, a Ray cluster)."""

    def hold(self, key: str, limit: int) -> AbstractAsyncContextManager[object]:
        """One of ``limit`` slots of endpoint ``key``, for as long as the block runs."""


_shared: SharedLimits | None = None


def share_limits(limits: SharedLimits | None) -> None:
    """Take every endpoint limit of this process from ``limits`` (None: back to this event
    loop's own semaphores)."""
    global _shared
    _shared = limits


def concurrency_limit(key: str, limit: int) -> AbstractAsyncContextManager[object]:
    """The slot of provider endpoint ``key`` a call holds: from the limits shared across
    processes if this process has them (:func:`share_limits`), else from the semaphore
    shared by every model of this event loop that talks to ``key``."""
    if _shared is not None:
        return _shared.hold(key, limit)
    per_loop = _LIMITS.get((key, limit))
    if per_loop is None:
        per_loop = _LIMITS[(key, limit)] = PerLoop(lambda: asyncio.Semaphore(limit))
    return per_loop.get()
