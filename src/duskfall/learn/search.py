"""CMA-ES search over the parameters of seed 001's probabilistic policies (sports mafia).

The bot family is the variant's tunable bot (``VariantInfo.learning.tunable``:
:mod:`duskfall.variants.sports_mafia.searched`): seed 001's policy objects built from
:data:`SIZE` parameters. ``search(...)`` runs CMA-ES on them, every candidate playing both
sides against the default policies (RandomAgent) on common seeds, at the engine's speed (no
numpy in the game loop); checkpoints are ``{"kind": "seed001-params", "theta": [...]}``.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.learning import BotFactory, Tunable
from duskfall.core.registry import get_variant
from duskfall.core.rng import game_seeds, optimizer_seed
from duskfall.core.stats import Proportion
from duskfall.learn.games import BLACK, RED, VARIANT, bot_factory, play, win_rate


@cache
def tunable() -> Tunable:
    """The sports-mafia bot family the search tunes."""
    learning = get_variant(VARIANT).info.learning
    if learning is None or learning.tunable is None:
        raise ConfigError(f"{VARIANT} declares no tunable bot")
    return learning.tunable()


SIZE = tunable().size


@dataclass(frozen=True)
class SearchedParams:
    """A checkpoint of the search: the parameters of the tunable bot."""

    theta: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.theta) != SIZE:
            raise ConfigError(f"seed-001 parameters are {SIZE} numbers, not {len(self.theta)}")

    def bot(self) -> BotFactory:
        return tunable().bot(self.theta)

    def save(self, path: Path, **meta: Any) -> None:
        data = {"format": 1, "kind": tunable().kind, "variant": VARIANT, **meta}
        data["theta"] = [round(x, 6) for x in self.theta]
        path.write_text(json.dumps(data))

    @classmethod
    def load(cls, path: str | Path) -> SearchedParams:
        from duskfall.learn.policy import read_checkpoint

        return cls(tuple(float(x) for x in read_checkpoint(path, size=SIZE)["theta"]))


def _agent(theta: Sequence[float]) -> BotFactory:
    return SearchedParams(tuple(float(x) for x in theta)).bot()


def _fitness(job: tuple[Sequence[float], Sequence[int]]) -> float:
    theta, seeds = job
    me, default = _agent(theta), bot_factory("random")
    wins = 0
    for k, seed in enumerate(seeds):
        side = RED if k % 2 == 0 else BLACK
        red, black = (me, default) if side == RED else (default, me)
        wins += play(seed, red, black) == side
    return wins / len(seeds)


def versus_default(
    theta: Sequence[float], games: int, first_seed: int
) -> tuple[Proportion, Proportion]:
    """Win rates of the parameters as RED and as BLACK against the default policies."""
    me, default = _agent(theta), bot_factory("random")
    seeds = list(game_seeds(first_seed, "evaluate", range(games)))
    return win_rate(seeds, RED, me, default), win_rate(seeds, BLACK, default, me)


def search(
    out: Path,
    minutes: float,
    games: int = 60,
    popsize: int = 12,
    workers: int = 2,
    seed: int = 0,
    progress: Callable[[int, float, float], None] | None = None,
) -> list[dict[str, float]]:
    """CMA-ES over :data:`SIZE` parameters; writes ``out`` (best mean) and returns the curve."""
    import cma

    es = cma.CMAEvolutionStrategy(
        [0.0] * SIZE, 0.5, {"popsize": popsize, "seed": optimizer_seed(seed), "verbose": -9}
    )
    curve: list[dict[str, float]] = []
    start = time.monotonic()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        generation, last = 0, 0.0
        while generation == 0 or time.monotonic() - start + last < minutes * 60:
            began = time.monotonic()
            candidates = es.ask()
            seeds = list(game_seeds(seed, f"search:{generation}", range(games)))
            fitness = pool.map(_fitness, [(list(c), seeds) for c in candidates])
            es.tell(candidates, [-f for f in fitness])
            mean = [float(x) for x in es.mean]
            curve.append(
                {
                    "generation": generation,
                    "seconds": round(time.monotonic() - start, 1),
                    "mean_fitness": sum(fitness) / len(fitness),
                }
            )
            SearchedParams(tuple(mean)).save(
                out, generation=generation, trainer="cma-es seed-001 params"
            )
            if progress is not None:
                progress(generation, time.monotonic() - start, curve[-1]["mean_fitness"])
            generation += 1
            last = time.monotonic() - began
    return curve
