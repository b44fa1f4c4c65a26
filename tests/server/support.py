"""Test helpers: a raw wire client, random legal answers, a server on a free loopback port."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from duskfall.protocol import FrameDecoder, encode_frame, encode_message
from duskfall.server import GameServer, ServerSettings
from duskfall.store.log import GameLog, read_log
from duskfall.variants.sports_mafia.wire import legal_from_valid_actions

WAIT = 30.0  # upper bound on any single wait; tests never sleep to synchronise
Message = dict[str, Any]
Policy = Callable[[Message], Message | None]


def random_action(request: Message, rng: random.Random) -> Message:
    """A random legal sports-mafia action for ``request``."""
    legal = legal_from_valid_actions(request["phase"], request["valid_actions"])
    action: Message = legal.sample(rng).to_dict()
    return action


class WireClient:
    """A bare client: sends and receives frames, keeps every message it got."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder(16 * 1024 * 1024)
        self.inbox: list[Message] = []
        self.seen: list[Message] = []
        self.closed = False
        self.hello: Message | None = None

    @classmethod
    async def open(cls, port: int, *, wait_hello: bool = True) -> WireClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        client = cls(reader, writer)
        if wait_hello:
            client.hello = await client.next("HELLO")
        return client

    @property
    def seat(self) -> int:
        assert self.hello is not None
        return int(self.hello["player_id"])

    async def send(self, message: Message) -> None:
        await self.send_raw(encode_message(message))

    async def send_payload(self, payload: bytes) -> None:
        await self.send_raw(encode_frame(payload))

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def answer(self, request: Message, action: Message, **extra: Any) -> None:
        message = {"type": "ACTION_RESPONSE", "player_id": request["player_id"], "action": action}
        if "request_id" in request:
            message["request_id"] = request["request_id"]
        message.update(extra)
        await self.send(message)

    async def recv(self, timeout: float = WAIT) -> Message | None:
        """The next message, or None once the server closed the connection."""
        while not self.inbox:
            if self.closed:
                return None
            try:
                data = await asyncio.wait_for(self.reader.read(65536), timeout)
            except TimeoutError:
                raise AssertionError(f"nothing received within {timeout:g}s") from None
            except (ConnectionError, OSError):
                data = b""
            if not data:
                self.closed = True
                continue
            self.inbox.extend(json.loads(p) for p in self.decoder.feed(data))
        message = self.inbox.pop(0)
        self.seen.append(message)
        return message

    async def next(
        self,
        kind: str | None = None,
        *,
        where: Callable[[Message], bool] = lambda m: True,
        timeout: float = WAIT,
    ) -> Message:
        """Skip messages until one of type ``kind`` matching ``where``; fail on close."""
        while True:
            message = await self.recv(timeout)
            if message is None:
                raise AssertionError(f"connection closed while waiting for {kind}")
            if (kind is None or message["type"] == kind) and where(message):
                return message

    async def request(self) -> Message:
        """The next ACTION_REQUEST that needs an answer."""
        return await self.next("ACTION_REQUEST", where=lambda m: bool(m["valid_actions"]))

    async def error(self) -> Message:
        return await self.next("ERROR")

    async def closed_after(self, timeout: float = WAIT) -> list[Message]:
        """Everything until the server closes the connection."""
        got = []
        while (message := await self.recv(timeout)) is not None:
            got.append(message)
        return got

    async def play(self, rng: random.Random, policy: Policy | None = None) -> Message | None:
        """Answer every request (with ``policy``, else at random); return GAME_OVER."""
        while (message := await self.recv()) is not None:
            if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                action = policy(message) if policy else None
                await self.answer(message, action or random_action(message, rng))
            elif message["type"] == "GAME_EVENT" and message["event"] == "GAME_OVER":
                return message
        return None

    async def close(self) -> None:
        self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), 5)
        except (TimeoutError, OSError, ConnectionError):
            self.writer.transport.abort()


@asynccontextmanager
async def serving(log_dir: Path, **options: Any) -> AsyncIterator[GameServer]:
    """A server on a free loopback port, closed afterwards."""
    options.setdefault("port", 0)
    options.setdefault("seed", 1)
    server = GameServer(ServerSettings(log_dir=log_dir, **options))
    await server.start()
    try:
        yield server
    finally:
        await server.close()


async def seat_clients(port: int, count: int) -> list[WireClient]:
    """``count`` clients, connected one after another so that their seats are in order."""
    return [await WireClient.open(port) for _ in range(count)]


def autoplay(
    clients: list[WireClient], seed: int = 0, policy: Policy | None = None
) -> list[asyncio.Task[Message | None]]:
    return [
        asyncio.create_task(c.play(random.Random(seed * 100 + i), policy))
        for i, c in enumerate(clients)
    ]


def game_log(server: GameServer, game_id: str) -> GameLog:
    assert server.settings.log_dir is not None
    return read_log(server.settings.log_dir / f"{game_id}.jsonl")


async def wait_game_done(server: GameServer, count: int = 1) -> None:
    """Wait until ``count`` games are finished (bounded)."""
    async with asyncio.timeout(WAIT):
        while server.lobby.games_done < count:
            await _next_game_done(server)


async def _next_game_done(server: GameServer) -> None:
    done = asyncio.Event()
    previous = server.on_game_done

    def hook(result: Any) -> None:
        if previous is not None:
            previous(result)
        done.set()

    server.on_game_done = hook
    try:
        await done.wait()
    finally:
        server.on_game_done = previous
