"""Sports-mafia engine speed: RandomAgent games in one process, directly and via the scheduler.

Prints games per second of the bare engine loop (``pending``/``legal``/``act``/``apply``), the
same games through the async runtime (``run_game`` without a log), and their time ratio.
Speeds are per CPU second of this process (one core), so that other load on the machine
distorts them less; wall-clock seconds are printed beside them.

    python benchmarks/sports_mafia_engine.py --games 5000
"""

from __future__ import annotations

import argparse
import asyncio
import time

from duskfall.core.rng import derive_rng
from duskfall.runtime.participant import LazyObservation
from duskfall.session import GameSetup, run_game
from duskfall.variants.sports_mafia.bots import BOTS
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.rules import SportsMafiaState


def play_direct(seed: int, config: SportsMafiaConfig, agent: str) -> int:
    """One game in a plain loop; returns the number of decisions."""
    state = SportsMafiaState(config, seed)
    bots = [BOTS[agent](seat, derive_rng(seed, f"agent:{seat}")) for seat in range(10)]
    decisions = 0
    while state.outcome() is None:
        for decision in state.pending():
            seat = decision.seat
            legal = state.legal(seat)
            observation = LazyObservation(lambda seat=seat: state.observe(seat))
            state.apply(seat, bots[seat].act(observation, legal))
            decisions += 1
    return decisions


async def play_scheduled(seeds: range, agent: str) -> None:
    for seed in seeds:
        await run_game(GameSetup("sports-mafia", seed=seed, agents=agent, write_log=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--agent", default="random", choices=sorted(BOTS))
    args = parser.parse_args()
    config = SportsMafiaConfig()
    seeds = range(args.games)

    wall, cpu = time.perf_counter(), time.process_time()
    decisions = sum(play_direct(seed, config, args.agent) for seed in seeds)
    direct_wall, direct = time.perf_counter() - wall, time.process_time() - cpu

    wall, cpu = time.perf_counter(), time.process_time()
    asyncio.run(play_scheduled(seeds, args.agent))
    scheduled_wall, scheduled = time.perf_counter() - wall, time.process_time() - cpu

    n = args.games
    print(f"agent {args.agent}, {n} games, {decisions / n:.1f} decisions/game")
    print(
        f"engine loop : {n / direct:8.0f} games/s per core  "
        f"({direct / n * 1e6:.0f} us/game, {direct / decisions * 1e6:.1f} us/decision; "
        f"wall {direct_wall:.1f}s)"
    )
    print(
        f"scheduler   : {n / scheduled:8.0f} games/s per core  "
        f"({scheduled / n * 1e6:.0f} us/game; wall {scheduled_wall:.1f}s)"
    )
    print(f"ratio scheduler/engine per game: {scheduled / direct:.2f}x")


if __name__ == "__main__":
    main()
