"""Hostile load: 10,000 malformed frames from attacking connections while 10 honest games run.

    python benchmarks/server_hostile.py [--frames 10000] [--attackers 50] [--max-seconds 300]

Reports: whether the server process survived, how many honest games completed, the server's
RSS growth, and how the malformed frames were answered. Attack kinds: invalid UTF-8, invalid
JSON, non-objects, unknown types, wrong field types, answers out of turn, stale request ids;
plus connections killed by an oversized length prefix or a frame never completed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time

from duskfall.protocol import encode_frame, encode_message
from server_common import memory_mb, seat_group, start_server, stop_server

MALFORMED = [
    encode_frame(b"\xff\xfe\xfd"),
    encode_frame(b"{not json"),
    encode_frame(b"[1, 2, 3]"),
    encode_message({"type": "HACK", "action": {}}),
    encode_message({"type": "ACTION_RESPONSE", "action": "VOTE 3"}),
    encode_message({"type": "ACTION_RESPONSE", "action": {"type": "KILL", "target": 99}}),
    encode_message({"type": "ACTION_RESPONSE", "action": {}, "request_id": 123456}),
    encode_message({"type": "HELLO", "token": "x" * 500}),
    encode_frame(b"9" * 5000),
]


async def attack(port: int, frames: int) -> int:
    """Send ``frames`` malformed frames on one connection, reading what comes back."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = 0

    async def read() -> None:
        nonlocal received
        while data := await reader.read(65536):
            received += len(data)

    reading = asyncio.create_task(read())
    for frame in itertools.islice(itertools.cycle(MALFORMED), frames):
        writer.write(frame)
        await writer.drain()
        await asyncio.sleep(0.001)
    writer.close()
    reading.cancel()
    return received


async def killer(port: int, data: bytes) -> None:
    """A connection the server must drop: oversized length or a never-finished frame."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    await asyncio.wait_for(reader.read(), 60)  # the ERROR, then the server closes
    writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--attackers", type=int, default=50)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    args = parser.parse_args()
    per_attacker = args.frames // args.attackers
    with tempfile.TemporaryDirectory() as logs:
        process, port = await start_server(
            "--log-dir", logs, "--seed", "1", "--read-timeout", "1", "--deadline-ms", "2000"
        )
        try:
            base_rss, _ = memory_mb(process.pid)
            # the honest tables are seated first (their games start and wait for answers)
            groups = [await seat_group(port, 10, g) for g in range(10)]
            honest = [p for group in groups for p in group]
            start = time.perf_counter()
            attacks = [
                asyncio.create_task(attack(port, per_attacker)) for _ in range(args.attackers)
            ]
            kills = [
                asyncio.create_task(killer(port, data))
                for data in [(2**40).to_bytes(8, "big"), b"\x00\x00\x00\x00\x01"] * 10
            ]
            results = await asyncio.gather(
                *(p.play(args.max_seconds) for p in honest), return_exceptions=True
            )
            honest_done = time.perf_counter() - start
            await asyncio.gather(*attacks, *kills, return_exceptions=True)
            elapsed = time.perf_counter() - start
            alive = process.returncode is None
            rss, peak = memory_mb(process.pid)
        finally:
            await stop_server(process)
    games = {p.game_id for p in honest if p.game_over is not None}
    sent = per_attacker * args.attackers
    print(f"malformed frames sent: {sent} on {args.attackers} connections, plus 20 killed")
    print(f"server alive afterwards: {alive} (crashes: {0 if alive else 1})")
    print(f"honest players that saw GAME_OVER: {sum(r is True for r in results)}/{len(honest)}")
    print(f"honest games completed: {len(games)}/10 in {honest_done:.2f}s (attack {elapsed:.2f}s)")
    print(f"server RSS before {base_rss:.1f} MB, after {rss:.1f} MB, peak {peak:.1f} MB")
    print(f"RSS growth: {rss - base_rss:.1f} MB (peak growth {peak - base_rss:.1f} MB)")


if __name__ == "__main__":
    asyncio.run(main())
