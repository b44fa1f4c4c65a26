"""serve --ws: the same messages over WebSocket, one message per frame, with the same seats,
tokens and limits; TCP and WebSocket clients play at the same table."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .support import WireClient, game_log, random_action, serving


class WsClient:
    """A bare WebSocket client: JSON text messages in and out."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    async def recv(self) -> dict[str, Any] | None:
        try:
            text = await asyncio.wait_for(self.ws.recv(), 30)
        except ConnectionClosed:
            return None
        message: dict[str, Any] = json.loads(text)
        self.seen.append(message)
        return message

    async def next(self, kind: str) -> dict[str, Any]:
        while (message := await self.recv()) is not None:
            if message["type"] == kind and (kind != "ACTION_REQUEST" or message["valid_actions"]):
                return message
        raise AssertionError(f"closed while waiting for {kind}")

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def play(self, rng: random.Random) -> dict[str, Any] | None:
        while (message := await self.recv()) is not None:
            if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                action = random_action(message, rng)
                await self.send(
                    {
                        "type": "ACTION_RESPONSE",
                        "player_id": message["player_id"],
                        "request_id": message["request_id"],
                        "action": action,
                    }
                )
            elif message.get("event") == "GAME_OVER":
                return message
        return None


async def test_websocket_and_tcp_clients_play_one_game(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, ws_port=0) as server:
        assert server.ws_port
        url = f"ws://127.0.0.1:{server.ws_port}/"
        sockets = [await connect(url) for _ in range(5)]
        ws_clients = [WsClient(ws) for ws in sockets]
        hellos = [await c.next("HELLO") for c in ws_clients]
        tcp_clients = [await WireClient.open(server.port) for _ in range(5)]
        results = await asyncio.gather(
            *(c.play(random.Random(i)) for i, c in enumerate(ws_clients)),
            *(c.play(random.Random(10 + i)) for i, c in enumerate(tcp_clients)),
        )
        for ws in sockets:
            await ws.close()
    assert [h["player_id"] for h in hellos] == [0, 1, 2, 3, 4]
    assert all(r is not None and r["event"] == "GAME_OVER" for r in results)
    events = [m for m in ws_clients[0].seen if m["type"] == "GAME_EVENT"]
    assert [m["seq"] for m in events] == list(range(1, len(events) + 1))
    log = game_log(server, hellos[0]["game_id"])
    assert not [e for e in log.events if e.kind in ("fallback", "invalid_action")]


async def test_a_websocket_client_reconnects_with_its_tcp_token(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, ws_port=0, reconnect_grace=30) as server:
        clients = [await WireClient.open(server.port) for _ in range(10)]
        others = [asyncio.create_task(c.play(random.Random(i))) for i, c in enumerate(clients[1:])]
        first = clients[0]
        request = await first.request()
        await first.close()
        async with connect(f"ws://127.0.0.1:{server.ws_port}/") as ws:
            client = WsClient(ws)
            await client.send({"type": "HELLO", "token": first.hello["token"], "last_seq": 0})  # type: ignore[index]
            hello = await client.next("HELLO")
            again = await client.next("ACTION_REQUEST")
            assert hello["reconnected"] and again["request_id"] == request["request_id"]
            replayed = [m["seq"] for m in client.seen if m["type"] == "GAME_EVENT"]
            assert replayed == list(range(1, len(replayed) + 1))  # everything from the start
            action = random_action(again, random.Random(0))
            await client.send(
                {"type": "ACTION_RESPONSE", "request_id": again["request_id"], "action": action}
            )
            assert await client.play(random.Random(1)) is not None
        await asyncio.gather(*others)


async def test_websocket_errors_and_limits_are_the_servers(tmp_path: Path) -> None:
    async with (
        serving(tmp_path, games=1, ws_port=0, max_frame=4096) as server,
        connect(f"ws://127.0.0.1:{server.ws_port}/", max_size=None) as ws,
    ):
        client = WsClient(ws)
        await client.next("HELLO")
        await ws.send("not json")
        error = await client.next("ERROR")
        assert error["code"] == "bad_json"
        await ws.send("x" * 5000)  # over --max-frame: closed with 1009
        assert await client.recv() is None
        assert ws.close_code == 1009
