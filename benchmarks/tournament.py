"""Tournament throughput with bots, and the tournament layer's overhead over plain ``simulate``,
on today's code and on a baseline's (default: ``main``), alternating, in the same run.

Figures (sports mafia, every game logged and indexed in a fresh SQLite file in a temporary
folder; each run is a child Python on the code measured; best of ``--rounds``):

* overhead: wall time of a one-process ``mixed`` tournament of N games between two ``random``
  entrants over ``simulate --agents random`` of N games with ``--log-dir`` (also logged and
  indexed, one process): the same agents, so the games are alike; the goal is 1.1 or less;
* games per second of a ``heuristic`` against ``random`` tournament on the local event loop
  (1 process) and on 2 worker processes.

Ray on a real two-node cluster, and the recovery from a lost node, are measured by
``benchmarks/tournament_cluster.py``.

    python benchmarks/tournament.py                          # 400 games, 3 rounds, vs main
    python benchmarks/tournament.py --games 100 --rounds 1 --baseline ../main/src
"""

from __future__ import annotations

import argparse
from pathlib import Path

from baseline import baseline_src, current_src, load_average, run_python

TOURNAMENT = """
import sys, tempfile, time
from pathlib import Path
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_config import parse_tournament
games, workers, bots = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
config = parse_tournament({
    "name": "bench", "entrants": {"first": bots, "second": "random"},
    "variants": [{"variant": "sports-mafia"}], "games": games, "seed": 1,
    "workers": workers, "parallel_games": workers, "log_dir": "games",
})
with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
    start = time.perf_counter()
    summary = run_tournament(config, base_dir=Path(folder), db=Path(folder) / "i.db")
    assert summary.played == games, summary
    print(time.perf_counter() - start)
"""

SIMULATE = """
import os, sys, tempfile, time
from pathlib import Path
from duskfall.arena.simulate import simulate
games = int(sys.argv[1])
with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
    os.environ["DUSKFALL_DB"] = str(Path(folder) / "i.db")  # the index (store.paths.use_db)
    start = time.perf_counter()
    simulate("sports-mafia", games, agents="random", log_dir=str(Path(folder) / "games"))
    print(time.perf_counter() - start)
"""


def seconds(src: Path, script: str, *args: object) -> float:
    return float(run_python(src, "-c", script, *map(str, args)).strip().splitlines()[-1])


def best(codes: dict[str, Path], rounds: int, script: str, *args: object) -> dict[str, float]:
    """The fastest of ``rounds`` runs on each code, the codes alternating."""
    found: dict[str, float] = {}
    for _ in range(rounds):
        for name, src in codes.items():
            found[name] = min(found.get(name, float("inf")), seconds(src, script, *args))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="main", help="commit or src folder to compare")
    args = parser.parse_args()
    codes = {"current": current_src(), "baseline": baseline_src(args.baseline)}
    games = args.games
    print(f"tournaments and simulate, sports mafia, {games} games; {load_average()}")
    simulated = best(codes, args.rounds, SIMULATE, games)
    played = best(codes, args.rounds, TOURNAMENT, games, 1, "random")
    for name in codes:
        print(
            f"{name:8s} simulate --log-dir {games / simulated[name]:6.1f} games/s; "
            f"random-vs-random tournament {games / played[name]:6.1f} games/s; overhead "
            f"x{played[name] / simulated[name]:.2f} (goal <= 1.10)"
        )
    for workers in (1, 2):
        rates = best(codes, args.rounds, TOURNAMENT, games, workers, "heuristic")
        now, then = games / rates["current"], games / rates["baseline"]
        print(
            f"heuristic-vs-random tournament, {workers} process(es): current {now:6.1f} "
            f"games/s, baseline {then:6.1f} -> {now / then:.2f}x"
        )
    print(
        f"simulate --log-dir: current/baseline {simulated['baseline'] / simulated['current']:.2f}x"
    )
    print(load_average())


if __name__ == "__main__":
    main()
