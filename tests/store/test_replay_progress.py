"""A replay reports its progress in steps that add up to the log's events."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from duskfall.session import GameSetup, run_game
from duskfall.store import replay as replay_module
from duskfall.store.log import read_log
from duskfall.store.replay import replay


def test_progress_steps_add_up_to_the_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.jsonl"
    asyncio.run(run_game(GameSetup("werewolf", seed=3, agents="random", log_path=path)))
    log = read_log(path)
    monkeypatch.setattr(replay_module, "PROGRESS_EVERY", 7)
    steps: list[int] = []
    replay(log, progress=steps.append)
    assert sum(steps) == len(log.events)
    assert len(steps) == len(log.events) // 7 + 1
