"""Endpoint slots as leases: taken for a while, renewed by a living holder, back when it dies.

A model endpoint with ``concurrency = N`` has N slots for the whole run. A worker takes one
for each call (a *ticket*); its process (the *holder*) renews all its leases every
``ttl / 3`` seconds. A holder that dies stops renewing, so its slots come back ``ttl``
seconds later at most, and the games waiting for them go on: no run waits for a dead worker.
A ticket given back before it was granted (its call was abandoned while waiting) is never
granted afterwards.

A holder's renewal names the tickets it holds, so a table that lost its state (the service's
process died and was started again) learns them back at the first renewal; a table started
again grants nothing new for a ``grace`` period first (one renewal period and a margin), so
no slot is handed out twice in the meantime.

:class:`LeaseTable` is the bookkeeping alone (no threads, no waiting, a clock you pass), so
it is tested on its own; the services that wait on it (a manager process for a process pool,
an actor on Ray) are in :mod:`duskfall.arena.shared_limits`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_TTL = 30.0


@dataclass
class Lease:
    """One slot of endpoint ``key``, held by ``holder`` until ``expires``."""

    key: str
    holder: str
    expires: float


class LeaseTable:
    """Who holds which endpoint slot, until when."""

    def __init__(
        self,
        ttl: float = DEFAULT_TTL,
        clock: Callable[[], float] = time.monotonic,
        *,
        restarted: bool = False,
    ) -> None:
        if ttl <= 0:
            raise ValueError("a lease must last some time")
        self.ttl = ttl
        self.clock = clock
        self.restarted = restarted
        self._grace_until = clock() + ttl / 2 if restarted else float("-inf")
        self._released: dict[str, float] = {}  # ticket -> when (kept a ttl: late renewals)
        self._leases: dict[str, Lease] = {}  # ticket -> lease
        self._count: dict[str, int] = {}  # key -> leases held
        self._dropped: set[str] = set()  # tickets given back before they were granted

    def take(self, key: str, limit: int, ticket: str, holder: str) -> bool | None:
        """Grant ``ticket`` a slot of ``key`` if one of ``limit`` is free: True; False while
        none is; None if the ticket was given back meanwhile (never grant it then)."""
        if ticket in self._dropped:
            self._dropped.discard(ticket)
            return None
        if ticket in self._leases:
            return True
        self.expire()
        if self._count.get(key, 0) >= limit or self.clock() < self._grace_until:
            return False
        self._leases[ticket] = Lease(key, holder, self.clock() + self.ttl)
        self._count[key] = self._count.get(key, 0) + 1
        return True

    def give_back(self, ticket: str) -> bool:
        """Free ``ticket``'s slot: True if it held one; otherwise the ticket is remembered as
        given back, so that a wait still under way for it is not granted."""
        lease = self._leases.pop(ticket, None)
        if lease is None:
            self._dropped.add(ticket)
            return False
        self._count[lease.key] -= 1
        if self.restarted:
            self._released[ticket] = self.clock()
        return True

    def renew(self, holder: str, held: dict[str, str] | None = None) -> int:
        """Extend every lease of ``holder`` by the ttl from now; how many it holds. ``held``
        (ticket -> endpoint key) are the tickets the holder says it holds: a table started
        again takes back in those it does not know (limit or not: they are held), unless
        they were given back since (a renewal can arrive after the release it preceded)."""
        until = self.clock() + self.ttl
        for ticket, key in (held or {}).items() if self.restarted else ():
            if ticket in self._leases or ticket in self._dropped or ticket in self._released:
                continue
            self._leases[ticket] = Lease(key, holder, until)
            self._count[key] = self._count.get(key, 0) + 1
        renewed = 0
        for lease in self._leases.values():
            if lease.holder == holder:
                lease.expires = until
                renewed += 1
        return renewed

    def expire(self) -> list[Lease]:
        """Drop the leases nobody renewed in time; the dropped ones."""
        now = self.clock()
        if self._released:
            self._released = {t: at for t, at in self._released.items() if at > now - self.ttl}
        gone = [(ticket, lease) for ticket, lease in self._leases.items() if lease.expires <= now]
        for ticket, lease in gone:
            del self._leases[ticket]
            self._count[lease.key] -= 1
        return [lease for _, lease in gone]

    def next_expiry(self) -> float | None:
        """Seconds until the first lease expires (None if none is held)."""
        if not self._leases:
            return None
        return max(0.0, min(lease.expires for lease in self._leases.values()) - self.clock())

    def held(self, key: str) -> int:
        return self._count.get(key, 0)

    def holders(self) -> list[tuple[str, str]]:
        """(endpoint key, holder) of every lease."""
        return [(lease.key, lease.holder) for lease in self._leases.values()]
