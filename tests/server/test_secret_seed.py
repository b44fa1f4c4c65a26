"""Nothing a TCP client receives while its game runs gives away the game's seed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from duskfall.testing.secrecy import leaked_seeds

from .support import autoplay, game_log, seat_clients, serving, wait_game_done


async def test_no_frame_gives_away_the_seed(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, seed=None) as server:
        clients = await seat_clients(server.port, 10)
        await asyncio.gather(*autoplay(clients))
        await wait_game_done(server)
    game_id = clients[0].hello["game_id"]  # type: ignore[index]
    header = game_log(server, game_id).header
    seen = []
    for client in clients:
        seen.append(client.hello)
        for message in client.seen:  # every frame up to the end of the game
            if message.get("event") == "GAME_OVER":
                break
            seen.append(message)
    assert len(seen) > 100
    assert leaked_seeds(seen, header.variant, header.config, header.seed) == []
    assert header.seed.bit_length() > 64  # drawn from the OS: 128 bits (this fails 1 in 2**64)
