"""The win-probability line: its time on one core, and its calibration against bot games.

1. The line of a werewolf-12 game of heuristic bots with 200 rollouts per phase boundary:
   wall and CPU time pinned to one core (goal: under 10 s), against snapshots taken by deep
   copy instead of pickling (the other way to freeze a game, for the ratio).
2. Calibration: over N werewolf-12 games of heuristic bots, the village's predicted chance at
   the start of day 2 (rollouts of the heuristic policy: the policy that played the games)
   against whether the village won, in deciles, with the Brier score and the expected
   calibration error; then the same games read with a policy that did not play them
   (``random``), to show that the line is an estimate under its policy.

    python benchmarks/winline.py                          # both: 1,000 games, 100 rollouts
    python benchmarks/winline.py --line-only
    python benchmarks/winline.py --games 200 --rollouts 50 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass

from duskfall.core.stats import Proportion
from duskfall.lab import rollouts
from duskfall.lab.rollouts import Snapshot
from duskfall.lab.winline import win_line
from duskfall.session import GameSetup, prepare_game
from duskfall.store.log import GameLog
from duskfall.store.paths import use_db

CONFIG = {"preset": "werewolf-12"}


def play(seed: int) -> GameLog:
    """A werewolf-12 game of heuristic bots, in memory."""
    game = prepare_game(
        GameSetup("werewolf", seed=seed, agents="heuristic", config=CONFIG, write_log=False)
    )
    asyncio.run(game.run())
    return GameLog(game.header, game.record.events)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pin(cpus: set[int] | None) -> str:
    """Pin this process to one CPU (the line is a one-core figure), or back to ``cpus``."""
    try:
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
            return "unpinned"
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity here)"


def timed_line(log: GameLog, rollouts_per_point: int) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    line = win_line(log, rollouts=rollouts_per_point)
    return time.perf_counter() - wall, time.process_time() - cpu, len(line.points) - 1


def line_figures(seed: int, rollouts_per_point: int) -> None:
    print(f"== line: werewolf-12, heuristic bots, game seed {seed}, {rollouts_per_point} rollouts")
    everywhere = set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    print(f"   {pin(None)}; load before: {load()}")
    log = play(seed)
    wall, cpu, points = timed_line(log, rollouts_per_point)
    total = points * rollouts_per_point
    print(
        f"   pickled snapshots: {wall:.2f} s wall, {cpu:.2f} s CPU for {points} phase "
        f"boundaries, {total} rollouts ({1000 * cpu / total:.2f} ms CPU a rollout); "
        f"goal under 10 s: {'met' if wall < 10 else 'MISSED'} (wall)"
    )
    take = Snapshot.take

    def deep_copied(variant, state, bots):  # type: ignore[no-untyped-def]
        import copy

        return Snapshot(variant, None, copy.deepcopy((state, dict(bots))))

    rollouts.Snapshot.take = deep_copied  # type: ignore[method-assign]
    try:
        other_wall, other_cpu, _ = timed_line(log, rollouts_per_point)
    finally:
        rollouts.Snapshot.take = take  # type: ignore[method-assign]
        if everywhere is not None:
            pin(everywhere)
    print(
        f"   deep-copied snapshots: {other_wall:.2f} s wall, {other_cpu:.2f} s CPU "
        f"(pickling takes {cpu / other_cpu:.2f}x their CPU time); load after: {load()}"
    )


@dataclass(frozen=True)
class Reading:
    """One game: the predicted chance at day 2 (None if it ended before) and the result."""

    seed: int
    predicted: float | None
    village_won: bool


def read_game(job: tuple[int, str, int]) -> Reading:
    seed, policy, rollouts_per_point = job
    log = play(seed)
    won = log.outcome is not None and log.outcome.winner == "village"
    if not any(e.kind == "action" and e.day == 2 for e in log.events):
        return Reading(seed, None, won)
    line = win_line(log, policy=policy, rollouts=rollouts_per_point, seed=seed, at="day:2")
    return Reading(seed, line.points[0].chance.rate, won)


def calibration(games: int, rollouts_per_point: int, policy: str, workers: int) -> list[Reading]:
    jobs = [(seed, policy, rollouts_per_point) for seed in range(games)]
    if workers == 1:
        return [read_game(job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(read_game, jobs, chunksize=8)


def show_calibration(readings: Iterable[Reading], policy: str, seconds: float) -> None:
    read = [r for r in readings if r.predicted is not None]
    skipped = sum(1 for r in readings if r.predicted is None)
    print(
        f"== calibration at day 2, policy {policy!r}: {len(read)} games "
        f"({skipped} ended before day 2), {seconds:.0f} s"
    )
    print("   predicted     games  mean predicted  observed village wins [95%]")
    error = 0.0
    covered = filled = 0
    for decile in range(10):
        low, high = decile / 10, (decile + 1) / 10
        inside = [
            r
            for r in read
            if r.predicted is not None
            and (low <= r.predicted < high or (decile == 9 and r.predicted == 1.0))
        ]
        if not inside:
            print(f"   {low:.1f}-{high:.1f}        0")
            continue
        mean = sum(r.predicted or 0.0 for r in inside) / len(inside)
        observed = Proportion(sum(r.village_won for r in inside), len(inside))
        lo, hi = observed.interval()
        error += len(inside) * abs(mean - observed.rate)
        holds = lo - 1e-9 <= mean <= hi + 1e-9  # the interval is computed in floats
        covered, filled = covered + holds, filled + 1
        print(
            f"   {low:.1f}-{high:.1f}   {len(inside):7d}  {mean:14.3f}  "
            f"{observed.rate:.3f} [{lo:.3f}, {hi:.3f}]{'' if holds else '  outside'}"
        )
    brier = sum(((r.predicted or 0.0) - r.village_won) ** 2 for r in read) / max(1, len(read))
    base = sum(r.village_won for r in read) / max(1, len(read))
    print(f"   coverage: {covered} of {filled} deciles' intervals hold their mean prediction")
    print(
        f"   Brier {brier:.4f} (always {base:.3f}: {base * (1 - base):.4f}); "
        f"expected calibration error {error / max(1, len(read)):.4f}; load {load()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3, help="the timed game's seed")
    parser.add_argument("--line-rollouts", type=int, default=200)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=100, help="per game, at day 2")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--line-only", action="store_true")
    parser.add_argument("--policies", default="heuristic,random")
    args = parser.parse_args()
    use_db(None)
    line_figures(args.seed, args.line_rollouts)
    if args.line_only:
        return
    for policy in args.policies.split(","):
        started = time.perf_counter()
        readings = calibration(args.games, args.rollouts, policy, args.workers)
        show_calibration(readings, policy, time.perf_counter() - started)


if __name__ == "__main__":
    main()
