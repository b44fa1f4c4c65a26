"""Checks through the runtime: the same seed and agents give the same log; replay reproduces it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from duskfall.core import event_kinds
from duskfall.core.events import Event
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay

TROUBLE = frozenset(
    {
        event_kinds.FALLBACK,
        event_kinds.INVALID_ACTION,
        event_kinds.PARTICIPANT_ERROR,
        event_kinds.DECISION_TIMEOUT,
    }
)


def check_bots_played(events: list[Event], agents: str) -> None:
    """Built-in bots answer every decision themselves, legally and in time."""
    trouble = [f"{e.kind} {e.payload}" for e in events if e.kind in TROUBLE]
    assert not trouble, f"{agents} bots needed help:\n" + "\n".join(trouble[:5])


def check_runtime_determinism(
    variant_id: str,
    configs: Iterable[Mapping[str, Any]],
    tmp_path: Path,
    agents: str = "heuristic",
    seed: int = 7,
) -> None:
    """A game of ``agents`` played twice through the runtime logs the same events."""
    for number, config in enumerate(configs):
        logs = []
        for run in range(2):
            setup = GameSetup(
                variant=variant_id,
                seed=seed,
                agents=agents,
                config=config,
                game_id="determinism",
                log_path=tmp_path / f"determinism-{number}-{run}.jsonl",
            )
            asyncio.run(run_game(setup))
            assert setup.log_path is not None
            events = read_log(setup.log_path).events
            check_bots_played(events, agents)
            logs.append([e.to_dict() for e in events])
        assert logs[0] == logs[1], f"config {dict(config)}: two runs log different events"


def check_replay(
    variant_id: str,
    configs: Iterable[Mapping[str, Any]],
    tmp_path: Path,
    agents: str = "random",
    seeds: Iterable[int] = range(5),
) -> None:
    """Games of ``agents`` played through the runtime, without fallbacks, replay to the same
    outcome."""
    seed_list = list(seeds)
    for number, config in enumerate(configs):
        for seed in seed_list:
            path = tmp_path / f"replay-{number}-{agents}-{seed}.jsonl"
            setup = GameSetup(
                variant=variant_id, seed=seed, agents=agents, config=config, log_path=path
            )
            asyncio.run(run_game(setup))
            log = read_log(path)
            assert log.finished, f"seed {seed}: the log has no end"
            check_bots_played(log.events, agents)
            result = replay(log)
            assert result.state.outcome() == log.outcome, f"seed {seed}: replay ends otherwise"
