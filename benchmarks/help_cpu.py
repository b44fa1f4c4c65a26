"""CPU time of ``duskfall --help``, ``--version`` and a command's ``--help``, on today's code and
on a baseline commit's, in the same run (median of ``--runs`` child processes each).

    python benchmarks/help_cpu.py [--baseline 8859672] [--runs 5]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

from baseline import baseline_src, current_src, load_average, python_with

COMMANDS = [["--help"], ["--version"], ["play", "--help"], ["tournament", "--help"]]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(src: Path, args: list[str], runs: int) -> float:
    """The median CPU seconds of ``duskfall ARGS`` on the code in ``src``."""
    spent = []
    for _ in range(runs):
        before = children_cpu()
        subprocess.run(
            [sys.executable, "-c", "from duskfall.cli import main; main()", *args],
            env=python_with(src),
            capture_output=True,
            check=False,  # the baseline may not know the option (--version): still timed
        )
        spent.append(children_cpu() - before)
    return statistics.median(spent)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="8859672", help="the commit to compare with")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    before_src = baseline_src(args.baseline)
    print(load_average(), "before")
    for command in COMMANDS:
        now = cpu_of(current_src(), command, args.runs)
        before = cpu_of(before_src, command, args.runs)
        print(
            f"duskfall {' '.join(command):<18} {before:.2f} s -> {now:.2f} s of CPU "
            f"({before / now:.2f}x less)"
        )
    print(load_average(), "after")


if __name__ == "__main__":
    main()
