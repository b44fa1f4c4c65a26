"""The win line from the game's own agents (``analyse --samples``): each point is the outcome
of ``fork --samples`` from there, models included, within a call budget."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.core.sides import VILLAGE, side_of
from duskfall.lab.fork import ForkRequest, load_parent
from duskfall.lab.sampled_line import sampled_line
from duskfall.lab.samples import sample_forks
from duskfall.session import GameSetup, run_game
from duskfall.store.replay import new_state_for


@pytest.fixture
def model_game(tmp_path: Path, index: Path) -> Path:
    """A finished werewolf-6 game whose seats are all scripted models."""
    path = tmp_path / "models.jsonl"
    setup = GameSetup("werewolf", seed=2, agents="llm:scripted", config={"preset": "werewolf-6"},
                      log_path=path)  # fmt: skip
    asyncio.run(run_game(setup))
    return path


def test_each_point_is_the_samples_of_the_games_own_models(model_game: Path) -> None:
    parent = load_parent(model_game)
    line = asyncio.run(sampled_line(parent, samples=2, seed=5))
    points = [point for point in line.points if not point.exact]
    assert len(points) >= 2 and line.finished and line.points[-1].exact
    assert all(point.rollouts == 2 and 0 <= point.wins <= 2 for point in points)
    assert line.sampled is not None and line.sampled.calls > 0  # the models played them on
    assert "own agents" in line.note and "2 of 2 asked per point" in line.note
    # a point is fork --samples from there: the same seeds, the same outcomes
    second = points[1]
    request = ForkRequest(model_game, at=str(second.event), seed=5)
    found = asyncio.run(sample_forks(request, 2, parent=parent))
    variant = new_state_for(parent.log)[0]
    village = sum(n for team, n in found.winners.items() if side_of(variant, team) == VILLAGE)
    assert village == second.wins
    again = asyncio.run(sampled_line(parent, samples=2, seed=5))
    assert again.to_dict() == line.to_dict()


def test_a_call_budget_stops_the_samples_and_the_line_says_how_many(model_game: Path) -> None:
    parent = load_parent(model_game)
    line = asyncio.run(sampled_line(parent, samples=3, max_calls=1))
    points = [point for point in line.points if not point.exact]
    assert [point.rollouts for point in points] == [1]  # the first sample went over the budget
    assert line.sampled is not None and line.sampled.calls >= 1
    assert "1-1 of 3 asked per point" in line.note and "(budget 1)" in line.note


def test_the_command_draws_the_sampled_line(model_game: Path, cli: CliRun) -> None:
    code, out, err = cli("analyse", str(model_game), "--samples", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["sampled"]["samples"] == 2 and data["sampled"]["calls"] > 0
    assert {p["rollouts"] for p in data["points"] if not p["exact"]} == {2}
    code, out, err = cli("analyse", str(model_game), "--samples", "1", "--max-calls", "1")
    assert code == 0, err
    assert "samples" in out and "budget 1" in " ".join(out.split())
    for wrong in (("--max-calls", "5"), ("--samples", "2", "--policy", "random")):
        code, _, err = cli("analyse", str(model_game), *wrong)
        assert code == 2 and err.startswith("error: ") and "Traceback" not in err


def test_the_budget_is_shared_out_one_sample_per_point_per_pass(model_game: Path) -> None:
    """The samples are dealt a pass at a time: a budget that one pass uses up leaves every
    point one sample; one call more starts the next pass at the first point only."""
    parent = load_parent(model_game)
    one = asyncio.run(sampled_line(parent, samples=1, seed=5))
    assert one.sampled is not None
    per_pass = one.sampled.calls
    exact = asyncio.run(sampled_line(parent, samples=3, seed=5, max_calls=per_pass))
    counts = [point.rollouts for point in exact.points if not point.exact]
    assert len(counts) >= 2 and set(counts) == {1}
    more = asyncio.run(sampled_line(parent, samples=3, seed=5, max_calls=per_pass + 1))
    assert [point.rollouts for point in more.points if not point.exact] == [2, *counts[1:]]
