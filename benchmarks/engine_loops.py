"""Engine-loop speed of werewolf-12 and mafia-8 with random bots, against the speed baseline.

The engine loop is the rules and the bots alone, without the runtime: the loop the scheduler
runs (``pending``, then ``legal`` and ``act`` for every seat of the batch with a lazy
observation, as the runtime hands bots theirs, then ``apply`` in seat order), bots created
per game included. Each game table is played in child processes on today's working tree and
on the baseline commit (``benchmarks/baseline.py``), alternating, a few rounds each; the
figures are games per CPU second of the child (one core), the best round of each, and
their ratio. Before timing, each code fingerprints ``--check`` games of every table (every
action, every event with its payload, visibility, day and phase, and the outcome): the two
codes must play the same games.

    python benchmarks/engine_loops.py                       # 2,000 games, 3 rounds, 300 checked
    python benchmarks/engine_loops.py --games 500 --rounds 1 --tables mafia-8
    python benchmarks/engine_loops.py --child werewolf-12 2000   # one measurement, this code
    python benchmarks/engine_loops.py --fingerprint werewolf-12 300   # its digest, this code
    python benchmarks/engine_loops.py --profile werewolf-12 300   # cProfile of this code's loop
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from typing import Any

# name -> (variant id, config): werewolf-12 is werewolf's default preset, mafia-8 mafia's
# default table (8 players: 2 mafia, doctor, sheriff, vigilante, 3 villagers).
TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "werewolf-12": ("werewolf", {"preset": "werewolf-12"}),
    "mafia-8": ("mafia", {"players": 8}),
}


def play(
    variant: Any,
    config: Any,
    seed: int,
    trace: Callable[[Any], None] | None = None,
    bot: str = "random",
) -> int:
    """One game of ``bot`` bots in the engine loop; returns the number of decisions.
    ``trace`` sees the opening events, every decision's observation, every action with its
    events, and the outcome (``None`` when timing)."""
    from duskfall.core.rng import derive_rng
    from duskfall.runtime.participant import LazyObservation

    state = variant.new_game(config, seed)
    factory = variant.bots()[bot]
    bots = [factory(seat, derive_rng(seed, f"agent:{seat}")) for seat in range(state.num_seats)]
    if trace is not None:
        trace([event.to_dict() for event in state.opening_events()])
    decisions = 0
    while state.outcome() is None:
        batch = state.pending()
        actions = {}
        for decision in batch:
            seat = decision.seat
            observation = LazyObservation(lambda seat=seat: state.observe(seat))
            if trace is not None:
                trace((seat, decision.kind, observation.to_dict()))
            actions[seat] = bots[seat].act(observation, state.legal(seat))
        for seat in sorted(actions):
            events = state.apply(seat, actions[seat])
            if trace is not None:
                trace((seat, actions[seat].to_dict(), [event.to_dict() for event in events]))
        decisions += len(actions)
    if trace is not None:
        trace(state.outcome())
    return decisions


def fingerprint(table: str, games: int, bot: str = "random") -> str:
    """A digest of every observation, action, event and outcome of seeds ``0..games-1`` of
    ``table`` with ``bot`` bots."""
    variant, config = table_setup(table)
    digest = hashlib.sha256()
    for seed in range(games):
        play(variant, config, seed, lambda item: digest.update(repr(item).encode()), bot)
    return digest.hexdigest()[:16]


def table_setup(table: str) -> tuple[Any, Any]:
    from duskfall.core.registry import get_variant
    from duskfall.core.variant import parse_config

    variant_id, data = TABLES[table]
    variant = get_variant(variant_id)
    return variant, parse_config(variant, data)


def child(table: str, games: int) -> None:
    """Play ``games`` games of ``table`` on the code this Python imports; print JSON figures."""
    variant, config = table_setup(table)
    play(variant, config, 10**6)  # warm-up: imports and first-call caches
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = sum(play(variant, config, seed) for seed in range(games))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({"games": games, "decisions": decisions, "cpu": cpu, "wall": wall}))


def profile(table: str, games: int) -> None:
    """Print the cProfile of ``games`` games of ``table`` on this code (self, then cumulative
    time: cProfile inflates calls, so read the shares, not the seconds)."""
    import cProfile
    import pstats

    variant, config = table_setup(table)
    play(variant, config, 10**6)
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        play(variant, config, seed)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
    stats.sort_stats("tottime").print_stats(35)
    stats.sort_stats("cumulative").print_stats(35)


def measure(src: Any, table: str, games: int) -> dict[str, float]:
    from baseline import run_python

    return json.loads(run_python(src, __file__, "--child", table, str(games)))  # type: ignore[no-any-return]


def check(src: Any, table: str, games: int) -> str:
    from baseline import run_python

    return run_python(src, __file__, "--fingerprint", table, str(games)).strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per round and code")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per table")
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=list(TABLES))
    parser.add_argument("--baseline", default=None, help="baseline commit (default: baseline.py)")
    parser.add_argument("--check", type=int, default=300, help="games fingerprinted per table")
    parser.add_argument("--bot", default="random", help=argparse.SUPPRESS)
    parser.add_argument("--child", nargs=2, metavar=("TABLE", "GAMES"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--fingerprint", nargs=2, metavar=("TABLE", "GAMES"), help=argparse.SUPPRESS
    )
    parser.add_argument("--profile", nargs=2, metavar=("TABLE", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile:
        profile(args.profile[0], int(args.profile[1]))
        return 0
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    if args.fingerprint:
        print(fingerprint(args.fingerprint[0], int(args.fingerprint[1]), args.bot))
        return 0

    from baseline import SPEED_BASELINE, baseline_src, current_src, load_average

    ref = args.baseline or SPEED_BASELINE
    codes = {"baseline": baseline_src(ref), "today": current_src()}
    print(f"engine loop, random bots, {args.games} games x {args.rounds} rounds; baseline {ref}")
    print(load_average())
    same = True
    for table in args.tables:
        if args.check:
            prints = {name: check(src, table, args.check) for name, src in codes.items()}
            same = same and prints["today"] == prints["baseline"]
            print(
                f"{table:12} same games as the baseline ({args.check} seeds: every observation, "
                f"action, event and outcome): "
                f"{'yes' if prints['today'] == prints['baseline'] else 'NO'}"
                f" ({prints['today']} vs {prints['baseline']})",
                flush=True,
            )
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for name, src in codes.items():
                run = measure(src, table, args.games)
                if name not in best or run["cpu"] < best[name]["cpu"]:
                    best[name] = run
        for name, run in best.items():
            n = run["games"]
            print(
                f"{table:12} {name:9} {n / run['cpu']:8.0f} games/s per core  "
                f"({run['cpu'] / n * 1e6:6.0f} us/game, "
                f"{run['cpu'] / run['decisions'] * 1e6:5.1f} us/decision, "
                f"{run['decisions'] / n:5.1f} decisions/game; wall {run['wall']:.1f}s)"
            )
        ratio = best["baseline"]["cpu"] / best["today"]["cpu"]
        print(f"{table:12} ratio today/baseline: {ratio:.2f}x", flush=True)
    print(load_average())
    if not same:
        print("the games differ from the baseline's (see the check lines above)", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
