"""The limits of ``serve --ws`` that the ``websockets`` library does not keep itself: the read
deadline of TCP clients and the ``Origin`` rule of ``duskfall web``.

* **read deadline**: a message must be complete ``read_timeout`` seconds after its first byte
  arrived (the TCP rule of :mod:`duskfall.server.connection`: a client trickling a byte a
  second is cut; idle time between messages is free). A client past it gets a
  ``read_timeout`` ERROR, then the close code 1008 (policy violation), and its connection is
  closed. A message sent in fragments must be whole within the same deadline.
* **Origin**: a browser page may open a socket only from a host of the server's allow-list
  (:class:`~duskfall.protocol.origins.HostAllowList`: loopback and the ``--host`` address);
  ``Origin: null`` and other sites get ``403 Forbidden`` before the upgrade. A client that sends
  no ``Origin`` (a program) is served.

Sizes are the library's own: ``max_size`` is ``--max-frame`` (a longer message closes with
1009), and at most :data:`WS_QUEUE` messages wait unread before the library stops reading the
socket, so that a client holds about as much of the server's memory as over TCP (one frame being
handled, one being read), not the library's default of 16.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode, Frame
from websockets.http11 import Request, Response
from websockets.protocol import State

from duskfall.protocol.errors import ErrorCode
from duskfall.protocol.framing import encode_json
from duskfall.protocol.messages import error_message
from duskfall.protocol.origins import HostAllowList

WS_QUEUE = 2  # messages received and not yet handled, per connection (``max_queue``)


class DeadlineConnection(ServerConnection):
    """A server connection that cuts a client whose message is not whole within
    :attr:`read_timeout` seconds of its first byte."""

    read_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._whole = 0  # messages (and control frames) received whole

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.request is not None:  # a message begins
            self._deadline = self.loop.call_later(self.read_timeout, self._cut)
        whole = self._whole
        super().data_received(data)
        if self._whole != whole and self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
            if self.protocol.reader.buffer:  # the next message has begun: its clock starts
                self._deadline = self.loop.call_later(self.read_timeout, self._cut)

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.fin:
            self._whole += 1
        super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)

    def _cut(self) -> None:
        """The deadline passed: say so (an ERROR, then close code 1008) and close."""
        self._deadline = None
        why = f"a message was not completed within {self.read_timeout:g}s of its first byte"
        if self.protocol.state is State.OPEN:
            error = error_message(ErrorCode.READ_TIMEOUT, why)
            self.protocol.send_text(encode_json(error).encode("utf-8"))
            self.protocol.fail(CloseCode.POLICY_VIOLATION, "read timeout")
            self.send_data()
        self.transport.close()


def deadline_connection(read_timeout: float) -> type[DeadlineConnection]:
    """The connection class of a listener with this read deadline (``create_connection``)."""
    return type("TimedConnection", (DeadlineConnection,), {"read_timeout": read_timeout})


def origin_check(
    hosts: HostAllowList,
) -> Callable[[ServerConnection, Request], Response | None]:
    """The listener's ``process_request``: refuse (403) a page of another site or ``null``."""

    def check(connection: ServerConnection, request: Request) -> Response | None:
        refusal = hosts.origin_refusal(request.headers.get("Origin"))
        if refusal is None:
            return None
        return connection.respond(HTTPStatus.FORBIDDEN, refusal + "\n")

    return check
