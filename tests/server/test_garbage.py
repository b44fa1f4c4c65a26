"""A served game is freed by reference counting: none of duskfall's objects of a finished game
(room, seats, record, events) is left for the cyclic garbage collector, which would otherwise
promote every game to the oldest generation and scan the server's whole heap again and again.
"""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from .support import autoplay, seat_clients, serving, wait_game_done


def _duskfall_garbage() -> list[str]:
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        return sorted(
            {
                type(item).__qualname__
                for item in gc.garbage
                if type(item).__module__.startswith("duskfall")
            }
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_a_served_game_leaves_no_cycles_of_its_own(tmp_path: Path) -> None:
    gc.collect()
    gc.disable()
    try:
        async with serving(tmp_path, games=1) as server:
            clients = await seat_clients(server.port, 10)
            overs = await asyncio.gather(*autoplay(clients))
            await wait_game_done(server)
            assert all(over is not None for over in overs)
            for client in clients:
                client.writer.close()
                await client.writer.wait_closed()
            del clients
            # the server lives on; what the game held must already be gone
            assert _duskfall_garbage() == []
    finally:
        gc.enable()
