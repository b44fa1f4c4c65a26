"""What duskfall learns about an endpoint: how many calls it serves at once.

A server that answers one request at a time (llama-cpp-python's ``llama_cpp.server``, a
llama.cpp server with one slot) queues the rest; if duskfall sent them all, the time they wait
in the server's queue would count against each call's timeout, and a timed-out call re-sent
while the server still computes the abandoned one only makes the queue longer. So calls wait
in duskfall's own queue instead (the endpoint's concurrency slot, where no timeout runs):

* the limit is **asked** once per endpoint and process, where the provider can ask
  (``async concurrency_hint()``: a llama.cpp server's ``/props`` says its ``total_slots``,
  llama-cpp-python's server is serial);
* and **learnt** from timeouts: an attempt that times out while other calls to its endpoint
  were in flight may have spent its time queued behind them, so the endpoint's limit is cut
  (to half the calls that were in flight, at least 1) and the attempt is re-sent without
  counting as a failure (:class:`QueuedTimeout`).

:class:`EndpointState` keeps the learnt limit and the calls in flight; :func:`endpoint_state`
gives the one per endpoint.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from duskfall.llm.errors import TransientError
from duskfall.llm.loops import PerLoop


class QueuedTimeout(TransientError):
    """An attempt timed out while ``others`` calls to its endpoint were in flight: the time
    may have been spent in the server's queue, so it is re-sent without counting as a
    failure, and the endpoint's limit is now ``limit``."""

    def __init__(self, message: str, others: int, limit: int) -> None:
        super().__init__(message)
        self.others = others
        self.limit = limit


@dataclass
class EndpointState:
    """The learnt concurrency of one endpoint and the calls in flight to it."""

    learnt: int | None = None
    asked: bool = False
    in_flight: int = 0
    queued_timeouts: int = 0
    _asking: PerLoop[asyncio.Lock] = field(
        default_factory=lambda: PerLoop(asyncio.Lock), repr=False
    )

    def limit(self, configured: int) -> int:
        """The number of calls to send at once: ``configured``, lowered by what was learnt."""
        return configured if self.learnt is None else max(1, min(configured, self.learnt))

    def lower(self, others: int, configured: int) -> int:
        """After a timeout with ``others`` calls in flight: cut the limit, return it."""
        self.queued_timeouts += 1
        self.learnt = max(1, min(self.limit(configured), (others + 1) // 2))
        return self.learnt

    def lock(self) -> asyncio.Lock:
        """Held while the endpoint is asked its concurrency (so it is asked once)."""
        return self._asking.get()


_STATES: dict[str, EndpointState] = {}


def endpoint_state(endpoint: str) -> EndpointState:
    """The state of ``endpoint`` in this process (created on first use)."""
    state = _STATES.get(endpoint)
    if state is None:
        state = _STATES[endpoint] = EndpointState()
    return state


def forget_endpoints() -> None:
    """Forget every learnt limit (tests start from a clean slate)."""
    _STATES.clear()
