"""Decisions per second on one core: the PettingZoo AEC env beside the engine loop.

The env is driven by a uniformly random policy over each action mask (every seat a learner,
so every decision builds a numeric observation and a mask); the engine loop plays the same
variant with its ``random`` bots straight on the rules (no observation encoding). Also
prints the village/town win rate of each, with 95% intervals, so the two can be compared.

    python benchmarks/learn_env.py [--games 300]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.stats import Proportion
from duskfall.core.variant import parse_config
from duskfall.learn.aec import DuskfallAEC

CASES = [
    ("werewolf", {"preset": "werewolf-9"}, "village"),
    ("mafia", {}, "town"),
    ("sports-mafia", {}, "RED"),
]


def env_games(variant: str, config: dict, team: str, games: int) -> tuple[int, float, Proportion]:
    env = DuskfallAEC(variant, config)
    rng = np.random.default_rng(0)
    decisions, wins = 0, 0
    start = time.perf_counter()
    for game in range(games):
        env.reset(seed=game)
        for _agent in env.agent_iter():
            obs, _reward, done, truncated, _info = env.last()
            if done or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
            decisions += 1
        wins += env.table.state.outcome().winner == team
    return decisions, time.perf_counter() - start, Proportion(wins, games)


def engine_games(
    variant: str, config: dict, team: str, games: int
) -> tuple[int, float, Proportion]:
    v = get_variant(variant)
    cfg = parse_config(v, config)
    bot = v.bots()["random"]
    decisions, wins = 0, 0
    start = time.perf_counter()
    for game in range(games):
        state = v.new_game(cfg, game)
        bots = {s: bot(s, derive_rng(game, f"agent:{s}")) for s in range(state.num_seats)}
        while state.outcome() is None:
            for d in sorted(state.pending(), key=lambda d: d.seat):
                legal = state.legal(d.seat)
                state.apply(d.seat, legal.parse(bots[d.seat].act(state.observe(d.seat), legal)))
                decisions += 1
        wins += state.outcome().winner == team
    return decisions, time.perf_counter() - start, Proportion(wins, games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    random.seed(0)
    for variant, config, team in CASES:
        name = config.get("preset", variant)
        d_env, t_env, p_env = env_games(variant, config, team, args.games)
        d_eng, t_eng, p_eng = engine_games(variant, config, team, args.games)
        print(
            f"{name:12} env {d_env / t_env:8.0f} decisions/s ({team} {p_env})   "
            f"engine loop {d_eng / t_eng:8.0f} decisions/s ({team} {p_eng})   "
            f"ratio {(d_eng / t_eng) / (d_env / t_env):.1f}x"
        )


if __name__ == "__main__":
    main()
