"""Training, the seed-001 policy search, checkpoints and the ``trained:PATH`` agent."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from conftest import CliRun
from duskfall.core.errors import ConfigError
from duskfall.learn.games import BLACK, RED, bot_factory, play
from duskfall.learn.policy import SIZE, LinearPolicy
from duskfall.learn.search import SIZE as SEARCH_SIZE
from duskfall.learn.search import SearchedParams, search
from duskfall.learn.train import TrainSettings, train
from duskfall.learn.trained import TrainedBot, load_policy, trained_bot


def test_a_policy_round_trips_and_plays_both_sides(tmp_path: Path) -> None:
    theta = np.random.default_rng(0).normal(size=SIZE)
    path = tmp_path / "p.json"
    LinearPolicy(theta).save(path, generation=3)
    again = LinearPolicy.load(path)
    assert np.allclose(again.theta, theta, atol=1e-5)
    bot = trained_bot(path, 2, random.Random(0))
    assert isinstance(bot, TrainedBot)
    policy = lambda seat, rng: TrainedBot(seat, rng, again)  # noqa: E731
    assert {play(seed, policy, bot_factory("random")) for seed in range(6)} <= {RED, BLACK, None}
    assert play(9, policy, bot_factory("random")) == play(9, policy, bot_factory("random"))


def test_training_writes_checkpoints_and_a_curve(tmp_path: Path) -> None:
    settings = TrainSettings(
        out=tmp_path, generations=2, games=4, popsize=4, workers=1, eval_every=1, eval_games=4
    )
    result = train(settings)
    assert [p.generation for p in result.curve] == [0, 1]
    assert (tmp_path / "checkpoint-0001.json").exists() and result.policy.exists()
    curve = json.loads((tmp_path / "curve.json").read_text())["curve"]
    assert curve[0]["red_vs_random"] is not None and len(curve) == 2


def test_the_seed001_search_writes_parameters_that_play(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    curve = search(path, minutes=0.001, games=4, popsize=4, workers=1)
    assert len(curve) == 1 and path.exists()
    params = SearchedParams.load(path)
    assert len(params.theta) == SEARCH_SIZE
    agent = params.bot()
    assert play(1, bot_factory("random"), agent) in (RED, BLACK, None)


def test_bad_checkpoints_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no policy checkpoint"):
        load_policy(str(tmp_path / "missing.json"))
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(ConfigError, match="cannot read policy checkpoint"):
        load_policy(str(tmp_path / "junk.json"))


def test_trained_agents_play_in_simulate_and_train_refuses_other_variants(
    tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))
    path = tmp_path / "policy.json"
    LinearPolicy.zeros().save(path)
    code, out, err = cli(
        "simulate", "--variant", "sports-mafia", "--games", "4",
        "--agents", f"red=trained:{path},black=random",
    )  # fmt: skip
    assert code == 0, err
    assert "4 games" in out
    code, _out, err = cli("train", "--variant", "werewolf", "--minutes", "0.1")
    assert code == 2 and "sports-mafia only" in err and "Traceback" not in err
    code, _out, err = cli(
        "simulate", "--variant", "sports-mafia", "--games", "2",
        "--agents", f"trained:{tmp_path / 'none.json'}",
    )  # fmt: skip
    assert code == 2 and "no policy checkpoint" in err
