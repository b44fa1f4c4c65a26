"""Where the scheduler's time goes: sports-mafia random games in the engine loop and through
``run_game``, with the garbage collector's share and the cyclic garbage a game leaves.

Runs in a child process on the code in ``--src`` (default: this tree), so that another
checkout's code can be profiled the same way. Prints, per kind of loop, the CPU time per game,
the collector's time per generation (``gc.callbacks``, wall clock: inflated by other load),
the objects one finished game leaves in reference cycles, and with ``--profile`` the top
functions by cumulative time (cProfile; its overhead inflates Python-level code).

    python benchmarks/profile_scheduler.py --games 500
    python benchmarks/profile_scheduler.py --games 500 --profile --src ../main/src
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import gc
import json
import pstats
import time
from pathlib import Path
from typing import Any

from baseline import current_src, load_average, run_python
from gc_timing import GcTimer


def one_kind(kind: str, games: int, profile: bool) -> dict[str, Any]:
    from duskfall.variants.sports_mafia.config import SportsMafiaConfig
    from sports_mafia_engine import play_direct, play_scheduled

    config = SportsMafiaConfig()

    def play(seeds: range) -> None:
        if kind == "engine":
            for seed in seeds:
                play_direct(seed, config, "random")
        else:
            asyncio.run(play_scheduled(seeds, "random"))

    play(range(10**6, 10**6 + 20))  # warm-up
    profiler = cProfile.Profile(time.process_time) if profile else None
    with GcTimer() as collections_timed:
        cpu = time.process_time()
        if profiler is not None:
            profiler.enable()
        play(range(games))
        if profiler is not None:
            profiler.disable()
        cpu = time.process_time() - cpu
    top = ""
    if profiler is not None:
        out = Path(f"/tmp/duskfall-profile-{kind}.txt")
        with out.open("w") as handle:
            stats = pstats.Stats(profiler, stream=handle)
            stats.sort_stats("cumulative").print_stats(r"duskfall", 30)
        top = out.read_text()
        out.unlink()
    return {
        "kind": kind,
        "us_per_game": cpu / games * 1e6,
        "gc": {
            g: [n, seconds / games * 1e6] for g, (n, seconds) in collections_timed.spent.items()
        },
        "cycles": cyclic_garbage(play),
        "top": top,
    }


def cyclic_garbage(play: Any) -> list[tuple[str, int]]:
    """The objects one more game leaves in reference cycles, by type."""
    gc.collect()
    gc.disable()
    try:
        play(range(1))
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kinds = collections.Counter(type(item).__name__ for item in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return kinds.most_common(8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--profile", action="store_true", help="also the top functions")
    parser.add_argument("--src", type=Path, default=current_src(), help="duskfall source")
    parser.add_argument("--child", choices=("engine", "scheduler"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_kind(args.child, args.games, args.profile)))
        return
    print(f"# sports mafia, random agents, {args.games} games, code {args.src}; {load_average()}")
    results = {}
    for kind in ("engine", "scheduler"):
        flags = ["--profile"] if args.profile else []
        out = run_python(args.src, __file__, "--child", kind, "--games", str(args.games), *flags)
        results[kind] = result = json.loads(out)
        collections_line = ", ".join(
            f"gen {g}: {n} ({us:.0f} us/game)" for g, (n, us) in result["gc"].items()
        )
        print(f"{kind:9}: {result['us_per_game']:6.0f} us/game CPU; GC {collections_line}")
        cycles = result["cycles"]
        print(f"{'':9}  cyclic garbage per game: {sum(n for _, n in cycles)} objects {cycles}")
    ratio = results["scheduler"]["us_per_game"] / results["engine"]["us_per_game"]
    print(f"scheduler / engine per game: {ratio:.2f}x; {load_average()}")
    if args.profile:
        for kind, result in results.items():
            print(f"\n## {kind}: top duskfall functions by cumulative time\n{result['top']}")


if __name__ == "__main__":
    main()
