"""``duskfall web`` under a slowloris, on today's code and on the code before its limits.

    python benchmarks/web_hostile.py [--attackers 1100] [--bodies 20] [--seconds 40]
        [--reconnect-delay 1] [--fd-limit 1024] [--baseline REF] [--only now|before]

Each server runs in a process of its own with the usual limit of 1,024 file descriptors. First
50 honest requests (``GET /api/games``, one at a time) are timed with no attack (the baseline);
then ``--attackers`` connections send a request's headers one byte a second and never finish
them (reconnecting ``--reconnect-delay`` seconds after they are cut: 1 by default, the pace of
their bytes; 0 makes the attack a flood of connections as well), and ``--bodies`` clients
holding the admin token send a POST body one byte a second; meanwhile 50 honest requests are
made again, each given 5 s. Printed per server: honest requests answered and their time as a
ratio of the baseline's, how many slow connections were cut and after how long, and the
server's descriptors and RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from baseline import baseline_src, current_src, python_with
from duskfall.testing.ports import free_port

# The last commit before the web server's limits (issue 26): "the code before" for the ratios.
BEFORE = "283f9b6"
ADMIN = "bench-admin-token"
HONEST = 50
PARTIAL = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
BODY_HEAD = (
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ADMIN.encode()
    + b"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
)  # fmt: skip


@dataclass
class Cuts:
    """How long each slow connection lasted before the server cut it."""

    lasted: list[float] = field(default_factory=list)
    failed_connects: int = 0


def _limit_descriptors(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


async def start_web(
    src: Path, fd_limit: int, games: Path
) -> tuple[asyncio.subprocess.Process, int]:
    port = free_port()
    command = [sys.executable, "-c", "from duskfall.cli import main; main()", "web"]
    command += ["--port", str(port), "--games-dir", str(games), "--db", str(games / "index.db")]
    env = {**python_with(src), "DUSKFALL_ADMIN_TOKEN": ADMIN}
    process = await asyncio.create_subprocess_exec(
        *command,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        preexec_fn=lambda: _limit_descriptors(fd_limit),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the child's start-up: poll its port
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return process, port
        await asyncio.sleep(0.1)
    raise SystemExit("duskfall web did not start")


async def honest(port: int, timeout: float) -> float | None:
    """One ``GET /api/games``: its seconds, or None if it got no 200 within ``timeout``."""
    start = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            status = await reader.readline()
            await reader.read()
            writer.close()
    except (TimeoutError, OSError):
        return None
    return time.perf_counter() - start if b" 200 " in status else None


async def slow(port: int, head: bytes, stop: asyncio.Event, cuts: Cuts, delay: float) -> None:
    """Send ``head`` and then a byte a second for ever; reconnect ``delay`` s after a cut."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            cuts.failed_connects += 1
            await asyncio.sleep(1)
            continue
        start = time.perf_counter()
        reading = asyncio.create_task(reader.read())
        with contextlib.suppress(OSError):
            writer.write(head)
            while not stop.is_set() and not reading.done():
                await asyncio.wait([reading], timeout=1.0)
                writer.write(b"x")
        if reading.done():
            cuts.lasted.append(time.perf_counter() - start)
        reading.cancel()
        writer.close()
        if delay and not stop.is_set():
            await asyncio.sleep(delay)


async def measure(name: str, src: Path, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as games:
        process, port = await start_web(src, args.fd_limit, Path(games))
        server = psutil.Process(process.pid)
        try:
            base = [await honest(port, 5.0) for _ in range(HONEST)]
            base_times = [t for t in base if t is not None]
            stop = asyncio.Event()
            loris, bodies = Cuts(), Cuts()
            delay = args.reconnect_delay
            attack = [
                asyncio.create_task(slow(port, PARTIAL, stop, loris, delay))
                for _ in range(args.attackers)
            ]
            attack += [
                asyncio.create_task(slow(port, BODY_HEAD, stop, bodies, delay))
                for _ in range(args.bodies)
            ]
            await asyncio.sleep(2)  # the attack is under way
            during = [await honest(port, 5.0) for _ in range(HONEST)]
            peak_fds = server.num_fds()
            remaining = args.seconds - 2 - sum(t or 5.0 for t in during)
            if remaining > 0:
                await asyncio.sleep(remaining)
            peak_fds = max(peak_fds, server.num_fds())
            rss = server.memory_info().rss / 2**20
            stop.set()
            await asyncio.gather(*attack, return_exceptions=True)
        finally:
            process.terminate()
            await process.wait()
    answered = [t for t in during if t is not None]
    ratio = statistics.mean(answered) / statistics.mean(base_times) if answered else float("nan")

    def cut_line(what: str, cuts: Cuts) -> str:
        if not cuts.lasted:
            return f"{what}: none cut in {args.seconds:g} s"
        return (
            f"{what}: {len(cuts.lasted)} cut, after {statistics.median(cuts.lasted):.1f} s "
            f"(median), {max(cuts.lasted):.1f} s (max)"
        )

    print(
        f"{name}: honest requests answered {len(base_times)}/{HONEST} before the attack "
        f"(mean {statistics.mean(base_times) * 1000:.1f} ms), {len(answered)}/{HONEST} during it "
        f"(mean time {ratio:.2f}x the baseline's; median {_ms(answered, statistics.median)}, "
        f"max {_ms(answered, max)}); {cut_line('slowloris', loris)}; "
        f"{cut_line('slow bodies', bodies)}; server descriptors peak {peak_fds} of "
        f"{args.fd_limit}; RSS {rss:.0f} MB"
    )


def _ms(times: list[float], how: Callable[[list[float]], float]) -> str:
    return f"{how(times) * 1000:.0f} ms" if times else "-"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--attackers", type=int, default=1100)
    parser.add_argument("--bodies", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=40.0, help="length of the attack")
    parser.add_argument("--reconnect-delay", type=float, default=1.0)
    parser.add_argument("--fd-limit", type=int, default=1024)
    parser.add_argument("--baseline", default=BEFORE)
    parser.add_argument("--only", choices=("now", "before"))
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # the attack needs descriptors
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.attackers)), hard))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{args.attackers} slowloris connections and {args.bodies} slow bodies for "
        f"{args.seconds:g} s, reconnecting {args.reconnect_delay:g} s after a cut; server "
        f"limited to {args.fd_limit} file descriptors"
    )
    if args.only != "now":
        await measure(f"before ({args.baseline})", baseline_src(args.baseline), args)
    if args.only != "before":
        await measure("now", current_src(), args)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
