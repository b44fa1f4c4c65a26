"""The blocking and asyncio clients against a scripted server: awkward chunking, callbacks,
request ids echoed, only real requests answered, closed connections."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from duskfall.client import AsyncClient, BlockingClient, ClientSession
from duskfall.protocol import ActionRequest, FrameDecoder, encode_frame, encode_message

HELLO = {
    "type": "HELLO",
    "player_id": 4,
    "game_id": "g1",
    "variant": "sports-mafia",
    "num_players": 10,
    "token": "tok",
}
UPDATE = {
    "type": "ACTION_REQUEST",
    "player_id": 4,
    "phase": "VOTING",
    "valid_actions": {},
    "observation": {"turn": 0},
}
REQUEST = {**UPDATE, "valid_actions": {"vote": [1, 2]}, "request_id": 9}
SEED_REQUEST = {**UPDATE, "valid_actions": {"vote": [3]}}  # no extensions at all
ERROR = {"type": "ERROR", "message": "Invalid target"}
EVENT = {"type": "GAME_EVENT", "event": "PLAYER_ELIMINATED", "player_id": 3}
OVER = {"type": "GAME_EVENT", "event": "GAME_OVER", "winner": "RED"}


def _stream(*messages: dict[str, Any]) -> bytes:
    return b"".join(encode_message(m) for m in messages)


@asynccontextmanager
async def scripted_server(
    data: bytes, replies: list[dict[str, Any]], *, expect_replies: int, close_early: bool = False
) -> AsyncIterator[int]:
    """Sends ``data`` in awkward pieces and records the replies; on exit, waits (bounded) until
    ``expect_replies`` replies arrived or the client closed."""
    collected = asyncio.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = FrameDecoder()
        pieces = [data[:3], data[3:11], data[11 : len(data) // 2], data[len(data) // 2 :]]
        if close_early:
            pieces = [data[: len(data) - 5]]
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
        while len(replies) < expect_replies:
            chunk = await reader.read(4096)
            if not chunk:
                break
            replies.extend(json.loads(p) for p in decoder.feed(chunk))
        collected.set()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
        await asyncio.wait_for(collected.wait(), 30)
    finally:
        server.close()
        await server.wait_closed()


def test_session_handles_partial_and_batched_frames_and_skips_junk() -> None:
    session = ClientSession()
    stream = _stream(HELLO, UPDATE) + encode_frame(b"{junk") + _stream(REQUEST, OVER)
    got = []
    for i in range(0, len(stream), 5):
        got += session.receive(stream[i : i + 5])
    assert [m.type for m in got] == ["HELLO", "ACTION_REQUEST", "ACTION_REQUEST", "GAME_EVENT"]
    assert (session.player_id, session.game_id, session.token) == (4, "g1", "tok")
    assert session.finished and session.game_over is not None
    request = ActionRequest.model_validate(REQUEST)
    response = json.loads(session.response({"type": "VOTE", "target": 1}, request)[8:])
    assert response == {
        "type": "ACTION_RESPONSE",
        "player_id": 4,
        "action": {"type": "VOTE", "target": 1},
        "request_id": 9,
    }


async def test_blocking_client_callbacks_and_answers() -> None:
    replies: list[dict[str, Any]] = []
    events: list[str] = []
    errors: list[str] = []
    data = _stream(HELLO, UPDATE, REQUEST, ERROR, SEED_REQUEST, EVENT, OVER)
    async with scripted_server(data, replies, expect_replies=2) as port:

        def choose(request: ActionRequest) -> dict[str, Any]:
            return {"type": "VOTE", "target": request.valid_actions["vote"][0]}

        client = BlockingClient(
            "127.0.0.1",
            port,
            on_action_request=choose,
            on_event=lambda e: events.append(e.event),
            on_error=lambda e: errors.append(e.message),
        )
        client.connect()
        over = await asyncio.to_thread(client.run)
        client.close()
    assert over is not None and over.payload["winner"] == "RED"
    assert events == ["PLAYER_ELIMINATED", "GAME_OVER"]
    assert errors == ["Invalid target"]
    assert replies == [
        {
            "type": "ACTION_RESPONSE",
            "player_id": 4,
            "action": {"type": "VOTE", "target": 1},
            "request_id": 9,
        },
        {"type": "ACTION_RESPONSE", "player_id": 4, "action": {"type": "VOTE", "target": 3}},
    ]
    assert client.session.token == "tok"


async def test_blocking_client_in_a_background_thread_subclassed() -> None:
    replies: list[dict[str, Any]] = []

    class Voter(BlockingClient):
        def determine_action(self, request: ActionRequest) -> dict[str, Any] | None:
            return {"type": "VOTE", "target": 2}

    async with scripted_server(_stream(REQUEST, OVER), replies, expect_replies=1) as port:
        client = Voter("127.0.0.1", port)
        client.start()
        over = await asyncio.to_thread(client.wait, 30)
        client.close()
    assert over is not None
    assert replies[0]["action"] == {"type": "VOTE", "target": 2}


async def test_async_client_with_a_coroutine_policy() -> None:
    replies: list[dict[str, Any]] = []
    hellos: list[int] = []

    async def choose(request: ActionRequest) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"type": "VOTE", "target": 2}

    data = _stream(HELLO, UPDATE, REQUEST, EVENT, OVER)
    async with scripted_server(data, replies, expect_replies=1) as port:
        client = AsyncClient(
            "127.0.0.1",
            port,
            on_action_request=choose,
            on_hello=lambda h: hellos.append(h.player_id),
        )
        over = await asyncio.wait_for(client.run(), 30)
        await client.close()
    assert over is not None and hellos == [4]
    assert replies == [
        {
            "type": "ACTION_RESPONSE",
            "player_id": 4,
            "action": {"type": "VOTE", "target": 2},
            "request_id": 9,
        }
    ]


async def test_clients_return_none_when_the_server_closes_mid_frame() -> None:
    async with scripted_server(
        _stream(HELLO, EVENT), [], expect_replies=0, close_early=True
    ) as port:
        blocking = BlockingClient("127.0.0.1", port, on_action_request=lambda r: None)
        blocking.connect()
        assert await asyncio.to_thread(blocking.run) is None
        blocking.close()
        aio = AsyncClient("127.0.0.1", port, on_action_request=lambda r: None, reconnects=0)
        assert await asyncio.wait_for(aio.run(), 30) is None
        await aio.close()
