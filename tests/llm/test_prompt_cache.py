"""Cached prompt tokens: read from each provider's usage, summed, priced; Anthropic's
cache breakpoints. The HTTP providers run against the loopback stub server."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from duskfall.core.events import Event
from duskfall.core.usage import Usage, fold_usage
from duskfall.llm import CallRecord, Model, Price, RetryPolicy, Secret, get_model, register_price
from duskfall.llm.pricing import priced
from duskfall.llm.providers.anthropic_api import EPHEMERAL, AnthropicProvider, read_usage
from duskfall.llm.types import Message, approx_tokens
from duskfall.testing.stub_server import StubServer

FAST = RetryPolicy(retries=0)
SYSTEM = "You play werewolf. " * 40
VOTE = {
    "type": "object",
    "properties": {"target": {"type": "integer", "enum": [3, 5]}},
    "required": ["target"],
}


def conversation(turns: int) -> list[Message]:
    """A seat's conversation after ``turns`` calls: fixed system prompt, then the events of
    each call and the seat's answers."""
    messages: list[Message] = [{"role": "system", "content": SYSTEM}]
    for turn in range(turns):
        if turn:
            messages.append({"role": "assistant", "content": '{"target": 3}'})
        messages.append({"role": "user", "content": f"Day {turn + 1}: seat 4 accuses seat 3."})
    return messages


def tokens(messages: list[Message]) -> int:
    return sum(approx_tokens(m["content"]) for m in messages)


def test_usage_adds_and_reads_the_cache_fields() -> None:
    total = Usage(100, 10, 0.5, 60, 30) + Usage(50, 5, 0.25, 40)
    assert total == Usage(150, 15, 0.75, 100, 30)
    assert total.uncached_tokens == 50
    payload = total.to_dict()
    assert (payload["cached_tokens"], payload["cache_write_tokens"]) == (100, 30)
    assert Usage.from_payload(payload) == total
    assert Usage.from_payload({"prompt_tokens": 7, "cached_tokens": None}) == Usage(7)


def test_cached_input_has_its_own_price() -> None:
    price = Price(2.0, 8.0, cached_input_per_mtok=0.5, cache_write_per_mtok=2.5)
    # 1M fresh, 2M read, 1M written, 1M out
    assert price.cost(Usage(4_000_000, 1_000_000, 0.0, 2_000_000, 1_000_000)) == pytest.approx(
        2.0 + 1.0 + 2.5 + 8.0
    )
    assert Price(2.0, 8.0).cost(Usage(1_000_000, 0, 0.0, 1_000_000)) == 2.0  # defaults to input
    register_price("openai:house-cached", 1.0, 2.0, 0.25)
    cost = priced(Usage(2_000_000, 0, 0.0, 1_000_000), "openai", "house-cached").cost_usd
    assert cost == pytest.approx(1.25)
    with pytest.raises(ValueError, match="negative"):
        register_price("openai:bad", 1.0, 2.0, -0.1)


async def test_openai_cached_tokens_are_read_recorded_and_summed() -> None:
    events: list[Event] = []
    async with StubServer(prompt_cache=True) as server:
        model = get_model(f"openai:stub@{server.url}", retry=FAST)
        first = await model.complete(conversation(1), record=CallRecord(events.append, seat=2))
        second = await model.complete(conversation(2), record=CallRecord(events.append, seat=2))
        other = await model.complete(conversation(1), record=CallRecord(events.append, seat=5))
    assert first.usage.cached_tokens == 0
    assert second.usage.cached_tokens == tokens(conversation(1))  # the whole earlier call
    assert second.usage.prompt_tokens == tokens(conversation(2))  # the total, cached included
    assert other.usage.cached_tokens == tokens(conversation(1))
    earlier = tokens(conversation(1))
    assert [e.payload["cached_tokens"] for e in events] == [0, earlier, earlier]
    fold = fold_usage(events)
    assert fold.by_seat[2].usage.cached_tokens == tokens(conversation(1))
    assert fold.total.usage.cached_tokens == 2 * tokens(conversation(1))
    assert model.tally.usage.cached_tokens == 2 * tokens(conversation(1))


