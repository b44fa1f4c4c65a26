"""Endpoint limits shared by every game of a run: worker processes and Ray tasks take their
slots from one place, so an endpoint limited to one call at a time never sees two."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from arena.conftest import StubMaker
from arena.tournament_kit import run
from duskfall.arena.shared_limits import LimitsService, PoolLimits
from duskfall.arena.tournament_config import parse_tournament
from duskfall.store.slots import slot_records
from duskfall.testing.require import require
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
def stub(stub_server: StubMaker) -> StubServer:
    return stub_server(latency=0.02)


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
    ray = require("ray", "pip install 'duskfall[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        summary = run(_model_tournament(stub, workers=1), tmp_path, backend="ray")
    finally:
        ray.shutdown()
    assert summary.played == 4 and not summary.failed
    assert stub.stats["ok"] > 20
    assert stub.max_in_flight == 1


@pytest.mark.slow
def test_a_worker_killed_holding_an_endpoint_slot_gives_it_back_after_its_lease(
    stub_server: StubMaker, tmp_path: Path
) -> None:
    """The worker making the 10th call is killed while the call is in flight (it holds the
    endpoint's only slot): the slot comes back when its lease runs out, its game is played
    again, and the endpoint never sees two calls at once."""
    psutil = require("psutil")
    lease = 2.0
    seen: dict[str, Any] = {"calls": 0, "killed": None, "next_after": None}

    async def on_call(peer: tuple[str, int]) -> None:
        seen["calls"] += 1
        if seen["killed"] is not None and seen["next_after"] is None:
            seen["next_after"] = time.monotonic() - seen["killed"]
        if seen["calls"] == 10:
            for connection in psutil.net_connections(kind="tcp"):
                if connection.laddr and connection.laddr.port == peer[1] and connection.pid:
                    os.kill(connection.pid, signal.SIGKILL)
                    seen["killed"] = time.monotonic()

    stub = stub_server(latency=0.02, on_call=on_call)
    summary = run(_model_tournament(stub, execution={"lease_seconds": lease}), tmp_path)
    assert seen["killed"] is not None
    assert summary.played == 4 and summary.retried == 1 and not summary.failed
    assert stub.max_in_flight == 1
    assert seen["next_after"] is not None and seen["next_after"] < lease + 3
    records = slot_records(tmp_path / "index.db", "limited")
    assert [r.reason for r in records.values() if r.attempts] == [
        "its worker process died (killed by SIGKILL)"
    ]
