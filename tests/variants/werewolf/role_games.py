"""A game of one Werewolf table with seat 0 played over the wire (a random client on the TCP
server) or by a person in the browser seat (answers from each decision's schema): the role
tests' proof that a role is playable there."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import replay


async def over_the_wire(
    tmp_path: Path, config: dict[str, Any], seed: int
) -> tuple[list[dict[str, Any]], GameLog]:
    """Seat 0's ``ACTION_REQUEST``s (with choices) and the game's log (replayed)."""
    from duskfall.protocol import FrameDecoder, encode_message
    from duskfall.server import GameServer, ServerSettings

    codec = get_variant("werewolf").info.wire
    assert codec is not None
    settings = ServerSettings(
        log_dir=tmp_path, port=0, seed=seed, variant="werewolf", config=config,
        games=1, fill_bots_after=0, deadline_ms=60_000,
    )  # fmt: skip
    server = GameServer(settings)
    await server.start()
    seen: list[dict[str, Any]] = []
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        decoder, rng, over = FrameDecoder(16 * 1024 * 1024), random.Random(1), False
        while not over:
            data = await asyncio.wait_for(reader.read(65536), 60)
            assert data, "the server closed the connection before the game ended"
            for raw in decoder.feed(data):
                message = json.loads(raw)
                seen.append(message)
                if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                    legal = codec.legal_from_wire(
                        message["phase"], message["valid_actions"], message.get("legal_state")
                    )
                    answer = {"type": "ACTION_RESPONSE", "player_id": message["player_id"],
                              "action": legal.sample(rng).to_dict()}  # fmt: skip
                    if "request_id" in message:
                        answer["request_id"] = message["request_id"]
                    writer.write(encode_message(answer))
                    await writer.drain()
                over = over or (message["type"] == "GAME_EVENT" and message["event"] == "GAME_OVER")
        writer.close()
    finally:
        await server.close()
    hello = seen[0]
    assert hello["type"] == "HELLO" and hello["player_id"] == 0
    log = read_log(next(tmp_path.glob("*.jsonl")))
    replay(log)
    requests = [m for m in seen if m["type"] == "ACTION_REQUEST" and m["valid_actions"]]
    return requests, log


def in_the_browser(
    tmp_path: Path, config: dict[str, Any], seed: int
) -> tuple[list[dict[str, Any]], GameLog]:
    """The decisions the browser seat 0 was asked, and the game's log."""
    from duskfall.testing.require import require

    require("fastapi", "pip install 'duskfall[web]'")
    from fastapi.testclient import TestClient

    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app
    from web.conftest import answer_for

    admin = "role-table-admin-token"
    games = tmp_path / "games"
    games.mkdir()
    settings = WebSettings(games, tmp_path / "index.db", Access(admin), allow_hosts=("testserver",))
    asked: list[dict[str, Any]] = []
    with TestClient(create_app(settings)) as client:
        started = client.post(
            "/api/games",
            json={"variant": "werewolf", "seed": seed, "agents": "random", "human_seats": [0],
                  "config": config},
            headers={"Authorization": f"Bearer {admin}"},
        )  # fmt: skip
        assert started.status_code == 201, started.text
        game_id, token = started.json()["game_id"], started.json()["seats"]["0"]["token"]
        url = f"/api/games/{game_id}/seats/0/action"
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            ws.send_json({"type": "hello", "seat": 0, "token": token})
            message = ws.receive_json()
            request = message.get("request")
            while True:
                if request is not None:
                    asked.append(request)
                    body = {"request_id": request["request_id"], "action": answer_for(request)}
                    headers = {"Authorization": f"Bearer {token}"}
                    client.post(url, json=body, headers=headers)
                    request = None
                message = ws.receive_json()
                if message["type"] == "decision":
                    request = message["request"]
                elif message["type"] == "status" and message["status"] == "finished":
                    break
    log = read_log(games / f"{game_id}.jsonl")
    assert log.finished and log.header.roster[0]["agent"] == "human:browser"
    return asked, log
