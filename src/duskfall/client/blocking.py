"""The blocking client: a socket and (optionally) a receiver thread, like the seed's MafiaClient.

Subclass and override :meth:`BlockingClient.determine_action` (and ``on_event``, ``on_error``,
``on_hello``), or pass callbacks::

    client = BlockingClient("127.0.0.1", 8765, on_action_request=my_policy)
    game_over = client.run()          # or client.start() for a background thread
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from typing import Any

from duskfall.client.session import ClientBase
from duskfall.protocol.messages import ActionRequest, GameEvent

log = logging.getLogger(__name__)
RECV_SIZE = 65536


class BlockingClient(ClientBase):
    """Plays one seat over a blocking socket; every request with actions gets one answer."""

    def _setup(self) -> None:
        self.sock: socket.socket | None = None
        self.thread: threading.Thread | None = None
        self._send_lock = threading.Lock()

    # -- connection ----------------------------------------------------------------------

    def connect(self, *, token: str | None = None) -> BlockingClient:
        """Open the connection; with ``token``, reclaim that seat (after a dropped connection)."""
        sock = socket.create_connection((self.host, self.port), timeout=self.connect_timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        self.session.reset_stream()
        if token or self.name or self.send_hello or self.state_updates:
            self._send_bytes(
                self.session.hello(token=token, name=self.name, state_updates=self.state_updates)
            )
        return self

    def reconnect(self) -> BlockingClient:
        """Connect again and reclaim this client's seat with its token."""
        self.close()
        return self.connect(token=self.session.token)

    def close(self) -> None:
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def __enter__(self) -> BlockingClient:
        if self.sock is None:
            self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the loop ------------------------------------------------------------------------

    def run(self) -> GameEvent | None:
        """Play until ``GAME_OVER`` or until the server closes; returns the GAME_OVER event
        (an agent whose input ended raises its ``EOFError``, as in the asyncio client)."""
        if self.sock is None:
            self.connect()
        sock = self.sock
        assert sock is not None
        while not self.session.finished:
            try:
                data = sock.recv(RECV_SIZE)
            except OSError:
                break
            if not data:
                break
            requests = self._requests_in(data)
            if requests is None:
                break
            for request in requests:
                self._answer(request)
        return self.session.game_over

    def start(self) -> threading.Thread:
        """Run :meth:`run` in a daemon thread (the seed's receiver thread)."""
        if self.sock is None:
            self.connect()
        self.thread = threading.Thread(target=self.run, daemon=True, name="duskfall-client")
        self.thread.start()
        return self.thread

    def wait(self, timeout: float | None = None) -> GameEvent | None:
        """Wait for the background thread; returns the GAME_OVER event if the game ended."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self.session.game_over

    # -- answering -----------------------------------------------------------------------

    def determine_action(self, request: ActionRequest) -> dict[str, Any] | None:
        """Your agent: return the ``action`` object for ``request`` (None: do not answer)."""
        if self._on_action_request is None:
            raise NotImplementedError("override determine_action or pass on_action_request")
        action: dict[str, Any] | None = self._on_action_request(request)
        return action

    def _answer(self, request: ActionRequest) -> None:
        try:
            action = self.determine_action(request)
        except EOFError:
            raise  # the agent's input ended (a person's terminal closed): it can never answer
        except Exception:
            log.exception("determine_action failed; not answering request %s", request.request_id)
            return
        if action is not None:
            self.send_action(action, request)

    def send_action(self, action: dict[str, Any], request: ActionRequest) -> None:
        self._send_bytes(self.session.response(action, request))

    def _send_bytes(self, frame: bytes) -> None:
        sock = self.sock
        if sock is None:
            raise ConnectionError("not connected")
        with self._send_lock:
            sock.sendall(frame)
