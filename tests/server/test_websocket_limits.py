"""serve --ws keeps the TCP clients' read deadline and the web app's Origin rule: a message
trickled a byte at a time is cut (an ERROR, then 1008), idle time between messages is free, and
a page of another site (or ``Origin: null``) cannot open a socket."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from duskfall.testing.ws_frames import text_frame, upgrade_request

from .support import serving

READ_TIMEOUT = 1.0
TRICKLE = 0.3  # seconds between the bytes of the trickled message


async def _upgraded(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw WebSocket connection (the opening handshake done by hand)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(upgrade_request(port))
    status = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    assert status.startswith(b"HTTP/1.1 101"), status
    return reader, writer


async def test_a_trickled_message_is_cut_at_the_read_deadline(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, ws_port=0, read_timeout=READ_TIMEOUT) as server:
        assert server.ws_port
        reader, writer = await _upgraded(server.ws_port)
        frame = text_frame(json.dumps({"type": "HELLO", "name": "slow" * 10}).encode())
        sent = 0
        received = b""

        async def collect() -> None:  # until the server closes
            nonlocal received
            with contextlib.suppress(ConnectionError):
                while chunk := await reader.read(1 << 16):
                    received += chunk

        collecting = asyncio.create_task(collect())
        for byte in frame:
            if collecting.done():
                break
            writer.write(bytes([byte]))
            sent += 1
            await asyncio.sleep(TRICKLE)
        await asyncio.wait_for(collecting, 30)
        writer.close()
    assert sent < len(frame)  # cut long before the message could be whole
    assert b'"code":"read_timeout"' in received
    assert b"\x88" in received and b"\x03\xf0" in received  # a close frame, code 1008


async def test_idle_time_between_messages_is_free(tmp_path: Path) -> None:
    async with (
        serving(tmp_path, games=1, ws_port=0, read_timeout=READ_TIMEOUT) as server,
        connect(f"ws://127.0.0.1:{server.ws_port}/") as ws,
    ):
        first = json.loads(await ws.recv())
        assert first["type"] == "HELLO"
        await asyncio.sleep(READ_TIMEOUT * 1.5)
        await ws.send("not json")
        while (message := json.loads(await asyncio.wait_for(ws.recv(), 30)))["type"] != "ERROR":
            pass
        assert message["code"] == "bad_json"


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "file://", "http://127.0.0.1.evil.example"]
)
async def test_a_page_of_another_site_cannot_open_a_socket(tmp_path: Path, origin: str) -> None:
    async with serving(tmp_path, games=1, ws_port=0) as server:
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"ws://127.0.0.1:{server.ws_port}/", origin=origin)
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize("origin", [None, "http://127.0.0.1:8000", "http://localhost"])
async def test_programs_and_local_pages_may_open_a_socket(
    tmp_path: Path, origin: str | None
) -> None:
    async with (
        serving(tmp_path, games=1, ws_port=0) as server,
        connect(f"ws://127.0.0.1:{server.ws_port}/", origin=origin) as ws,
    ):
        assert json.loads(await ws.recv())["type"] == "HELLO"
