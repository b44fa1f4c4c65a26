"""``duskfall train``: CMA-ES self-play training of a linear policy for sports mafia.

Each generation CMA-ES (the ``cma`` package) proposes a population of parameter vectors of
:class:`~duskfall.learn.policy.LinearPolicy`; every candidate plays the same games (common
seeds, so candidates are compared on equal terms), half as RED and half as BLACK, against
opponents drawn in turn from a pool: seed 001's RandomAgent, the heuristic bot, and past
policies of this run (the search mean, added every few generations: self-play). Its fitness
is its win rate. Games run on the engine loop (:mod:`.games`) in worker processes.

After every generation the search mean is written to ``OUT/checkpoint-NNNN.json`` and
``OUT/policy.json`` (what ``--agents trained:OUT/policy.json`` plays), and the curve (fitness,
and every few generations the win rate against RandomAgent on held-out seeds) to
``OUT/curve.json``. Training stops before a generation that would end after ``minutes`` (the
last one's duration is the estimate), or after ``generations``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from duskfall.core.errors import ConfigError
from duskfall.core.rng import game_seeds, optimizer_seed
from duskfall.learn.games import BLACK, RED, bot_factory, play, win_rate
from duskfall.learn.policy import SIZE, LinearPolicy
from duskfall.learn.trained import TrainedBot

Opponent = str | np.ndarray  # a bot name, or the parameters of a past policy
EVAL_SEED = 1_000_000_000  # held-out seeds for the curve's evaluations


@dataclass
class TrainSettings:
    out: Path
    minutes: float = 14.0
    generations: int | None = None
    games: int = 48  # per candidate and generation (half as RED, half as BLACK)
    popsize: int = 16
    sigma: float = 0.5
    workers: int = 2
    seed: int = 0
    eval_every: int = 5
    eval_games: int = 300
    pool_every: int = 5
    pool_size: int = 4


@dataclass
class CurvePoint:
    generation: int
    seconds: float
    mean_fitness: float
    best_fitness: float
    red_vs_random: float | None = None
    black_vs_random: float | None = None


@dataclass
class TrainResult:
    policy: Path
    curve: list[CurvePoint] = field(default_factory=list)


def _factory(opponent: Opponent) -> Callable[[int, random.Random], Any]:
    if isinstance(opponent, str):
        return bot_factory(opponent)
    policy = LinearPolicy(opponent)
    return lambda seat, rng: TrainedBot(seat, rng, policy)


def _score(job: tuple[np.ndarray, Sequence[tuple[int, str, Opponent]]]) -> float:
    """A candidate's win rate over its games: (seed, side it plays, opponent)."""
    theta, games = job
    me = _factory(theta)
    wins = 0
    for seed, side, opponent in games:
        them = _factory(opponent)
        red, black = (me, them) if side == RED else (them, me)
        wins += play(seed, red, black) == side
    return wins / len(games)


def _schedule(
    generation: int, settings: TrainSettings, pool: list[Opponent]
) -> list[tuple[int, str, Opponent]]:
    opponents: list[Opponent] = ["random", "random", "heuristic", *pool]
    seeds = game_seeds(settings.seed, f"train:{generation}", range(settings.games))
    return [
        (seed, RED if k % 2 == 0 else BLACK, opponents[(k // 2) % len(opponents)])
        for k, seed in enumerate(seeds)
    ]


def evaluate(theta: np.ndarray, games: int, first_seed: int = EVAL_SEED) -> tuple[float, float]:
    """Win rates of the policy as RED and as BLACK against RandomAgent."""
    me, random_agent = _factory(theta), bot_factory("random")
    seeds = list(game_seeds(first_seed, "evaluate", range(games)))  # held out from training's
    red = win_rate(seeds, RED, me, random_agent).rate
    black = win_rate(seeds, BLACK, random_agent, me).rate
    return red, black


def train(
    settings: TrainSettings, progress: Callable[[float, CurvePoint], None] | None = None
) -> TrainResult:
    """Run CMA-ES until the time (or generation) budget is spent; see the module docstring."""
    import cma

    if settings.workers < 1:
        raise ConfigError("workers must be at least 1")
    try:
        settings.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot write checkpoints in {settings.out}: {exc.strerror}") from None
    options = {
        "popsize": settings.popsize,
        "seed": optimizer_seed(settings.seed),
        "verbose": -9,
        "CMA_diagonal": True,
    }
    es = cma.CMAEvolutionStrategy(np.zeros(SIZE), settings.sigma, options)
    pool: list[Opponent] = []
    result = TrainResult(settings.out / "policy.json")
    start = time.monotonic()
    deadline = start + settings.minutes * 60
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(settings.workers) as workers:
        generation, last = 0, 0.0
        while time.monotonic() + last < deadline and (
            settings.generations is None or generation < settings.generations
        ):
            began = time.monotonic()
            candidates = es.ask()
            games = _schedule(generation, settings, pool)
            fitness = workers.map(_score, [(np.asarray(c), games) for c in candidates])
            es.tell(candidates, [-f for f in fitness])
            mean = np.asarray(es.mean)
            point = CurvePoint(
                generation,
                round(time.monotonic() - start, 1),
                float(np.mean(fitness)),
                float(max(fitness)),
            )
            if generation % settings.eval_every == 0:
                point.red_vs_random, point.black_vs_random = evaluate(mean, settings.eval_games)
            if generation % settings.pool_every == settings.pool_every - 1:
                pool = [*pool, mean.copy()][-settings.pool_size :]
            result.curve.append(point)
            _checkpoint(settings, result, mean, generation)
            if progress is not None:
                progress(time.monotonic() - start, point)
            generation += 1
            last = time.monotonic() - began  # no generation is started that would overrun
    return result


def _checkpoint(
    settings: TrainSettings, result: TrainResult, mean: np.ndarray, generation: int
) -> None:
    policy = LinearPolicy(mean)
    meta = {"generation": generation, "trainer": "cma-es self-play", "seed": settings.seed}
    policy.save(settings.out / f"checkpoint-{generation:04d}.json", **meta)
    policy.save(result.policy, **meta)
    curve: dict[str, Any] = {
        "settings": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(settings).items()},
        "curve": [asdict(p) for p in result.curve],
    }
    (settings.out / "curve.json").write_text(json.dumps(curve, indent=1))
