"""100 games at once on one server (1,000 connections): completion, server CPU per game, frames
per second, peak RSS; today's server beside the baseline's (``benchmarks/baseline.py``).

    python benchmarks/server_concurrent_games.py [--games 100] [--rounds 1]
        [--state-updates full|changes|off] [--max-seconds 300] [--baseline REF]

Each server is a separate ``duskfall serve`` process (logs written to a temporary directory)
on its own code; the 1,000 random players are light raw clients in this process, seated ten
by ten so that each game fills, then all played at once. Rounds alternate the two servers
(baseline, today, baseline, ...), one server at a time. The server's CPU time comes from
psutil; ``--state-updates`` is the HELLO option the players send (the baseline ignores it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from baseline import SPEED_BASELINE, baseline_src, current_src, load_average
from server_common import cpu_seconds, memory_mb, seat_group, start_server, stop_server


@dataclass
class Run:
    """One server's run of ``games`` games at once."""

    label: str
    players: int
    complete: int
    games: int
    exit_code: int | None
    seated: float
    wall: float
    frames: int
    server_cpu: float
    idle_rss: float
    peak_rss: float

    def lines(self) -> list[str]:
        return [
            f"[{self.label}] players that saw GAME_OVER: {self.complete}/{self.players}; "
            f"games finished: {self.games}; server exit code {self.exit_code}",
            f"[{self.label}] seated in {self.seated:.2f}s, wall {self.wall:.2f}s, "
            f"{self.games / self.wall:.1f} games/s, {self.frames / self.wall:,.0f} frames/s",
            f"[{self.label}] server CPU {self.server_cpu:.2f}s = "
            f"{self.server_cpu / max(self.games, 1) * 1e3:.1f} ms/game; RSS idle "
            f"{self.idle_rss:.1f} MB, peak {self.peak_rss:.1f} MB "
            f"({(self.peak_rss - self.idle_rss) * 1024 / self.players:.1f} KB per connection)",
        ]


async def run(label: str, src: Path, args: argparse.Namespace) -> Run:
    with tempfile.TemporaryDirectory() as logs:
        # each server its own game index: a shared ./duskfall.db may have been migrated by
        # newer code than the baseline's, which then cannot index (nor play) its games
        os.environ["DUSKFALL_DB"] = f"{logs}/index.db"
        process, port = await start_server(
            "--log-dir",
            logs,
            "--seed",
            "1",
            "--games",
            str(args.games),
            "--max-connections",
            str(args.games * 10 + 100),
            src=src,
        )
        try:
            idle_rss, _ = memory_mb(process.pid)
            cpu = cpu_seconds(process.pid)
            start = time.perf_counter()
            groups = [await seat_group(port, 10, g, args.state_updates) for g in range(args.games)]
            seated = time.perf_counter() - start
            players = [p for group in groups for p in group]
            results = await asyncio.gather(
                *(p.play(args.max_seconds) for p in players), return_exceptions=True
            )
            elapsed = time.perf_counter() - start
            server_cpu = cpu_seconds(process.pid) - cpu
            _rss, peak = memory_mb(process.pid)
            await asyncio.wait_for(process.wait(), 60)  # --games: it stops by itself
        finally:
            await stop_server(process)
    return Run(
        label,
        players=len(players),
        complete=sum(r is True for r in results),
        games=len({p.game_id for p in players if p.game_over is not None}),
        exit_code=process.returncode,
        seated=seated,
        wall=elapsed,
        frames=sum(p.frames_in + p.frames_out for p in players),
        server_cpu=server_cpu,
        idle_rss=idle_rss,
        peak_rss=peak,
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=1, help="runs per server, alternating")
    parser.add_argument("--state-updates", choices=("full", "changes", "off"), default=None)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--baseline", default=SPEED_BASELINE, help="commit to compare with")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    sources = {"baseline": baseline_src(args.baseline), "today": current_src()}
    runs: dict[str, list[Run]] = {label: [] for label in sources}
    for _round in range(args.rounds):
        for label, src in sources.items():
            runs[label].append(await run(label, src, args))
            print("\n".join(runs[label][-1].lines()), flush=True)
    print(f"HELLO state_updates: {args.state_updates or '(none)'}; baseline: {args.baseline}")
    cpu = {
        label: sum(r.server_cpu for r in rs) / sum(r.games for r in rs)
        for label, rs in runs.items()
    }
    wall = {label: sum(r.wall for r in rs) for label, rs in runs.items()}
    print(
        f"server CPU per game: baseline {cpu['baseline'] * 1e3:.1f} ms, today "
        f"{cpu['today'] * 1e3:.1f} ms, ratio {cpu['baseline'] / cpu['today']:.2f}x; "
        f"wall time ratio {wall['baseline'] / wall['today']:.2f}x"
    )
    print(load_average())


if __name__ == "__main__":
    asyncio.run(main())
