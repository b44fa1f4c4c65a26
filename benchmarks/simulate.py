"""``duskfall simulate`` as a user runs it: whole process, start-up included, against the baseline.

Each figure is one ``python -m duskfall simulate`` process (sports mafia, random agents, a fresh
game index) on the working tree's code and on the speed baseline's (``baseline.py``), the two
alternating so that other load on the machine hits both alike:

* games per second of the whole process with ``-w 1`` and ``-w 2`` (wall clock, start-up and
  index writes included), and the speed-up of ``-w 2`` over ``-w 1``;
* CPU seconds of the process and its workers (on a busy machine the wall clock mostly shows
  the other load; games per CPU second shows the work each game costs);
* peak memory (the largest resident set of the process and its workers) with ``-w 1`` at a
  small and a large number of games: flat means the large run needs no more than the small.

    python benchmarks/simulate.py                        # 10,000 games; memory at 1k/100k
    python benchmarks/simulate.py --games 2000 --memory 1000 10000 --rounds 1
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from baseline import SPEED_BASELINE, baseline_src, current_src, load_average, python_with


@dataclass(frozen=True)
class Run:
    """One simulate process: its wall time, CPU time (with workers) and peak memory."""

    games: int
    wall: float
    cpu: float
    peak_mb: float

    @property
    def rate(self) -> float:
        return self.games / self.wall


def simulate_once(src: Path, games: int, workers: int) -> Run:
    """Run ``duskfall simulate`` once on the code in ``src`` with a fresh index."""
    with tempfile.TemporaryDirectory(prefix="duskfall-sim-") as folder:
        env = python_with(src) | {"DUSKFALL_DB": str(Path(folder) / "index.db")}
        command = [sys.executable, "-m", "duskfall", "simulate", "-n", str(games)]
        command += ["-w", str(workers), "--agents", "random"]
        start = time.perf_counter()
        child = subprocess.Popen(
            command, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        assert child.stderr is not None
        errors = child.stderr.read()
        # wait4: this child's own usage, its workers' folded in (they are waited for by it)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"simulate failed on {src}:\n{errors.decode()[-2000:]}")
    return Run(games, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def best(runs: list[Run]) -> Run:
    """The fastest of alternating rounds: the one least disturbed by other load."""
    return min(runs, key=lambda run: run.wall)


def measure(codes: dict[str, Path], games: int, workers: int, rounds: int) -> dict[str, Run]:
    """The best of ``rounds`` runs of each code, the codes alternating."""
    runs: dict[str, list[Run]] = {name: [] for name in codes}
    for _ in range(rounds):
        for name, src in codes.items():
            runs[name].append(simulate_once(src, games, workers))
    return {name: best(found) for name, found in runs.items()}


def describe(run: Run) -> str:
    return (
        f"{run.rate:7.0f} games/s (wall {run.wall:.1f}s; cpu {run.cpu:.1f}s: "
        f"{run.games / run.cpu:.0f} games per cpu-second; peak {run.peak_mb:.0f} MB)"
    )


def print_speed(label: str, found: dict[str, Run]) -> None:
    now, then = found["current"], found.get("baseline")
    print(f"{label}: current  {describe(now)}")
    if then is not None:
        print(f"{' ' * len(label)}  baseline {describe(then)}   -> {now.rate / then.rate:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games of the speed runs")
    parser.add_argument("--memory", type=int, nargs=2, default=(1_000, 100_000), metavar="N")
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs per figure")
    parser.add_argument("--baseline", default=SPEED_BASELINE, help="commit to compare with")
    parser.add_argument("--no-baseline", action="store_true", help="today's code only")
    parser.add_argument(
        "--memory-today-only",
        action="store_true",
        help="the memory runs on today's code only (the baseline's 100,000 games take long)",
    )
    args = parser.parse_args()

    codes = {"current": current_src()}
    if not args.no_baseline:
        codes["baseline"] = baseline_src(args.baseline)
    print(f"duskfall simulate, sports mafia, random agents; {load_average()}")
    one = measure(codes, args.games, 1, args.rounds)
    print_speed(f"simulate -w 1, {args.games} games", one)
    two = measure(codes, args.games, 2, args.rounds)
    print_speed(f"simulate -w 2, {args.games} games", two)
    for name, run in two.items():
        print(f"-w 2 / -w 1 ({name}): {run.rate / one[name].rate:.2f}x")
    small, large = args.memory
    for name, src in codes.items():
        if args.memory_today_only and name != "current":
            continue
        low, high = simulate_once(src, small, 1), simulate_once(src, large, 1)
        print(
            f"memory -w 1 ({name}): {small} games peak {low.peak_mb:.0f} MB, "
            f"{large} games peak {high.peak_mb:.0f} MB ({high.peak_mb / low.peak_mb:.2f}x; "
            f"{high.rate:.0f} games/s)"
        )
    print(load_average())


if __name__ == "__main__":
    main()
