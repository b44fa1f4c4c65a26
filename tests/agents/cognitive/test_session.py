"""Investigation sessions: the recursion, its limit, malformed JSON, failing models."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from duskfall.agents.cognitive.session import (
    Investigation,
    SessionLimits,
    SessionSpec,
    session_schema,
)
from duskfall.agents.cognitive.tools import Toolbox
from duskfall.llm import LLMError, ProviderUnavailable, Request

from .helpers import caller, context, fed_records, step

SPEC = SessionSpec("investigate_player", (3,), "Judge p3.")


def investigation(tmp_path: Path, replies: object, max_steps: int = 3) -> Investigation:
    stage, _ = caller(replies, context(5))
    box = Toolbox(fed_records(tmp_path, 5), stage.context)
    return Investigation(stage, box, "Find the wolves.", lambda: "(none)", SessionLimits(max_steps))


async def test_tools_run_between_steps_and_their_output_is_fed_back(tmp_path: Path) -> None:
    requests: list[Request] = []
    replies = iter(
        [
            step(
                end_investigation=False,
                requested_tools=[{"tool_name": "read_public_speech", "player_id": "p3"}],
            ),
            step(
                suspicion_updates=[{"player_id": "p3", "delta_suspicion": 0.2, "delta_trust": -0.1}]
            ),
        ]
    )

    def reply(request: Request) -> str:
        requests.append(request)
        return next(replies)

    result = await investigation(tmp_path, reply).run(SPEC)
    assert result.ended_by == "end_investigation" and len(result.steps) == 2
    assert result.tool_calls == 1
    assert "I suspect Bram." in requests[1].last_user  # the tool's output came back
    assert requests[1].schema == requests[0].schema is not None
    assert result.steps[-1].updates[0].player == 3
    assert result.final is not None and result.final["end_investigation"] is True


async def test_step_limit_ends_a_session_that_never_stops(tmp_path: Path) -> None:
    calls = 0

    def reply(request: Request) -> str:
        nonlocal calls
        calls += 1
        return step(end_investigation=False, requested_tools=[{"tool_name": "read_metrics"}])

    result = await investigation(tmp_path, reply, max_steps=3).run(SPEC)
    assert calls == 3 and len(result.steps) == 3
    assert result.ended_by == "step_limit" and result.tool_calls == 2


async def test_last_step_asks_to_finish(tmp_path: Path) -> None:
    seen: list[str] = []

    def reply(request: Request) -> str:
        seen.append(request.last_user)
        return step(end_investigation=False, requested_tools=[{"tool_name": "read_metrics"}])

    await investigation(tmp_path, reply, max_steps=2).run(SPEC)
    assert "last step" in seen[-1]


async def test_a_step_without_tools_ends_the_session(tmp_path: Path) -> None:
    result = await investigation(tmp_path, [step(end_investigation=False)]).run(SPEC)
    assert result.ended_by == "no_tools" and len(result.steps) == 1


async def test_malformed_json_is_re_asked_with_a_hint(tmp_path: Path) -> None:
    seen: list[str] = []
    replies = iter(["I think p3 is a wolf", step()])

    def reply(request: Request) -> str:
        seen.append(request.last_user)
        return next(replies)

    result = await investigation(tmp_path, reply).run(SPEC)
    assert result.ended_by == "end_investigation"
    assert "not a valid investigation step" in seen[1] and "no JSON object" in seen[1]


async def test_malformed_twice_ends_the_session(tmp_path: Path) -> None:
    missing = json.dumps({"end_investigation": True})
    result = await investigation(tmp_path, ["{not json", missing, step()]).run(SPEC)
    assert result.ended_by == "bad_json" and not result.steps
    assert "missing required field" in (result.error or "")


async def test_a_failing_model_ends_the_session(tmp_path: Path) -> None:
    result = await investigation(tmp_path, [LLMError("boom")]).run(SPEC)
    assert result.ended_by == "model_error" and "boom" in (result.error or "")
    result = await investigation(tmp_path, [ProviderUnavailable("bad key")]).run(SPEC)
    assert result.ended_by == "model_error"


async def test_sessions_run_concurrently(tmp_path: Path) -> None:
    started = asyncio.Event()
    waiting = 0

    async def reply(request: Request) -> str:
        nonlocal waiting
        waiting += 1
        if waiting == 2:
            started.set()
        await asyncio.wait_for(started.wait(), 5)  # both sessions are in flight at once
        return step()

    specs = [SPEC, SessionSpec("find_detective", (1, 2, 3), "Who checks?")]
    results = await investigation(tmp_path, reply).run_all(specs)
    assert [r.ended_by for r in results] == ["end_investigation"] * 2


async def test_bad_player_ids_and_unknown_tools_do_not_break_a_step(tmp_path: Path) -> None:
    replies = [
        step(
            end_investigation=False,
            requested_tools=[{"tool_name": "read_public_speech", "player_id": "p77"}],
        ),
        step(),
    ]
    seen: list[str] = []
    it = iter(replies)

    def reply(request: Request) -> str:
        seen.append(request.last_user)
        return next(it)

    result = await investigation(tmp_path, reply).run(SPEC)
    assert result.ended_by == "end_investigation"
    assert "ERROR" in seen[1] and "valid player_id" in seen[1]


def test_schema_names_the_seeds_keys() -> None:
    schema = session_schema(context(), SessionLimits())
    assert schema["required"] == [
        "end_investigation",
        "session_type",
        "target_players",
        "reasoning",
        "requested_tools",
        "suspicion_updates",
        "intermediate_hypotheses",
    ]