async def test_openai_without_cache_details_counts_none() -> None:
    async with StubServer() as server:
        reply = await get_model(f"openai:stub@{server.url}", retry=FAST).complete(conversation(2))
    assert reply.usage.cached_tokens == 0 and reply.usage.prompt_tokens > 0


def anthropic_model(server: StubServer, *, prompt_cache: bool = True) -> Model:
    provider = AnthropicProvider(
        "claude-stub",
        api_key=Secret("sk-ant-test"),
        base_url=server.root,
        prompt_cache=prompt_cache,
    )
    return Model(provider, retry=FAST)


def breakpoints(request: Mapping[str, Any]) -> list[str]:
    """Where a request's cache breakpoints are: ``system`` or ``ROLE:TEXT``."""
    marks = ["system" for b in request.get("system") or [] if "cache_control" in b]
    for message in request["messages"]:
        content = message["content"]
        blocks = content if isinstance(content, list) else []
        marks += [f"{message['role']}:{b['text']}" for b in blocks if "cache_control" in b]
    return marks


def answer_3(request: Mapping[str, Any]) -> str:
    return json.dumps({"target": 3})


async def test_anthropic_marks_system_prefix_and_new_turn_and_keeps_the_schema_after() -> None:
    async with StubServer(prompt_cache=True, answer=answer_3) as server:
        model = anthropic_model(server)
        reply = await model.complete(conversation(3), schema=VOTE)
    assert json.loads(reply.text) == {"target": 3}
    [request] = server.requests
    assert breakpoints(request) == [
        "system",
        'assistant:{"target": 3}',
        "user:Day 3: seat 4 accuses seat 3.",
    ]
    assert all(b["cache_control"] == EPHEMERAL for b in request["system"])
    last = request["messages"][-1]["content"]
    assert (
        "cache_control" not in last[-1]
        and json.dumps(VOTE, separators=(",", ":")) in (last[-1]["text"])
    )
    # one tool whatever the schema: a tool that changed would invalidate the whole cache
    assert request["tools"] == [
        {"name": "answer", "description": "Give your answer.", "input_schema": {"type": "object"}}
    ]


async def test_anthropic_reads_what_the_previous_call_wrote() -> None:
    async with StubServer(prompt_cache=True, answer=answer_3) as server:
        model = anthropic_model(server)
        first = await model.complete(conversation(1), schema=VOTE)
        second = await model.complete(conversation(2), schema=VOTE)
    assert first.usage.cached_tokens == 0 and first.usage.cache_write_tokens > 0
    # the first call wrote tools, system and its turn (not its schema note): all read now
    assert second.usage.cached_tokens == first.usage.cache_write_tokens > tokens(conversation(1))
    assert second.usage.cache_write_tokens > 0
    for usage in (first.usage, second.usage):  # input_tokens leaves out cache reads and writes
        assert usage.prompt_tokens > usage.cached_tokens + usage.cache_write_tokens


async def test_anthropic_without_prompt_cache_sends_the_schema_as_the_tool() -> None:
    async with StubServer(prompt_cache=True, answer=answer_3) as server:
        model = anthropic_model(server, prompt_cache=False)
        first = await model.complete(conversation(1), schema=VOTE)
        second = await model.complete(conversation(2), schema=VOTE)
    request = server.requests[-1]
    assert breakpoints(request) == [] and request["system"] == SYSTEM
    assert request["tools"][0]["input_schema"] == VOTE
    assert first.usage.cached_tokens == second.usage.cached_tokens == 0


def test_anthropic_usage_totals_the_prompt() -> None:
    class Reported:
        input_tokens = 20
        output_tokens = 7
        cache_read_input_tokens = 1000
        cache_creation_input_tokens = 300

    assert read_usage(Reported()) == Usage(1320, 7, 0.0, 1000, 300)

    class Old:  # a reply without the cache fields
        input_tokens = 20
        output_tokens = 7

    assert read_usage(Old()) == Usage(20, 7)
