"""``duskfall web`` under a slowloris: with fewer file descriptors than attacking connections,
an honest request is still answered, every connection that never finishes its headers or its
body is cut (408), and a WebSocket that is quiet for longer than those deadlines stays open."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from duskfall.testing.ports import free_port

from .conftest import ADMIN, play_logged

pytestmark = [pytest.mark.subprocess]

FD_LIMIT = 256  # the server process's descriptors: fewer than the attack's connections
ATTACKERS = 400
LIMITS = ["--header-timeout", "1", "--body-timeout", "1", "--max-connections", "100"]
WAIT = 30.0


def _few_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FD_LIMIT, FD_LIMIT))


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """A ``duskfall web`` process with short deadlines and few descriptors; (port, game id)."""
    games = tmp_path / "games"
    games.mkdir()
    game_id = play_logged(games, seed=4).stem
    port = free_port()
    env = {**os.environ, "DUSKFALL_ADMIN_TOKEN": ADMIN}
    command = [sys.executable, "-m", "duskfall", "web", "--port", str(port), *LIMITS]
    command += ["--games-dir", str(games), "--db", str(tmp_path / "index.db")]
    errors = (tmp_path / "web.err").open("wb")
    with subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=errors, preexec_fn=_few_descriptors
    ) as process:
        try:
            deadline = time.monotonic() + WAIT
            while True:  # start-up of a child process: poll its port
                assert process.poll() is None, "duskfall web exited"
                assert time.monotonic() < deadline, "duskfall web did not start"
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            yield port, game_id
        finally:
            process.terminate()
            process.wait(timeout=10)
            errors.close()
    assert b"Too many open files" not in (tmp_path / "web.err").read_bytes()


async def _cut_after(port: int, sent: bytes) -> bytes:
    """Open a connection, send ``sent`` and nothing more; the status line the server sent
    before it closed the connection (``reset`` if it closed it before reading ``sent``)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(sent)
    try:
        answer = await asyncio.wait_for(reader.read(), WAIT)  # TimeoutError: never cut
    except ConnectionError:
        answer = b"reset"
    writer.close()
    return answer.partition(b"\r\n")[0]


async def _get(port: int, path: str) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readline(), WAIT)
    writer.close()
    return int(head.split()[1])


async def test_slow_clients_are_cut_and_honest_ones_served(web: tuple[int, str]) -> None:
    from websockets.asyncio.client import connect

    port, game_id = web
    async with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws") as spectator:
        await spectator.send(json.dumps({"type": "hello", "seat": None, "token": ADMIN}))
        assert json.loads(await spectator.recv())["type"] == "snapshot"
        partial = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        attack = [asyncio.create_task(_cut_after(port, partial)) for _ in range(ATTACKERS)]
        idle = asyncio.create_task(_cut_after(port, b""))
        body = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ADMIN}\r\n"
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"variant": '
        ).encode()
        slow_body = asyncio.create_task(_cut_after(port, body))
        await asyncio.sleep(0)  # let the attack connect first
        assert await _get(port, "/api/games") == 200  # served although the attackers are more
        cut = Counter(await asyncio.gather(*attack))  # every one of them: none waited WAIT
        assert set(cut) <= {b"HTTP/1.1 408 Request Timeout", b"reset"}, cut
        assert cut[b"HTTP/1.1 408 Request Timeout"] > ATTACKERS / 2, cut
        assert await idle == b"HTTP/1.1 408 Request Timeout"
        assert await slow_body == b"HTTP/1.1 408 Request Timeout"
        await asyncio.wait_for(await spectator.ping(), WAIT)  # still open, past the deadlines
    assert await _get(port, "/api/games") == 200
