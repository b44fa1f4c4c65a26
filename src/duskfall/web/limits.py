"""Deadlines and a connection cap for the web server's HTTP connections (slow clients are cut).

uvicorn closes a keep-alive connection that stays idle between requests, but waits for ever on
one that never finishes its request: a slowloris (partial headers, a byte now and then) or a
body that never ends would hold its file descriptor until the process runs out of them.
:func:`guarded_http` makes uvicorn's HTTP/1.1 protocol class keep three limits:

* **headers**: a request's headers must be complete ``header_timeout`` seconds after the
  connection opened (or after the previous response, on a kept-alive connection);
* **body**: its body must be complete ``body_timeout`` seconds after its headers;
* **connections**: past ``max_connections`` open connections, a new one evicts the connection
  that has waited longest for the rest of a request it began (a slowloris, never an honest
  client, who sends its headers at once), else the one idle longest; if none is waiting, the
  new one is turned away. The event loop accepts up to a backlog of connections in one turn,
  meets them (and evicts) in the next and closes the evicted in the one after, so three
  backlogs can be open beside the cap: the backlog is an eighth of the cap
  (:attr:`ConnectionLimits.backlog`), at most 1.375 times the cap in descriptors (688 by
  default, under the usual limit of 1,024). The kernel's queue of connections not yet accepted
  costs no descriptor, so :class:`QueueingServer` makes it long (:data:`KERNEL_QUEUE`): a burst
  of connections waits there to be accepted and cut, instead of overflowing a short queue and
  hanging half-open (the client's handshake done, the server's not) past every deadline.

A connection past a deadline gets ``408 Request Timeout`` and is closed; one turned away gets
``503 Service Unavailable``. WebSockets, once upgraded, are not timed: a spectator may watch a
game for an hour. ``benchmarks/web_hostile.py`` measures the limits under a slowloris.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol


def _plain_response(status: str, text: str) -> bytes:
    body = text.encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


TIMEOUT_RESPONSE = _plain_response("408 Request Timeout", "the request took too long\n")
FULL_RESPONSE = _plain_response("503 Service Unavailable", "too many connections; try again\n")


@dataclass(frozen=True)
class ConnectionLimits:
    """The limits of :mod:`duskfall.web.limits` (seconds, and a count of connections)."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_connections: int = 500

    def __post_init__(self) -> None:
        if self.header_timeout <= 0 or self.body_timeout <= 0:
            raise ValueError("the header and body timeouts must be positive")
        if self.max_connections < 1:
            raise ValueError("max_connections must be at least 1")

    @property
    def backlog(self) -> int:
        """The listening socket's backlog (``uvicorn.Config(backlog=...)``): an eighth of
        the cap, as three backlogs may be open beside it (see the module's docstring)."""
        return max(8, self.max_connections // 8)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and the cap of :class:`ConnectionLimits`."""

    limits = ConnectionLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._timing: str = ""  # "headers", "body" or "" (nothing timed)
        self._waiting_since = 0.0
        self._began = False  # part of a request has come, not all of its headers
        self._upgraded = False  # a WebSocket now: the transport is no longer this protocol's

    # -- the connection -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_request()
        if len(self.connections) > self.limits.max_connections:
            victim = self._longest_waiting()
            if victim is None:
                self._refuse(FULL_RESPONSE)
                return
            victim._refuse(TIMEOUT_RESPONSE)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE:
            self._wait_for_request()
        else:
            self._follow()  # a pipelined request was read meanwhile

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_timing()  # a WebSocket is not timed
        self._upgraded = True
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timing()
        super().connection_lost(exc)

    # -- the deadlines --------------------------------------------------------------------

    def _wait_for_request(self) -> None:
        self._waiting_since = self.loop.time()
        self._began = False
        self._start_timing("headers", self.limits.header_timeout)

    def _follow(self) -> None:
        """Time what the connection is sending now: headers, a body, or nothing."""
        if self._upgraded:
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self._began = True  # still the headers: their deadline runs on
            return
        if state is h11.SEND_BODY:
            if self._timing != "body":
                self._start_timing("body", self.limits.body_timeout)
            return
        self._stop_timing()  # the request is read: the app answers in its own time

    def _start_timing(self, what: str, seconds: float) -> None:
        self._stop_timing()
        self._timing = what
        self._deadline = self.loop.call_later(seconds, self._timed_out)

    def _stop_timing(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._timing = ""

    def _timed_out(self) -> None:
        self._deadline = None
        started = self.cycle is not None and self.cycle.response_started
        self._refuse(b"" if started else TIMEOUT_RESPONSE)

    def _refuse(self, response: bytes) -> None:
        """Answer ``response`` (if any) and close the connection."""
        self._stop_timing()
        if self.transport.is_closing():
            return
        if response:
            self.transport.write(response)
        self.transport.close()

    # -- the cap --------------------------------------------------------------------------

    def _waiting(self) -> bool:
        """Whether the connection waits for a request (nothing of the app's is running)."""
        idle = self.cycle is None or self.cycle.response_complete
        return self._timing == "headers" and idle and not self.transport.is_closing()

    def _longest_waiting(self) -> GuardedH11Protocol | None:
        waiting = [
            c
            for c in self.connections
            if isinstance(c, GuardedH11Protocol) and c is not self and c._waiting()
        ]
        return min(waiting, key=lambda c: (not c._began, c._waiting_since), default=None)


KERNEL_QUEUE = 4096  # connections the kernel holds before they are accepted (somaxconn caps it)


class QueueingServer(uvicorn.Server):
    """uvicorn's server with a long kernel queue on its listening sockets: the event loop still
    accepts a backlog of connections a turn (uvicorn's ``backlog``), the kernel holds the rest."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for listening in server.sockets:
                with socket.fromfd(listening.fileno(), listening.family, listening.type) as dup:
                    dup.listen(KERNEL_QUEUE)  # the same socket: its queue grows


def guarded_http(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """uvicorn's ``http`` protocol class keeping ``limits`` (``uvicorn.Config(http=...)``)."""
    return type("GuardedH11", (GuardedH11Protocol,), {"limits": limits})
