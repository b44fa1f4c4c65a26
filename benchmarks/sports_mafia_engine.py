"""Sports-mafia engine speed: RandomAgent games in one process, directly and via the scheduler.

Prints games per second of the bare engine loop (``pending``/``legal``/``act``/``apply``) and
of the same games through the async runtime without a log, twice: with the record keeping
every event (``run_game``'s default) and keeping none (``no-events``, as ``simulate`` plays,
where nobody hears the events and the runtime's own records are not built), for the working
tree and for the speed baseline (``baseline.SPEED_BASELINE``) in the same run: each figure
comes from a child process on that code, the two codes alternating in blocks so that other
load on the machine hits both alike. Speeds are per CPU second of the child (one core);
wall-clock seconds are printed beside them, with the load average. Every child also plays
``--check`` games while fingerprinting every action, event and outcome: the two codes must
play the same games.

    python benchmarks/sports_mafia_engine.py [--games 1000] [--blocks 3] [--check 500]
    python benchmarks/sports_mafia_engine.py --child engine --games 2000   # one figure, JSON
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from baseline import SPEED_BASELINE, baseline_src, current_src, load_average, run_python
from duskfall.core.rng import derive_rng
from duskfall.runtime.participant import LazyObservation
from duskfall.session import GameSetup, prepare_game
from duskfall.variants.sports_mafia.bots import BOTS
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.rules import SportsMafiaState

SEATS = range(10)
# engine: the bare loop; scheduler: run_game's way (the record keeps the game's events);
# no-events: the same with a record that keeps none, as simulate plays
KINDS = ("engine", "scheduler", "no-events")


def play_direct(
    seed: int, config: SportsMafiaConfig, agent: str, trace: Callable[[Any], None] | None = None
) -> int:
    """One game in a plain loop; returns the number of decisions. ``trace`` sees every
    action and event (for the fingerprint; ``None`` when timing)."""
    state = SportsMafiaState(config, seed)
    bots = [BOTS[agent](seat, derive_rng(seed, f"agent:{seat}")) for seat in SEATS]
    decisions = 0
    while state.outcome() is None:
        for decision in state.pending():
            seat = decision.seat
            legal = state.legal(seat)
            observation = LazyObservation(lambda seat=seat: state.observe(seat))
            action = bots[seat].act(observation, legal)
            events = state.apply(seat, action)
            if trace is not None:
                trace((seat, action.to_dict(), [event.to_dict() for event in events]))
            decisions += 1
    if trace is not None:
        trace(state.outcome())
    return decisions


async def play_scheduled(seeds: range, agent: str, keep_events: bool = True) -> None:
    """Games through the runtime, unlogged; ``keep_events`` False as ``simulate`` plays them
    (the record keeps no events; set on the prepared game, which the baseline also has)."""
    for seed in seeds:
        game = prepare_game(GameSetup("sports-mafia", seed=seed, agents=agent, write_log=False))
        game.record.keep_events = keep_events
        await game.run()


def fingerprint(games: int, agent: str) -> str:
    """A digest of every action, event and outcome of the first ``games`` seeds."""
    digest = hashlib.sha256()
    config = SportsMafiaConfig()
    for seed in range(games):
        play_direct(seed, config, agent, lambda item: digest.update(repr(item).encode()))
    return digest.hexdigest()[:16]


def measure(kind: str, games: int, agent: str) -> dict[str, float]:
    """CPU and wall seconds of ``games`` games of ``kind`` (one of KINDS)."""
    config = SportsMafiaConfig()
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    if kind == "engine":
        decisions = sum(play_direct(seed, config, agent) for seed in range(games))
    else:
        asyncio.run(play_scheduled(range(games), agent, keep_events=kind == "scheduler"))
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "decisions": decisions,
    }


def child(args: argparse.Namespace) -> None:
    result: dict[str, Any] = measure(args.child, args.games, args.agent)
    if args.check:
        result["fingerprint"] = fingerprint(args.check, args.agent)
    print(json.dumps(result))


def run_child(src: Any, kind: str, args: argparse.Namespace, check: int) -> dict[str, Any]:
    out = run_python(
        src,
        __file__,
        *("--child", kind, "--games", str(args.games), "--agent", args.agent),
        *("--check", str(check)),
    )
    return dict(json.loads(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per block")
    parser.add_argument("--agent", default="random", choices=sorted(BOTS))
    parser.add_argument("--blocks", type=int, default=3, help="alternating runs of each code")
    parser.add_argument("--check", type=int, default=500, help="games to fingerprint")
    parser.add_argument(
        "--baseline", default=SPEED_BASELINE, help="commit, or another checkout's src folder"
    )
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return

    codes = {"today": current_src(), "baseline": baseline_src(args.baseline)}
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    prints: dict[str, set[str]] = {name: set() for name in codes}
    print(f"load before: {load_average()}")
    for block in range(args.blocks):
        for kind in KINDS:
            order = list(codes.items())
            for name, src in order if block % 2 == 0 else order[::-1]:  # neither always first
                check = args.check if block == 0 and kind == "engine" else 0
                result = run_child(src, kind, args, check)
                if "fingerprint" in result:
                    prints[name].add(result.pop("fingerprint"))
                runs.setdefault((name, kind), []).append(result)
    report(args, runs)
    same = prints["today"] == prints["baseline"] and len(prints["today"]) == 1
    print(
        f"same games as the baseline ({args.check} seeds, every action/event/outcome): "
        f"{'yes' if same else 'NO'} {sorted(prints['today'])} vs {sorted(prints['baseline'])}"
    )
    print(f"load after: {load_average()}")


def report(args: argparse.Namespace, runs: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    """Per code and kind: games/s over all blocks and in the best block (the least disturbed
    by other load), and the baseline's time over today's (the speed-up)."""
    n = args.games
    decisions = runs["today", "engine"][0]["decisions"] / n
    print(
        f"agent {args.agent}, {args.blocks} blocks of {n} games per figure, "
        f"{decisions:.1f} decisions/game"
    )
    print(
        f"baseline: {args.baseline}; games/s per CPU second of one core (all blocks | best block)"
    )
    cpu = {key: [run["cpu"] for run in results] for key, results in runs.items()}
    for kind in KINDS:
        today, base = cpu["today", kind], cpu["baseline", kind]
        wall = sum(run["wall"] for run in runs["today", kind])
        print(
            f"{kind:9}: today {n * len(today) / sum(today):5.0f} | {n / min(today):5.0f} games/s"
            f" ({min(today) / n * 1e6:4.0f} us/game, wall {wall:.1f}s)"
            f"   baseline {n * len(base) / sum(base):5.0f} | {n / min(base):5.0f} games/s"
            f"   speed-up {sum(base) / sum(today):.2f}x | {min(base) / min(today):.2f}x"
        )
    engine = zip(cpu["baseline", "engine"], cpu["today", "engine"], strict=True)
    blocks = [f"{base / today:.2f}x" for base, today in engine]
    print(f"engine speed-up block by block: {' '.join(blocks)}")
    for kind in KINDS[1:]:
        for name in ("today", "baseline"):
            ratio = sum(cpu[name, kind]) / sum(cpu[name, "engine"])
            best = min(cpu[name, kind]) / min(cpu[name, "engine"])
            print(f"ratio {kind}/engine per game, {name}: {ratio:.2f}x (best blocks {best:.2f}x)")


if __name__ == "__main__":
    main()
