"""Endpoint limits shared by every game of a run: worker processes and Ray tasks take their
slots from one place, so an endpoint limited to one call at a time never sees two."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.tournament_kit import run
from conftest import InBackground
from duskfall.arena.shared_limits import LimitsService, PoolLimits
from duskfall.arena.tournament_config import parse_tournament
from duskfall.testing.stub_server import StubServer


async def test_a_pool_slot_is_held_once_and_given_back_by_a_cancelled_wait() -> None:
    service = LimitsService(multiprocessing.get_context("spawn"))
    try:
        limits = PoolLimits(*service.connection)
        entered = asyncio.Event()
        leave = asyncio.Event()

        async def holder() -> None:
            async with limits.hold("endpoint", 1):
                entered.set()
                await leave.wait()

        first = asyncio.create_task(holder())
        await entered.wait()
        waiter = asyncio.create_task(limits.hold("endpoint", 1).__aenter__())
        done, _ = await asyncio.wait({waiter}, timeout=0.3)
        assert not done  # the only slot is held
        waiter.cancel()
        leave.set()
        await first
        # the cancelled wait got the slot after all and gave it back: it can be taken again
        async with asyncio.timeout(10):
            async with limits.hold("endpoint", 1):
                pass
    finally:
        service.close()


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    server = StubServer(latency=0.02)
    in_background(server.start())
    yield server
    in_background(server.close())


def _model_tournament(stub: StubServer, **overrides: Any) -> Any:
    data: dict[str, Any] = {
        "name": "limited",
        "entrants": {"model": f"llm:openai:stub@{stub.url}", "bot": "random"},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
        "games": 4,
        "seed": 3,
        "schedule": "sides",
        "parallel_games": 4,
        "workers": 2,
        "log_dir": "games",
        "agent_options": {"concurrency": 1},
    }
    data.update(overrides)
    return parse_tournament(data)


@pytest.mark.slow
def test_worker_processes_share_an_endpoint_limit(stub: StubServer, tmp_path: Path) -> None:
    summary = run(_model_tournament(stub), tmp_path)
    assert summary.played == 4 and not summary.failed
    assert stub.stats["ok"] > 20  # many calls, from games in both workers
    assert stub.max_in_flight == 1


@pytest.mark.slow
def test_ray_tasks_share_an_endpoint_limit(stub: StubServer, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray") if os.environ.get("CI") != "true" else __import__("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        summary = run(_model_tournament(stub, workers=1), tmp_path, backend="ray")
    finally:
        ray.shutdown()
    assert summary.played == 4 and not summary.failed
    assert stub.stats["ok"] > 20
    assert stub.max_in_flight == 1
