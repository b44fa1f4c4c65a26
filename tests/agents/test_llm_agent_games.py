"""Whole games with LLM seats: the scripted model in-process, and the OpenAI path over HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duskfall.agents.llm_agent import LLMAgent
from duskfall.core.outcome import Termination
from duskfall.llm import Model, Request, RetryPolicy, ScriptedProvider
from duskfall.llm.calls import call_report
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.stub_server import StubServer

VARIANT = "sports-mafia"


def actions(events: list) -> list[dict]:
    return [e.payload for e in events if e.kind == "action"]


async def test_all_llm_game_is_legal_and_fully_recorded(tmp_path: Path) -> None:
    log_path = tmp_path / "game.jsonl"
    game = await run_game(GameSetup(VARIANT, seed=3, agents="llm:scripted", log_path=log_path))
    outcome = game.state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    report = call_report(game.record.events)
    played = actions(game.record.events)
    assert report.calls == len(played) > 20
    assert all(a["by"] == "agent" for a in played)
    assert report.fallbacks == report.invalid_replies == report.participant_errors == 0
    assert set(report.by_seat) == set(range(10))
    assert game.agents == ["llm:scripted"] * 10
    replay(read_log(log_path))  # every recorded action is legal under the rules


async def test_same_seed_same_game() -> None:
    async def played(seed: int) -> list[dict]:
        game = await run_game(GameSetup(VARIANT, seed=seed, agents="llm:scripted", write_log=False))
        return actions(game.record.events)

    assert await played(11) == await played(11)


async def test_team_spec_mixes_llm_and_bots() -> None:
    game = await run_game(
        GameSetup(VARIANT, seed=5, agents="town=llm:scripted,mafia=heuristic", write_log=False)
    )
    roles = game.state.roles()
    for seat, agent in enumerate(game.agents):
        expected = "heuristic" if roles[seat] in ("MAFIA", "DON") else "llm:scripted"
        assert agent == expected
    llm_seats = set(call_report(game.record.events).by_seat)
    assert llm_seats == {s for s, a in enumerate(game.agents) if a.startswith("llm")}


async def test_bad_replies_are_reasked_with_the_rules_hint() -> None:
    # every first answer to a targeted decision names a seat that is not a legal target;
    # with the model's own format retry off, the handler refuses it and re-asks with a hint
    def first_wrong(request: Request) -> str:
        action = request.schema["properties"]["action"] if request.schema else {}
        refused = "previous answer was refused" in request.last_user
        if not refused and "target" in action.get("properties", {}):
            kind = action["properties"]["type"]["const"]
            return json.dumps({"think": "", "says": "", "action": {"type": kind, "target": 42}})
        return ScriptedProvider()._schema_answer(request)

    provider = ScriptedProvider(first_wrong)
    model = Model(provider, retry=RetryPolicy(format_retries=0))
    seats = {s: LLMAgent(model, seat=s) for s in range(10)}
    game = await run_game(GameSetup(VARIANT, seed=2, participants=seats, write_log=False))
    assert game.state.outcome() is not None
    report = call_report(game.record.events)
    assert report.invalid_replies > 0 and report.fallbacks == 0
    hinted = [r for r in provider.requests if "previous answer was refused" in r.last_user]
    assert len(hinted) == report.invalid_replies
    assert "42 is not one of" in hinted[0].last_user


async def test_openai_path_plays_a_game_and_never_logs_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-duskfall-test-secret-4242"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    log_path = tmp_path / "game.jsonl"
    async with StubServer() as server:
        game = await run_game(
            GameSetup(VARIANT, seed=4, agents=f"llm:openai:stub@{server.url}", log_path=log_path)
        )
    assert game.state.outcome() is not None
    report = call_report(game.record.events)
    assert report.calls == len(actions(game.record.events)) and report.fallbacks == 0
    assert secret not in log_path.read_text()
    replay(read_log(log_path))
