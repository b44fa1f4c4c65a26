"""The benchmark job of issue 18: every speed figure, each with today's baseline beside it.

Runs the individual benchmark scripts one after the other (each measures the working tree and
the speed baseline of ``baseline.py`` in the same run and prints both with their ratio) and
prints their output under one heading per figure. A script that is missing or fails does not
stop the job: its figure reads "not measured: <why>".

    python benchmarks/run_all.py            # the figures as issue 18 quotes them (long)
    python benchmarks/run_all.py --quick    # smaller runs, a few minutes: a smoke test
    python benchmarks/run_all.py --only simulate engine
    python benchmarks/run_all.py --baseline ../main/src   # against another checkout's code
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from baseline import SPEED_BASELINE, current_src, load_average, python_with

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Figure:
    """One benchmark script and its options (flag, value), full and quick.

    Only the options the script's ``--help`` names are passed: the scripts are written by
    different hands and grow options over time; a missing one leaves the script's default.
    """

    name: str
    title: str
    script: str
    full: tuple[tuple[str, str], ...]
    quick: tuple[tuple[str, str], ...]
    timeout: float = 7200


FIGURES = (
    Figure(
        "engine",
        "sports mafia: engine loop, through the scheduler, and their ratio",
        "sports_mafia_engine.py",
        (("--games", "2000"),),
        (("--games", "300"), ("--blocks", "1"), ("--check", "50")),
    ),
    Figure(
        "simulate",
        "duskfall simulate: -w 1, -w 2 (10,000 games), memory at 1k and 100k games",
        "simulate.py",
        (),
        (("--games", "1000"), ("--memory", "500 5000"), ("--rounds", "1")),
    ),
    Figure(
        "loops",
        "werewolf-12 and mafia-8 engine loops, random bots",
        "engine_loops.py",
        (),
        (("--games", "300"), ("--rounds", "1")),
    ),
    Figure(
        "server",
        "server: CPU per game with 10 random clients per game, games per second",
        "server_games_per_second.py",
        (),
        (("--games", "3"), ("--blocks", "1"), ("--rounds", "1")),
    ),
    Figure(
        "concurrent",
        "server: 100 concurrent games",
        "server_concurrent_games.py",
        (),
        (("--games", "20"), ("--rounds", "1")),
    ),
)


def run_figure(figure: Figure, quick: bool, baseline: str) -> str:
    """The script's output, or "not measured: why"."""
    script = HERE / figure.script
    if not script.exists():
        return f"not measured: {figure.script} is not in benchmarks/ on this tree"
    options = (*(figure.quick if quick else figure.full), ("--baseline", baseline))
    try:
        args = accepted(script, options)
        done = _run(script, args, figure.timeout)
    except subprocess.TimeoutExpired:
        return f"not measured: {figure.script} ran over {figure.timeout:.0f}s"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no error output"])[-1]
        return f"not measured: {figure.script} {' '.join(args)} failed ({last})"
    return done.stdout.rstrip()


def _run(script: Path, args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args],
        env=python_with(current_src()),
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def accepted(script: Path, options: tuple[tuple[str, str], ...]) -> list[str]:
    """The command-line arguments of ``options`` that the script's ``--help`` names."""
    if not options:
        return []
    helped = _run(script, ["--help"], 120).stdout
    args: list[str] = []
    for flag, value in options:
        if flag in helped.split():
            args += [flag, *value.split()]
    return args


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in _cpuinfo()
            if line.startswith("model name") and ":" in line
        ),
        cpu,
    )
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _cpuinfo() -> list[str]:
    try:
        return Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return []


def _is_commit(ref: str) -> bool:
    done = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        cwd=HERE,
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small runs (a smoke test)")
    parser.add_argument("--only", nargs="+", choices=[f.name for f in FIGURES], default=None)
    parser.add_argument(
        "--baseline",
        default=SPEED_BASELINE,
        help="commit, or another checkout's src folder (default: the code before the speed work)",
    )
    args = parser.parse_args()
    if not (Path(args.baseline).expanduser() / "duskfall").is_dir() and not _is_commit(
        args.baseline
    ):
        parser.error(f"--baseline {args.baseline}: neither a commit nor a folder holding duskfall")
    chosen = [f for f in FIGURES if args.only is None or f.name in args.only]
    print(f"duskfall benchmarks (issue 18): tree {commit()} against baseline {args.baseline}")
    print(f"machine: {machine()}; {load_average()}")
    print("the machine may be shared: read ratios taken in the same run, not absolute figures")
    for figure in chosen:
        start = time.perf_counter()
        print(f"\n== {figure.title}  [{figure.script}]", flush=True)
        print(run_figure(figure, args.quick, args.baseline), flush=True)
        print(f"({time.perf_counter() - start:.0f}s; {load_average()})", flush=True)


if __name__ == "__main__":
    main()
