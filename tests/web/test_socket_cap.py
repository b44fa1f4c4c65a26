"""One client address cannot hold every connection ``duskfall web`` allows: its game sockets are
capped (below the cap on connections), the extra ones closed with 1013 and a reason, and honest
requests are answered while the allowed ones stay open."""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.request
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from duskfall.testing.web_server import running_server
from duskfall.web.limits import ConnectionLimits

from .conftest import ADMIN, play_logged

CONNECTIONS = 24  # the server's cap on open connections
PER_CLIENT = 6


async def _watch(url: str) -> tuple[ClientConnection, dict[str, object]]:
    """A spectator socket on the public view, and its first message."""
    ws = await connect(url)
    with contextlib.suppress(ConnectionClosed):  # a refused socket may be closed already
        await ws.send(json.dumps({"type": "hello", "seat": -1}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 30))


async def _refused(ws: ClientConnection) -> int | None:
    """The close code of a socket the server closes (None: it stays open)."""
    try:
        await asyncio.wait_for(ws.recv(), 30)
    except ConnectionClosed:
        return ws.close_code
    return None


def test_spectator_sockets_are_capped_per_address(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    game_id = play_logged(games, seed=4).stem
    limits = ConnectionLimits(max_connections=CONNECTIONS)
    with running_server(games, tmp_path / "index.db", ADMIN, limits, PER_CLIENT) as server:
        url = server.url.replace("http", "ws") + f"/api/games/{game_id}/ws"

        async def attack() -> None:
            opened = [await _watch(url) for _ in range(CONNECTIONS + 4)]
            kept = [ws for ws, first in opened if first["type"] == "snapshot"]
            refused = [(ws, first) for ws, first in opened if first["type"] == "error"]
            assert len(kept) == PER_CLIENT and len(refused) == CONNECTIONS + 4 - PER_CLIENT
            assert "too many sockets open from your address" in str(refused[0][1]["message"])
            assert {await _refused(ws) for ws, _ in refused} == {1013}
            # the kept sockets stay open, and honest requests are answered meanwhile
            for _ in range(CONNECTIONS):
                reply = await asyncio.to_thread(urllib.request.urlopen, server.url + "/api/games")
                assert reply.status == 200
                reply.close()
            await kept[0].close()  # a closed socket makes room for another
            for _ in range(100):  # once the server has seen it go
                ws, first = await _watch(url)
                if first["type"] == "snapshot":
                    break
                await asyncio.sleep(0.1)
            assert first["type"] == "snapshot"
            for socket in [*kept[1:], ws]:
                await socket.close()

        asyncio.run(attack())
