"""Tournament throughput with bots, and the tournament layer's overhead over plain ``simulate``.

Figures (sports mafia, every game logged and indexed in a fresh SQLite file in a temporary
folder):

* overhead: wall time of a one-process ``mixed`` tournament of N games between two ``random``
  entrants over ``simulate --agents random`` of N games with ``--log-dir`` (also logged and
  indexed, one process): the same agents, so the games are alike; best of ``--rounds``
  alternating runs; the goal is a ratio of 1.1 or less;
* games per second of a ``heuristic`` against ``random`` tournament on the local event loop
  (1 process), on 2 worker processes, and on Ray (``ray.init(num_cpus=2)``, if Ray is
  installed, warmed up first).

    python benchmarks/tournament.py                   # 400 games, 3 rounds
    python benchmarks/tournament.py --games 100 --rounds 1
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from duskfall.arena.simulate import simulate
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_config import parse_tournament
from duskfall.store.index import use_db


def _config(games: int, workers: int = 1, parallel: int = 1, bots: str = "heuristic") -> Any:
    return parse_tournament(
        {
            "name": "bench",
            "entrants": {"first": bots, "second": "random"},
            "variants": [{"variant": "sports-mafia"}],
            "games": games,
            "seed": 1,
            "workers": workers,
            "parallel_games": parallel,
            "log_dir": "games",
        }
    )


def tournament_seconds(
    games: int, workers: int = 1, backend: str = "local", bots: str = "heuristic"
) -> float:
    with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
        base = Path(folder)
        config = _config(games, workers, parallel=max(1, workers), bots=bots)
        start = time.perf_counter()
        summary = run_tournament(config, base_dir=base, db=base / "i.db", backend=backend)
        seconds = time.perf_counter() - start
        assert summary.played == games, summary
        return seconds


def simulate_seconds(games: int) -> float:
    with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
        use_db(Path(folder) / "i.db")
        start = time.perf_counter()
        simulate(
            "sports-mafia",
            games,
            agents="random",
            log_dir=str(Path(folder) / "games"),
            workers=1,
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    sim, tour = [], []
    for _ in range(args.rounds):  # alternate, so other load hits both alike
        sim.append(simulate_seconds(args.games))
        tour.append(tournament_seconds(args.games, bots="random"))
    best_sim, best_tour = min(sim), min(tour)
    print(
        f"simulate --log-dir, 1 process: {args.games / best_sim:.1f} games/s; "
        f"random-vs-random tournament, 1 process: {args.games / best_tour:.1f} games/s; "
        f"overhead x{best_tour / best_sim:.2f} (goal <= 1.10)"
    )
    loop = min(tournament_seconds(args.games) for _ in range(args.rounds))
    print(f"heuristic-vs-random tournament, 1 process: {args.games / loop:.1f} games/s")
    pool = min(tournament_seconds(args.games, workers=2) for _ in range(args.rounds))
    print(f"heuristic-vs-random tournament, 2 worker processes: {args.games / pool:.1f} games/s")
    try:
        import ray
    except ImportError:
        print("ray: not installed (pip install 'duskfall[ray]')")
    else:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            tournament_seconds(min(20, args.games), backend="ray")  # warm the workers up
            seconds = min(tournament_seconds(args.games, backend="ray") for _ in range(args.rounds))
        finally:
            ray.shutdown()
        print(
            f"heuristic-vs-random tournament, Ray (num_cpus=2): {args.games / seconds:.1f} games/s"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
