"""Recorded games: real servers, real sockets, clients that keep every frame both ways.

The clients answer at random from what the request says (``legal_state`` read back through
the variant's wire codec), and some misbehave on purpose, so that every kind of frame is met:
one asks for state updates as ``changes``, one sends a refused answer now and then (``ERROR``,
and after two refusals in a row a ``FALLBACK``), one lets a request time out (``TIMEOUT``),
one sends a ``HELLO`` with a name.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.client.wire_legal import legal_from_wire
from duskfall.core.registry import get_variant
from duskfall.protocol import FrameDecoder, encode_message
from duskfall.server import GameServer, ServerSettings

Message = dict[str, Any]
WRONG = "NOT_A_TYPE"  # the action type of the answers refused on purpose


@dataclass
class Recording:
    """One connection's frames: what the server sent, what the client sent, in order."""

    seat: int | None = None
    received: list[Message] = field(default_factory=list)
    sent: list[Message] = field(default_factory=list)
    answered: list[tuple[Message, Message]] = field(default_factory=list)  # (request, action)


class RandomRecorder:
    """A client for any variant that keeps every frame (see the module docstring)."""

    def __init__(self, variant: str, port: int, rng: random.Random, mood: str) -> None:
        self.variant = get_variant(variant)
        self.port = port
        self.rng = rng
        self.mood = mood  # "plain", "changes", "wrong", "late", "named"
        self.recording = Recording()
        self._late_done = False

    async def play(self) -> Recording:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        decoder = FrameDecoder(16 * 1024 * 1024)
        if self.mood in ("changes", "named"):
            hello: Message = {"type": "HELLO"}
            if self.mood == "changes":
                hello["state_updates"] = "changes"
            else:
                hello["name"] = "recorder"
            await self._send(writer, hello)
        try:
            while data := await self._read(reader):
                for payload in decoder.feed(data):
                    message = json.loads(payload)
                    self.recording.received.append(message)
                    await self._on(writer, message)
        finally:
            writer.close()
        return self.recording

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> bytes:
        """The next bytes, or none at the end: a late answer may reach a server that has already
        closed the game's connection, and its reset ends the stream like a close."""
        try:
            return await asyncio.wait_for(reader.read(65536), 60)
        except ConnectionResetError:
            return b""

    async def _on(self, writer: asyncio.StreamWriter, message: Message) -> None:
        if message["type"] == "HELLO":
            self.recording.seat = message["player_id"]
        if message["type"] != "ACTION_REQUEST" or not message["valid_actions"]:
            return
        if self.mood == "late" and not self._late_done:
            self._late_done = True  # this one is left to time out (TIMEOUT), answered late
            asyncio.get_running_loop().call_later(0.3, self._late_answer, writer, message)
            return
        legal = legal_from_wire(
            self.variant, message["phase"], message["valid_actions"], message.get("legal_state")
        )
        action = legal.sample(self.rng).to_dict()
        if self.mood == "wrong" and self.rng.random() < 0.2:
            action = {**action, "type": WRONG}
        await self._answer(writer, message, action)

    def _late_answer(self, writer: asyncio.StreamWriter, request: Message) -> None:
        legal = legal_from_wire(
            self.variant, request["phase"], request["valid_actions"], request.get("legal_state")
        )
        task = asyncio.ensure_future(
            self._answer(writer, request, legal.sample(self.rng).to_dict())
        )
        task.add_done_callback(lambda t: t.exception())

    async def _answer(
        self, writer: asyncio.StreamWriter, request: Message, action: Message
    ) -> None:
        response = {
            "type": "ACTION_RESPONSE",
            "player_id": request["player_id"],
            "request_id": request["request_id"],
            "action": action,
        }
        self.recording.answered.append((request, action))
        await self._send(writer, response)

    async def _send(self, writer: asyncio.StreamWriter, message: Message) -> None:
        self.recording.sent.append(message)
        if not writer.is_closing():
            writer.write(encode_message(message))
            await writer.drain()


MOODS = ("changes", "wrong", "late", "named")


async def record_games(
    variant: str, games: int, log_dir: Path, *, seed: int = 0, config: dict[str, Any] | None = None
) -> list[Recording]:
    """Play ``games`` games of ``variant`` on one server, one at a time; every connection's
    frames."""
    settings = ServerSettings(
        variant=variant,
        port=0,
        seed=seed,
        games=games,
        config=config or {},
        deadline_ms=200,
        retries=1,
        bench_after=0,
        log_dir=log_dir,
    )
    server = GameServer(settings)
    await server.start()
    seats = server.lobby.num_seats
    recordings: list[Recording] = []
    try:
        for game in range(games):
            rng = random.Random(seed * 1000 + game)
            clients = []
            for seat in range(seats):
                mood = MOODS[seat] if seat < len(MOODS) else "plain"
                clients.append(
                    RandomRecorder(variant, server.port, random.Random(rng.random()), mood)
                )
            tasks = []
            for client in clients:  # connected in order: seats in order
                tasks.append(asyncio.create_task(client.play()))
                await asyncio.sleep(0)
                while len(server.connections) < len(tasks):
                    await asyncio.sleep(0.001)
            recordings += await asyncio.wait_for(asyncio.gather(*tasks), 120)
    finally:
        await server.close()
    return recordings
