"""``duskfall simulate`` whole-process, this tree against one commit, many alternating rounds.

Each round runs ``python -m duskfall simulate -n GAMES -w W --agents random`` once on this
tree's code and once on the commit's (a fresh index each time, see ``simulate.py``), the two
alternating so that the machine's other load hits both alike. Printed per code: the best and
the median wall time and the median CPU time of the process and its workers, and the ratios
(commit time / this tree's time: above 1 means this tree is faster). On a busy machine the
median CPU time is the steadiest of the three.

    python benchmarks/simulate_vs_commit.py --commit 1805d2b --games 4000 --rounds 6
    python benchmarks/simulate_vs_commit.py --commit 1805d2b --workers 2
"""

from __future__ import annotations

import argparse
import statistics

from baseline import baseline_src, current_src, load_average
from simulate import Run, simulate_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", required=True, help="the commit to compare with")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    codes = {"this tree": current_src(), args.commit: baseline_src(args.commit)}
    print(f"simulate -n {args.games} -w {args.workers} --agents random; {load_average()}")
    runs: dict[str, list[Run]] = {name: [] for name in codes}
    for _ in range(args.rounds):
        for name, src in codes.items():
            runs[name].append(simulate_once(src, args.games, args.workers))
    figures = {}
    for name, found in runs.items():
        walls = [r.wall for r in found]
        cpus = [r.cpu for r in found]
        figures[name] = (min(walls), statistics.median(walls), statistics.median(cpus))
        print(
            f"{name:>10}: wall best {min(walls):.2f}s median {statistics.median(walls):.2f}s, "
            f"cpu median {statistics.median(cpus):.2f}s "
            f"({args.games / min(walls):.0f} games/s at best)"
        )
    now, then = figures["this tree"], figures[args.commit]
    print(
        f"{args.commit} / this tree: wall best {then[0] / now[0]:.2f}x, "
        f"wall median {then[1] / now[1]:.2f}x, cpu median {then[2] / now[2]:.2f}x"
    )
    print(load_average())


if __name__ == "__main__":
    main()
