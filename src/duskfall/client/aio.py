"""The asyncio client, in the same callback style as the blocking one.

``determine_action`` may be a coroutine (an LLM call) or a plain function::

    client = AsyncClient("127.0.0.1", 8765, on_action_request=my_async_policy)
    game_over = await client.run()
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any

from duskfall.client.session import ClientBase
from duskfall.protocol.messages import ActionRequest, GameEvent

log = logging.getLogger(__name__)
READ_SIZE = 65536
CLOSE_TIMEOUT = 5.0
RECONNECT_DELAY = 0.2  # seconds before the first try to reclaim a dropped seat (then more)


class NoHello(ConnectionError):
    """The peer accepted the connection but never said HELLO: it is no duskfall server (or
    one that seats a connection only after the client's HELLO)."""


class AsyncClient(ClientBase):
    """Plays one seat over an asyncio stream; every request with actions gets one answer.
    The server's HELLO must come within ``connect_timeout`` seconds (:class:`NoHello`)."""

    def _setup(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self, *, token: str | None = None) -> AsyncClient:
        """Open the connection; with ``token``, reclaim that seat (after a dropped connection)."""
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), self.connect_timeout
        )
        self.session.reset_stream()
        if token or self.name or self.send_hello or self.state_updates:
            await self._send_bytes(
                self.session.hello(token=token, name=self.name, state_updates=self.state_updates)
            )
        return self

    async def reconnect(self) -> AsyncClient:
        """Connect again and reclaim this client's seat with its token."""
        await self.close()
        return await self.connect(token=self.session.token)

    async def close(self) -> None:
        writer, self.writer = self.writer, None
        if writer is None:
            return
        writer.close()
        try:
            await asyncio.wait_for(writer.wait_closed(), CLOSE_TIMEOUT)
        except (TimeoutError, OSError, ConnectionError):
            writer.transport.abort()

    async def __aenter__(self) -> AsyncClient:
        if self.writer is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def run(self) -> GameEvent | None:
        """Play until ``GAME_OVER`` or until the server closes; returns the GAME_OVER event.

        An agent whose input ended (``EOFError``: a person's terminal closed) stops the
        client: the error is raised, instead of the server waiting for answers in vain.
        """
        if self.reader is None:
            await self.connect()
        failures = 0  # reconnections in a row that got nothing
        while not self.session.finished:
            reader = self.reader
            try:
                if reader is None:
                    data = b""
                elif failures:  # just reconnected: the server's HELLO comes at once, or never
                    data = await asyncio.wait_for(reader.read(READ_SIZE), self.connect_timeout)
                elif self.session.player_id is None:  # no HELLO yet: it comes at once, or never
                    data = await self._first_read(reader)
                else:
                    data = await reader.read(READ_SIZE)
            except NoHello:
                raise
            except (ConnectionError, OSError, TimeoutError):
                data = b""
            if not data:
                if not await self._come_back(failures):
                    break
                failures += 1
                continue
            failures = 0
            requests = self._requests_in(data)
            if requests is None:
                break
            for request in requests:
                await self._answer(request)
        return self.session.game_over

    async def _first_read(self, reader: asyncio.StreamReader) -> bytes:
        try:
            return await asyncio.wait_for(reader.read(READ_SIZE), self.connect_timeout)
        except TimeoutError:
            raise NoHello(
                f"{self.host}:{self.port} sent no HELLO within {self.connect_timeout:g} s: is it "
                "a duskfall server?"
            ) from None

    async def _come_back(self, failures: int) -> bool:
        """The connection dropped before the end: reclaim the seat with its token (and the
        last event number, so the events missed are sent again). False: give up."""
        if self.session.token is None or failures >= self.reconnects:
            return False
        await asyncio.sleep(RECONNECT_DELAY * (failures + 1))
        try:
            await self.reconnect()
        except (OSError, TimeoutError) as exc:
            log.warning("reconnecting failed: %s", exc)
            self.reader = None
        return True

    async def determine_action(self, request: ActionRequest) -> dict[str, Any] | None:
        """Your agent: return the ``action`` object for ``request`` (None: do not answer)."""
        if self._on_action_request is None:
            raise NotImplementedError("override determine_action or pass on_action_request")
        action = self._on_action_request(request)
        if inspect.isawaitable(action):
            action = await action
        result: dict[str, Any] | None = action
        return result

    async def _answer(self, request: ActionRequest) -> None:
        try:
            action = await self.determine_action(request)
        except EOFError:
            raise  # the agent's input ended (a person's terminal closed): it can never answer
        except Exception:
            log.exception("determine_action failed; not answering request %s", request.request_id)
            return
        if action is not None:
            await self.send_action(action, request)

    async def send_action(self, action: dict[str, Any], request: ActionRequest) -> None:
        await self._send_bytes(self.session.response(action, request))

    async def _send_bytes(self, frame: bytes) -> None:
        writer = self.writer
        if writer is None:
            raise ConnectionError("not connected")
        writer.write(frame)
        await writer.drain()
