"""Fifty games against a loopback server that faults 30% of the calls: every game completes,
every action is legal, and the logs show the retries, re-asks and fallbacks that got it there."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from duskfall.llm.calls import call_report
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.stub_server import FaultPlan, StubServer

GAMES = 50
OPTIONS = {"timeout": 0.5, "retries": 1, "retry_delay": 0.02, "decision_timeout": 10}


@pytest.mark.slow
@pytest.mark.timeout(900)  # 50 games at once: minutes on a busy 2-core machine
async def test_fifty_games_survive_thirty_percent_faults(tmp_path: Path) -> None:
    async with StubServer(faults=FaultPlan(rate=0.3, seed=7, retry_after="0")) as server:
        setups = [
            GameSetup(
                "sports-mafia",
                seed=seed,
                agents=f"llm:openai:stub@{server.url}",
                log_path=tmp_path / f"{seed}.jsonl",
                settings=RuntimeSettings(retries=1, decision_timeout=10),
                agent_options=OPTIONS,
            )
            for seed in range(GAMES)
        ]
        games = await asyncio.gather(*(run_game(setup) for setup in setups))
    assert all(set(server.stats) >= {k} for k in ("500", "429", "hang", "garbage", "empty"))
    faulted = sum(v for k, v in server.stats.items() if k != "ok")
    assert 0.25 < faulted / sum(server.stats.values()) < 0.35

    totals = Counter[str]()
    reasons = Counter[str]()
    for game, setup in zip(games, setups, strict=True):
        assert game.state.outcome() is not None
        assert setup.log_path is not None
        replay(read_log(setup.log_path))  # every applied action is legal under the rules
        report = call_report(game.record.events)
        totals.update({k: v for k, v in report.to_dict().items() if not isinstance(v, dict)})
        reasons.update(report.retry_reasons)
    assert totals["retries"] > 0 and totals["failed_calls"] > 0
    assert totals["participant_errors"] > 0 and totals["fallbacks"] > 0
    for reason in ("server error 500", "rate limited (429)", "unreadable reply", "empty reply"):
        assert reasons[reason] > 0, reasons
    assert reasons["no reply within 0.5s"] > 0, reasons
