"""A uniformly random policy through the env wins as often as the engine's random bots."""

from __future__ import annotations

import numpy as np
import pytest

from duskfall.arena.simulate import simulate
from duskfall.core.stats import Proportion
from duskfall.learn.aec import DuskfallAEC


def env_wins(variant: str, config: dict, team: str, games: int) -> Proportion:
    env = DuskfallAEC(variant, config)
    rng = np.random.default_rng(1)
    wins = 0
    for seed in range(games):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _r, done, _t, _i = env.last()
            env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        outcome = env.table.state.outcome()
        assert outcome is not None
        wins += outcome.winner == team
    return Proportion(wins, games)


def overlap(a: Proportion, b: Proportion) -> bool:
    (lo_a, hi_a), (lo_b, hi_b) = a.interval(), b.interval()
    return lo_a <= hi_b and lo_b <= hi_a


def check(variant: str, config: dict, team: str, games: int, tmp_db: object) -> None:
    env = env_wins(variant, config, team, games)
    engine = simulate(variant, games, agents="random", config=config, first_seed=10_000)
    assert overlap(env, engine.win_rate(team)), f"env {env} vs simulate {engine.win_rate(team)}"


@pytest.fixture
def tmp_db(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))
    return tmp_path


def test_random_rollouts_match_simulate_werewolf_6(tmp_db: object) -> None:
    check("werewolf", {"preset": "werewolf-6"}, "village", 200, tmp_db)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "config", "team"),
    [
        ("werewolf", {"preset": "werewolf-9"}, "village"),
        ("werewolf", {"preset": "werewolf-12"}, "village"),
        ("mafia", {}, "town"),
        ("sports-mafia", {}, "RED"),
    ],
)
def test_random_rollouts_match_simulate(
    variant: str, config: dict, team: str, tmp_db: object
) -> None:
    check(variant, config, team, 2000, tmp_db)
