"""Hostile load beside 10 honest games: malformed frames, idle connections and a slowloris.

    python benchmarks/server_hostile.py [--cases malformed,idle] [--frames 10000]
        [--attackers 50] [--idle 200] [--max-seconds 300]

First 10 honest games are played with no attack (the baseline), then each case runs beside 10
new honest games on the same server process; per case it prints each honest game's time as a
ratio of the baseline's, and the server's RSS growth. The honest tables are seated first (each
fills a room), then the attackers connect (filling rooms of their own), then everyone plays.

- ``malformed``: ``--frames`` malformed frames on ``--attackers`` connections (invalid UTF-8,
  invalid JSON, non-objects, unknown types, wrong field types, answers out of turn, stale ids),
  plus 20 connections killed by an oversized length prefix or a frame never completed.
- ``idle``: ``--idle`` connections that never send a byte, plus a slowloris sending one byte a
  second of a frame that never ends (and reconnecting whenever it is cut). Run once as the
  server comes and once with ``--seat-after-hello`` (the honest players then open with a HELLO).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import statistics
import tempfile
import time

from duskfall.protocol import encode_frame, encode_message
from server_common import RawPlayer, memory_mb, start_server, stop_server

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
HONEST_GAMES = 10
SEATS = 10


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


async def idle(port: int, stop: asyncio.Event) -> None:
    """Connect and never send a byte; read (and drop) whatever comes until told to stop."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def drain() -> None:
        while await reader.read(65536):
            pass

    task = asyncio.create_task(drain())
    await stop.wait()
    task.cancel()
    writer.close()


async def slowloris(port: int, stop: asyncio.Event) -> list[float]:
    """One byte a second of a frame that never ends; reconnects when cut, until ``stop`` is
    set and it was cut at least once. Returns how long each cut connection lasted."""
    lasted: list[float] = []
    frame = encode_frame(b'{"type": "HELLO", "name": "' + b"z" * 10_000)
    while not (stop.is_set() and lasted):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        reading = asyncio.create_task(reader.read(-1))  # the server's frames, then its close
        start = time.perf_counter()
        with contextlib.suppress(ConnectionError, OSError):
            for byte in frame:
                writer.write(bytes([byte]))
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(reading), 1.0)
                if reading.done():
                    lasted.append(time.perf_counter() - start)
                    break
        reading.cancel()
        writer.close()
    return lasted


class Honest(RawPlayer):
    """The benchmark's random player; opens with a HELLO when the server needs one."""

    hello: bool = False

    async def connect(self) -> None:
        await super().connect()
        if self.hello:
            self.writer.write(encode_message({"type": "HELLO"}))


async def seat_honest(port: int, seed: int, hello: bool) -> list[list[Honest]]:
    """10 honest tables, connected group by group (each fills one room)."""
    groups = []
    for g in range(HONEST_GAMES):
        players = [Honest(port, (seed + g) * 1000 + i) for i in range(SEATS)]
        for player in players:
            player.hello = hello
            await player.connect()
        groups.append(players)
    return groups


async def play_honest(groups: list[list[Honest]], max_seconds: float) -> list[float]:
    """Play the honest tables; the seconds each game took."""

    async def play(group: list[Honest]) -> float:
        start = time.perf_counter()
        done = await asyncio.gather(*(p.play(max_seconds) for p in group))
        assert all(done), "an honest game did not finish"
        return time.perf_counter() - start

    return list(await asyncio.gather(*(play(g) for g in groups)))


def report(name: str, times: list[float], base: list[float], rss: tuple[float, float]) -> None:
    mean_base = statistics.mean(base)
    ratios = [t / mean_base for t in times]
    print(
        f"{name}: honest games {len(times)}/{HONEST_GAMES}, mean {statistics.mean(times):.2f}s, "
        f"max {max(times):.2f}s; ratio to the baseline mean: max {max(ratios):.2f}x, "
        f"mean {statistics.mean(ratios):.2f}x; RSS growth {rss[1] - rss[0]:.1f} MB"
    )


async def case_malformed(port: int, pid: int, args: argparse.Namespace, base: list[float]) -> None:
    before = memory_mb(pid)[0]
    groups = await seat_honest(port, 100, False)
    per_attacker = args.frames // args.attackers
    attacks = [asyncio.create_task(attack(port, per_attacker)) for _ in range(args.attackers)]
    kills = [
        asyncio.create_task(killer(port, data))
        for data in [(2**40).to_bytes(8, "big"), b"\x00\x00\x00\x00\x01"] * 10
    ]
    times = await play_honest(groups, args.max_seconds)
    await asyncio.gather(*attacks, *kills, return_exceptions=True)
    print(
        f"malformed: {per_attacker * args.attackers} malformed frames on {args.attackers} "
        "connections, plus 20 killed"
    )
    report("malformed", times, base, (before, memory_mb(pid)[0]))


async def case_idle(
    port: int, pid: int, args: argparse.Namespace, base: list[float], hello: bool
) -> None:
    before = memory_mb(pid)[0]
    groups = await seat_honest(port, 200 + 100 * hello, hello)
    stop = asyncio.Event()
    idlers = [asyncio.create_task(idle(port, stop)) for _ in range(args.idle)]
    loris = asyncio.create_task(slowloris(port, stop))
    times = await play_honest(groups, args.max_seconds)
    after = memory_mb(pid)[0]
    stop.set()
    await asyncio.gather(*idlers, return_exceptions=True)
    lasted = await asyncio.wait_for(loris, args.read_timeout + 30)
    name = "idle+slowloris" + (" (--seat-after-hello)" if hello else "")
    print(
        f"{name}: {args.idle} idle connections; the slowloris was cut {len(lasted)} time(s), "
        f"after {', '.join(f'{t:.1f}s' for t in lasted)} (--read-timeout {args.read_timeout:g})"
    )
    report(name, times, base, (before, after))


async def run(args: argparse.Namespace, hello: bool, cases: list[str]) -> None:
    options = ["--seed", "1", "--read-timeout", str(args.read_timeout), "--deadline-ms", "2000"]
    with tempfile.TemporaryDirectory() as logs, contextlib.chdir(logs):  # the index goes there
        process, port = await start_server(
            "--log-dir", logs, *options, *(["--seat-after-hello"] if hello else [])
        )
        try:
            base = await play_honest(await seat_honest(port, 0, hello), args.max_seconds)
            mode = " (--seat-after-hello)" if hello else ""
            print(
                f"baseline{mode}: 10 honest games, mean {statistics.mean(base):.2f}s, "
                f"max {max(base):.2f}s, no attack"
            )
            if "malformed" in cases and not hello:
                await case_malformed(port, process.pid, args, base)
            if "idle" in cases:
                await case_idle(port, process.pid, args, base, hello)
            alive = process.returncode is None
            rss, peak = memory_mb(process.pid)
        finally:
            await stop_server(process)
    print(f"server alive afterwards: {alive}; RSS {rss:.1f} MB, peak {peak:.1f} MB")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default="malformed,idle")
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--attackers", type=int, default=50)
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--read-timeout", type=float, default=10.0)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    args = parser.parse_args()
    cases = args.cases.split(",")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    await run(args, False, cases)
    if "idle" in cases:
        await run(args, True, ["idle"])
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
