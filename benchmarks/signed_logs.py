"""The recorded path with signed records: logged and indexed sports-mafia games (RandomAgent)
per CPU second, on the working tree (logs sealed at every phase end, rows signed) and on a
baseline commit (unsigned), in the same run, the two codes alternating in blocks.

Each figure comes from a child process that plays ``--games`` games with ``run_game``, each
with its log and index row, fsync turned off (the disk is the same for both codes and would
only add noise), and reports its CPU seconds; also the bytes its logs take.

    python benchmarks/signed_logs.py [--games 300] [--blocks 3] [--baseline REF]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from baseline import baseline_src, current_src, load_average, run_python

BASELINE = "8859672"  # the last commit before signed records


def child(games: int) -> dict[str, Any]:
    from duskfall.session import GameSetup, run_game

    os.fsync = lambda fd: None  # the same disk for both codes: measure the CPU work only
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DUSKFALL_DB"] = str(Path(folder) / "index.db")
        logs = Path(folder) / "games"
        start, wall = time.process_time(), time.monotonic()
        for seed in range(games):
            path = logs / f"{seed}.jsonl"
            asyncio.run(run_game(GameSetup("sports-mafia", seed=seed, agents="random",
                                           log_path=path)))  # fmt: skip
        cpu, wall = time.process_time() - start, time.monotonic() - wall
        size = sum(p.stat().st_size for p in logs.glob("*.jsonl"))
        lines = sum(p.read_bytes().count(b"\n") for p in logs.glob("*.jsonl"))
    return {"cpu": cpu, "wall": wall, "bytes": size, "lines": lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.games)))
        return
    codes = {"today": current_src(), "baseline": baseline_src(args.baseline)}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in codes}
    print(f"{load_average()} before")
    for block in range(args.blocks):
        order = list(codes.items())
        for name, src in order if block % 2 == 0 else order[::-1]:
            out = run_python(src, __file__, "--child", "--games", str(args.games))
            runs[name].append(json.loads(out))
    n = args.games
    cpu = {name: [run["cpu"] for run in results] for name, results in runs.items()}
    for name in codes:
        first = runs[name][0]
        print(
            f"{name:8}: {n * len(cpu[name]) / sum(cpu[name]):5.1f} | {n / min(cpu[name]):5.1f} "
            f"logged games/s per CPU second (all blocks | best), "
            f"{first['bytes'] / n / 1024:.1f} KiB and {first['lines'] / n:.0f} lines per log"
        )
    today, base = cpu["today"], cpu["baseline"]
    print(
        f"today's time over the baseline's ({args.baseline}): {sum(today) / sum(base):.3f}x "
        f"(best blocks {min(today) / min(base):.3f}x)"
    )
    print(f"{load_average()} after")


if __name__ == "__main__":
    main()
