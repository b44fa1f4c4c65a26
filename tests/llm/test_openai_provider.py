"""The OpenAI-compatible provider against a real loopback HTTP server with injected faults."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from duskfall.llm import RetriesExhausted, RetryPolicy, get_model
from duskfall.testing.stub_server import FaultPlan, StubServer

FAST = RetryPolicy(retries=3, base_delay=0.001, max_delay=0.01, jitter=0)
HELLO = [{"role": "user", "content": "hello"}]
VOTE = {
    "type": "object",
    "properties": {"target": {"type": "integer", "enum": [3, 5]}},
    "required": ["target"],
}


@pytest.fixture
async def server() -> AsyncIterator[StubServer]:
    async with StubServer() as running:
        yield running


def only(kind: str) -> FaultPlan:
    return FaultPlan(rate=1.0, kinds=(kind,))


async def test_schema_constrained_call_and_usage(server: StubServer) -> None:
    model = get_model(f"openai:stub@{server.url}", retry=FAST)
    reply = await model.complete(HELLO, schema=VOTE)
    assert json.loads(reply.text)["target"] in (3, 5)
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
    assert reply.retries == 0


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("500", "server error 500"),
        ("429", "rate limited (429)"),
        ("garbage", "unreadable reply"),
        ("empty", "empty reply"),
        ("hang", "no reply within 0.2s"),
    ],
)
async def test_each_fault_is_retried(server: StubServer, fault: str, reason: str) -> None:
    # only a hang should ever meet the short timeout; a loaded machine must not
    timeout = 0.2 if fault == "hang" else 30
    model = get_model(f"openai:stub@{server.url}", retry=FAST, timeout=timeout)
    server.faults = only(fault)
    with pytest.raises(RetriesExhausted) as info:
        await model.complete(HELLO)
    assert len(info.value.errors) == FAST.retries + 1
    assert all(reason in e for e in info.value.errors)
    server.faults = FaultPlan()
    assert (await model.complete(HELLO)).text


async def test_retry_after_is_honoured(server: StubServer) -> None:
    server.faults = FaultPlan(rate=1.0, kinds=("429",), retry_after="0.3")
    model = get_model(f"openai:stub@{server.url}", retry=RetryPolicy(retries=1, base_delay=0.001))
    with pytest.raises(RetriesExhausted) as info:
        await model.complete(HELLO)
    assert info.value.errors[0].startswith("rate limited (429)")
    assert model.retry.delay(0, retry_after=0.3) >= 0.3


async def test_unreachable_url_gives_one_clear_line() -> None:
    model = get_model("openai:m@http://127.0.0.1:9/v1", retry=RetryPolicy(retries=1, base_delay=0))
    with pytest.raises(RetriesExhausted, match=r"cannot reach http://127\.0\.0\.1:9/v1"):
        await model.complete(HELLO)


async def test_falls_back_to_json_object_when_json_schema_is_refused() -> None:
    seen: list[Mapping[str, Any]] = []

    def record(request: Mapping[str, Any]) -> str:
        seen.append(request["response_format"])
        return json.dumps({"target": 5})

    async with StubServer(answer=record, response_formats=("text", "json_object")) as server:
        model = get_model(f"openai:stub@{server.url}", retry=FAST)
        reply = await model.complete(HELLO, schema=VOTE)
        assert json.loads(reply.text) == {"target": 5}
        assert seen == [{"type": "json_object", "schema": VOTE}]
        assert reply.retries == 0


async def test_schema_goes_into_the_prompt_when_no_form_is_accepted() -> None:
    prompts: list[str] = []

    def record(request: Mapping[str, Any]) -> str:
        prompts.append(request["messages"][0]["content"])
        return '{"target": 3}'

    async with StubServer(answer=record, response_formats=("text",)) as server:
        model = get_model(f"openai:other@{server.url}", retry=FAST)
        reply = await model.complete(HELLO, schema=VOTE)
        assert json.loads(reply.text) == {"target": 3}
        assert '"enum":[3,5]' in prompts[0]
