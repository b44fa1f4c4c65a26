"""Peak memory of ``duskfall simulate`` as the number of games grows (it should stay flat).

Runs ``duskfall simulate`` for each game count and samples the resident memory (RSS) of its
whole process tree (the parent and its worker processes) every 50 ms. Prints the peak of the
tree's total and the peak of the largest single process, and their ratios to the first run.

    python benchmarks/sports_mafia_memory.py --games 1000 50000 --workers 4
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass

import psutil

MIB = 1024 * 1024


@dataclass
class Peak:
    games: int
    total: int = 0  # bytes, sum over the process tree
    largest: int = 0  # bytes, the largest single process
    processes: int = 0
    seconds: float = 0.0


def tree_rss(process: psutil.Process) -> list[int]:
    rss = []
    for proc in [process, *process.children(recursive=True)]:
        try:
            rss.append(proc.memory_info().rss)
        except psutil.NoSuchProcess:
            continue
    return rss


def measure(games: int, workers: int, agents: str) -> Peak:
    command = [
        sys.executable, "-m", "duskfall", "simulate",
        "--games", str(games), "--workers", str(workers), "--agents", agents,
    ]  # fmt: skip
    peak = Peak(games)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    process = psutil.Process(child.pid)
    while child.poll() is None:
        try:
            rss = tree_rss(process)
        except psutil.NoSuchProcess:
            break
        peak.total = max(peak.total, sum(rss))
        peak.largest = max(peak.largest, max(rss, default=0))
        peak.processes = max(peak.processes, len(rss))
        time.sleep(0.05)
    peak.seconds = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"simulate failed: {child.stderr.read().decode() if child.stderr else ''}")
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 50000])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--agents", default="random")
    args = parser.parse_args()
    first: Peak | None = None
    for games in args.games:
        peak = measure(games, args.workers, args.agents)
        first = first or peak
        print(
            f"{games:>7} games, {args.workers} workers: peak RSS of the tree "
            f"{peak.total / MIB:7.1f} MiB (x{peak.total / first.total:.2f}), largest process "
            f"{peak.largest / MIB:6.1f} MiB (x{peak.largest / first.largest:.2f}), "
            f"{peak.processes} processes, {peak.seconds:.0f} s"
        )


if __name__ == "__main__":
    main()
