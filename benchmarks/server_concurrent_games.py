"""100 games at once on one server (1,000 connections): completion, frames per second, peak RSS.

    python benchmarks/server_concurrent_games.py [--games 100] [--max-seconds 300]

The server is a separate ``duskfall serve`` process (logs written to a temporary directory);
the 1,000 random players are light raw clients in this process, seated ten by ten so that
each game fills, then all played at once.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import tempfile
import time

from server_common import memory_mb, seat_group, start_server, stop_server


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    with tempfile.TemporaryDirectory() as logs:
        process, port = await start_server(
            "--log-dir",
            logs,
            "--seed",
            "1",
            "--games",
            str(args.games),
            "--max-connections",
            str(args.games * 10 + 100),
        )
        try:
            idle_rss, _ = memory_mb(process.pid)
            start = time.perf_counter()
            groups = [await seat_group(port, 10, g) for g in range(args.games)]
            seated = time.perf_counter() - start
            players = [p for group in groups for p in group]
            results = await asyncio.gather(
                *(p.play(args.max_seconds) for p in players), return_exceptions=True
            )
            elapsed = time.perf_counter() - start
            rss, peak = memory_mb(process.pid)
            await asyncio.wait_for(process.wait(), 60)  # --games: it stops by itself
        finally:
            await stop_server(process)
    complete = sum(r is True for r in results)
    games = {p.game_id for p in players if p.game_over is not None}
    frames = sum(p.frames_in + p.frames_out for p in players)
    print(f"connections: {len(players)}, seated in {seated:.2f}s")
    print(f"players that saw GAME_OVER: {complete}/{len(players)}; games finished: {len(games)}")
    print(f"server exit code: {process.returncode}")
    print(f"wall time: {elapsed:.2f}s; frames (both directions): {frames}")
    print(f"frames per second: {frames / elapsed:,.0f}")
    print(f"games per second: {len(games) / elapsed:.1f}")
    print(f"server RSS idle {idle_rss:.1f} MB, at the end {rss:.1f} MB, peak {peak:.1f} MB")
    print(f"peak RSS per connection: {(peak - idle_rss) * 1024 / len(players):.1f} KB")


if __name__ == "__main__":
    asyncio.run(main())
