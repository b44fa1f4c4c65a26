"""Shared pieces of the server benchmarks: a server process (on today's code or the baseline's),
its memory and CPU time, a light raw player.

Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from baseline import python_with
from duskfall.protocol import FrameDecoder, encode_message
from duskfall.variants.sports_mafia.wire import legal_from_valid_actions

CLI = [sys.executable, "-c", "from duskfall.cli import main; main()"]


async def start_server(
    *options: str, src: Path | None = None
) -> tuple[asyncio.subprocess.Process, int]:
    """``duskfall serve --port 0 OPTIONS`` in its own process (on the code in ``src``, default
    the working tree's); returns it and its port."""
    process = await asyncio.create_subprocess_exec(
        *CLI,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        *options,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=python_with(src) if src is not None else None,
    )
    assert process.stdout is not None
    banner = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
    match = re.search(r":(\d+) ", banner)
    if match is None:
        raise SystemExit(f"server did not start: {banner!r}")
    asyncio.get_running_loop().create_task(_drain(process.stdout))
    return process, int(match.group(1))


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass


async def stop_server(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()


def memory_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process in MB, from /proc."""
    values = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far."""
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


@dataclass
class RawPlayer:
    """A minimal random player on a raw connection; counts the frames it moves."""

    port: int
    seed: int
    state_updates: str | None = None  # sent in a HELLO when set ("full", "changes", "off")
    frames_in: int = 0
    frames_out: int = 0
    game_over: dict[str, Any] | None = None
    game_id: str | None = None
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        if self.state_updates is not None:
            hello = {"type": "HELLO", "state_updates": self.state_updates}
            self.writer.write(encode_message(hello))

    async def play(self, timeout: float) -> bool:
        decoder = FrameDecoder()
        async with asyncio.timeout(timeout):
            while self.game_over is None:
                data = await self.reader.read(65536)
                if not data:
                    break
                for payload in decoder.feed(data):
                    self.frames_in += 1
                    self._handle(json.loads(payload))
                await self.writer.drain()
        self.writer.close()
        return self.game_over is not None

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "HELLO":
            self.game_id = message["game_id"]
        elif kind == "ACTION_REQUEST" and message["valid_actions"]:
            legal = legal_from_valid_actions(message["phase"], message["valid_actions"])
            reply = {
                "type": "ACTION_RESPONSE",
                "player_id": message["player_id"],
                "action": legal.sample(self.rng).to_dict(),
                "request_id": message.get("request_id"),
            }
            self.writer.write(encode_message(reply))
            self.frames_out += 1
        elif kind == "GAME_EVENT" and message["event"] == "GAME_OVER":
            self.game_over = message


async def seat_group(
    port: int, size: int, seed: int, state_updates: str | None = None
) -> list[RawPlayer]:
    """``size`` players connected one after another (so they share one room)."""
    players = [RawPlayer(port, seed * 1000 + i, state_updates) for i in range(size)]
    for player in players:
        await player.connect()
    return players
