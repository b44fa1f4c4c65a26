"""Werewolf figures: village win rate (95% Wilson interval), mean days, games per second.

Plays every preset with all-random and all-heuristic tables, straight on the rules and the
bots (the same decisions the scheduler would ask, without the async runtime), and, with
``--runtime N``, N more games per row through the full runtime for comparison.

    python benchmarks/werewolf_bots.py                 # 10,000 games per preset and agent set
    python benchmarks/werewolf_bots.py --games 1000 --presets werewolf-9 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import time
from collections import Counter
from dataclasses import dataclass

from duskfall.core.rng import derive_rng
from duskfall.core.stats import Proportion
from duskfall.core.variant import parse_config
from duskfall.session import GameSetup, run_game
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.roles import PRESETS


@dataclass
class Row:
    preset: str
    agents: str
    games: int
    wins: Counter[str]
    days: int
    decisions: int
    seconds: float

    def line(self) -> str:
        village = Proportion(self.wins["village"], self.games)
        return (
            f"{self.preset:12} {self.agents:10} {self.games:6d}  village {village!s:32} "
            f"draws {self.wins['draw']:4d}  mean days {self.days / self.games:5.2f}  "
            f"decisions/game {self.decisions / self.games:6.1f}  "
            f"{self.games / self.seconds:7.1f} games/s"
        )


def play_direct(preset: str, agents: str, seed: int) -> tuple[str, int, int]:
    """One game on the rules and bots; returns (winner or 'draw', days, decisions)."""
    state = VARIANT.new_game(parse_config(VARIANT, {"preset": preset}), seed)
    factory = VARIANT.bots()[agents]
    bots = [factory(seat, derive_rng(seed, f"agent:{seat}")) for seat in range(state.num_seats)]
    decisions = 0
    while state.outcome() is None:
        batch = state.pending()
        actions = {
            d.seat: bots[d.seat].act(state.observe(d.seat), state.legal(d.seat)) for d in batch
        }
        for seat in sorted(actions):
            state.apply(seat, actions[seat])
            if state.outcome() is not None:
                break
        decisions += len(actions)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner or "draw", state.day, decisions


def play_runtime(preset: str, agents: str, seed: int) -> tuple[str, int, int]:
    setup = GameSetup("werewolf", seed, agents, {"preset": preset}, write_log=False)
    game = asyncio.run(run_game(setup))
    outcome = game.state.outcome()
    assert outcome is not None
    decisions = sum(1 for e in game.record.events if e.kind == "action")
    return outcome.winner or "draw", game.state.day, decisions


def play_chunk(job: tuple[str, str, bool, range]) -> list[tuple[str, int, int]]:
    preset, agents, runtime, seeds = job
    play = play_runtime if runtime else play_direct
    return [play(preset, agents, seed) for seed in seeds]


def measure(preset: str, agents: str, games: int, runtime: bool, workers: int) -> Row:
    chunks = [
        (preset, agents, runtime, range(s, min(s + 250, games))) for s in range(0, games, 250)
    ]
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = [r for chunk in pool.imap(play_chunk, chunks) for r in chunk]
    else:
        results = [r for chunk in map(play_chunk, chunks) for r in chunk]
    seconds = time.perf_counter() - start
    wins = Counter(winner for winner, _, _ in results)
    days = sum(d for _, d, _ in results)
    decisions = sum(n for _, _, n in results)
    label = agents + (" (runtime)" if runtime else "")
    return Row(preset, label, games, wins, days, decisions, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per preset and agents")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--agents", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--runtime", type=int, default=0, help="also N games via the runtime")
    parser.add_argument("--workers", type=int, default=1, help="processes (games/s is total)")
    args = parser.parse_args()
    for preset in args.presets:
        for agents in args.agents:
            row = measure(preset, agents, args.games, False, args.workers)
            print(row.line(), flush=True)
            if args.runtime:
                row = measure(preset, agents, args.runtime, True, args.workers)
                print(row.line(), flush=True)


if __name__ == "__main__":
    main()
