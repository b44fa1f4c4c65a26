"""CPU per decision, today and on a baseline commit in the same run:

* a werewolf-12 game of heuristic bots (the runtime, the record and its log);
* a werewolf-12 game of ``llm:scripted`` seats (every decision a model call: a prompt rendered,
  a reply parsed, checked and redacted at record entry).

Each figure is a child Python's CPU seconds (``time.process_time`` and ``RUSAGE_CHILDREN``)
over ``--seeds`` games divided by the decisions they made (the ``action`` events), the best of
``--rounds`` rounds with the two codes alternating (the least disturbed by other load), with
the load average. The games are logged and indexed, as a played game is; one game before the
clock starts warms the imports.

    python benchmarks/decision_cost.py                       # vs d95d54c
    python benchmarks/decision_cost.py --seeds 2 --rounds 1
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from baseline import baseline_src, current_src, load_average, run_python

# the code before each decision was handled once (issue 37)
BASELINE = "d95d54c"

GAMES = """
import asyncio, json, os, resource, sys, tempfile, time
from pathlib import Path

def cpu():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime

agents, seeds = sys.argv[1], int(sys.argv[2])
with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
    os.environ["DUSKFALL_DB"] = str(Path(folder) / "i.db")
    from duskfall.session import GameSetup, prepare_game

    def play(seed):
        game = prepare_game(GameSetup(
            "werewolf", seed=seed, agents=agents, config={"preset": "werewolf-12"},
            log_path=Path(folder) / f"{seed}.jsonl",
        ))
        asyncio.run(game.run())
        return sum(1 for event in game.record.events if event.kind == "action")

    play(10_000)  # imports and caches warmed outside the figure
    decisions = 0
    start = cpu()
    for seed in range(seeds):
        decisions += play(seed)
    print(json.dumps({"cpu": cpu() - start, "decisions": decisions}))
"""

TABLES = {"bot werewolf-12 (heuristic)": "heuristic", "werewolf-12 llm:scripted": "llm:scripted"}


def measure(src: Path, agents: str, seeds: int) -> tuple[float, int]:
    """CPU seconds per decision of ``seeds`` games on the code in ``src``, and the decisions."""
    out = json.loads(run_python(src, "-c", GAMES, agents, str(seeds)).strip().splitlines()[-1])
    return out["cpu"] / out["decisions"], int(out["decisions"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="games per table (seeds 0..N-1)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each code")
    parser.add_argument("--baseline", default=BASELINE, help="commit or src folder to compare")
    args = parser.parse_args()
    codes = {"today": current_src(), "baseline": baseline_src(args.baseline)}
    print(f"decision cost, today vs {args.baseline}; {load_average()}")
    best: dict[tuple[str, str], float] = {}
    counts: dict[tuple[str, str], int] = {}
    for round_ in range(args.rounds):
        for table, agents in TABLES.items():
            order = list(codes.items())
            for name, src in order if round_ % 2 == 0 else order[::-1]:
                per, decisions = measure(src, agents, args.seeds)
                best[name, table] = min(best.get((name, table), float("inf")), per)
                counts[name, table] = decisions
    print(f"CPU microseconds per decision ({args.seeds} seeds; best of {args.rounds} rounds)")
    for table in TABLES:
        today, base = best["today", table], best["baseline", table]
        same = (
            "same decisions"
            if counts["today", table] == counts["baseline", table]
            else (f"decisions differ: {counts['today', table]} vs {counts['baseline', table]}")
        )
        print(
            f"  {table}: today {today * 1e6:8.1f} us, {args.baseline} {base * 1e6:8.1f} us"
            f" -> speed-up {base / today:.2f}x ({counts['today', table]} decisions, {same})"
        )
    print(load_average())


if __name__ == "__main__":
    main()
