"""The recorded path with signed records: logged and indexed sports-mafia games (RandomAgent)
per CPU second, on the working tree (logs sealed at every phase end, rows signed) and on a
baseline commit (unsigned), in the same run, the two codes alternating in blocks.

Each figure comes from a child process that plays ``--games`` games with ``run_game``, each
with its log and index row, fsync turned off (the disk is the same for both codes and would
only add noise), and reports its CPU seconds; also the bytes its logs take. Then, in this
process, the cost signing adds to one game, measured apart from everything else (alternating
signed and unsigned runs over the same recorded game): writing its log with a seal per phase,
and writing its index row at every phase with a signature.

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


def signing_cost(rounds: int = 30) -> None:
    """Microseconds per game that seals and row signatures add, today's code only."""
    from duskfall.session import GameSetup, run_game
    from duskfall.store.index import GameIndex
    from duskfall.store.log import LogWriter, read_log
    from duskfall.store.rows import Usage
    from duskfall.store.signatures import Signer

    os.fsync = lambda fd: None
    signer = Signer(bytes(32))
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DUSKFALL_DB"] = "off"
        source = Path(folder) / "source.jsonl"
        asyncio.run(run_game(GameSetup("sports-mafia", seed=1, agents="random", log_path=source)))
        log = read_log(source)
        phases = [n for n, e in enumerate(log.events[:-1]) if e.phase != log.events[n + 1].phase]
        index = GameIndex(Path(folder) / "index.db")
        index.record_start(log.header, source)
        times: dict[str, list[float]] = {"log": [], "signed log": [], "row": [], "signed row": []}
        for round_ in range(rounds):
            for name, sealer in (("log", None), ("signed log", signer))[:: 1 - 2 * (round_ % 2)]:
                copy = Path(folder) / f"copy-{round_}-{sealer is None}.jsonl"
                start = time.perf_counter()
                writer = LogWriter(copy, log.header, signer=sealer)
                for number, event in enumerate(log.events):
                    writer.on_event(event)
                    if number in phases:
                        writer.on_phase_end()
                writer.on_game_end(log.outcome)
                times[name].append(time.perf_counter() - start)
                copy.unlink()
            for name, sealer in (("row", None), ("signed row", signer))[:: 1 - 2 * (round_ % 2)]:
                index._signer = sealer
                start = time.perf_counter()
                for number in phases:
                    index.update(log.header.game_id, Usage(events=number))
                times[name].append(time.perf_counter() - start)
        index.close()
    best = {name: min(values) * 1e6 for name, values in times.items()}
    print(
        f"one game ({len(log.events)} events, {len(phases)} phase ends), best of {rounds}: "
        f"log {best['log']:.0f} us, signed {best['signed log']:.0f} us "
        f"(+{best['signed log'] - best['log']:.0f}); index rows {best['row']:.0f} us, signed "
        f"{best['signed row']:.0f} us (+{best['signed row'] - best['row']:.0f})"
    )


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
    signing_cost()
    print(f"{load_average()} after")


if __name__ == "__main__":
    main()
