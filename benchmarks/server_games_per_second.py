"""Games per second: 10 RandomAgent clients over loopback, games back to back, one server.

    python benchmarks/server_games_per_second.py [--games 40] [--max-seconds 120]

The clients are duskfall's own agent clients (``duskfall connect --agent random``'s code),
all in this process; the server is a separate ``duskfall serve`` process writing its logs.
For scale it also plays the same number of games in-process (no network) with random bots.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

from duskfall.client.agent import AgentClient, AgentPlayer
from duskfall.session import GameSetup, run_game
from server_common import start_server, stop_server


async def one_game(port: int, seed: int) -> bool:
    clients = [
        AgentClient("127.0.0.1", port, AgentPlayer("random", seed=seed * 10 + i)) for i in range(10)
    ]
    for client in clients:
        await client.connect()
    results = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 60)
    for client in clients:
        await client.close()
    return all(r is not None for r in results)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=120.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as logs:
        process, port = await start_server("--log-dir", logs, "--seed", "1")
        try:
            await one_game(port, 10_000)  # warm-up
            played = ok = 0
            start = time.perf_counter()
            while played < args.games and time.perf_counter() - start < args.max_seconds:
                ok += await one_game(port, played)
                played += 1
            elapsed = time.perf_counter() - start
        finally:
            await stop_server(process)
    start = time.perf_counter()
    for seed in range(played):
        await run_game(GameSetup(variant="sports-mafia", seed=seed, write_log=False))
    local = time.perf_counter() - start
    print(f"games played over TCP: {played} ({ok} complete) in {elapsed:.2f}s")
    print(f"games per second over loopback (10 clients, one server): {played / elapsed:.1f}")
    print(f"games per second in-process, no network, no log: {played / local:.1f}")
    print(f"ratio in-process / over the wire: {elapsed / local:.1f}x")


if __name__ == "__main__":
    asyncio.run(main())
