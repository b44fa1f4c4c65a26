"""Model over the scripted provider: retries, backoff, hints, timeouts, limits, usage and cost."""

from __future__ import annotations

import asyncio
import json

import pytest

from duskfall.llm import (
    Completion,
    LLMError,
    Model,
    ProviderUnavailable,
    RateLimited,
    Request,
    RetriesExhausted,
    RetryPolicy,
    ScriptedProvider,
    ScriptExhausted,
    TransientError,
    Usage,
    register_price,
)

FAST = RetryPolicy(retries=3, base_delay=0.001, max_delay=0.01, jitter=0)
HELLO = [{"role": "user", "content": "hello"}]
VOTE = {
    "type": "object",
    "properties": {"target": {"type": "integer", "enum": [1, 2]}},
    "required": ["target"],
}


def model(replies, **kwargs) -> Model:
    kwargs.setdefault("retry", FAST)
    return Model(ScriptedProvider(replies), **kwargs)


async def test_replies_in_order_and_usage_adds_up() -> None:
    m = model(["one", Completion("two", Usage(10, 2))])
    first = await m.complete(HELLO)
    second = await m.complete(HELLO)
    assert (first.text, second.text) == ("one", "two")
    assert second.usage == Usage(10, 2)
    assert m.tally.usage.prompt_tokens == first.usage.prompt_tokens + 10
    assert m.tally.calls == 2


async def test_retries_transient_failures_and_reports_them() -> None:
    m = model([RateLimited("slow down", retry_after=0), TransientError("HTTP 500"), "ok"])
    reply = await m.complete(HELLO)
    assert reply.text == "ok"
    assert reply.retries == 2
    assert reply.errors == ("slow down", "HTTP 500")


async def test_empty_reply_is_retried_and_its_tokens_still_count() -> None:
    m = model([Completion("", Usage(5, 0)), Completion("fine", Usage(5, 1))])
    reply = await m.complete(HELLO)
    assert reply.text == "fine"
    assert reply.usage == Usage(10, 1)
    assert reply.errors == ("empty reply",)


async def test_gives_up_after_the_retry_budget() -> None:
    m = model([TransientError("boom")] * 10)
    with pytest.raises(RetriesExhausted) as info:
        await m.complete(HELLO)
    assert len(info.value.errors) == FAST.retries + 1
    assert "gave up after 4 failed attempts" in str(info.value)


async def test_permanent_errors_are_not_retried() -> None:
    provider = ScriptedProvider([ProviderUnavailable("bad key"), "never"])
    with pytest.raises(ProviderUnavailable):
        await Model(provider, retry=FAST).complete(HELLO)
    assert len(provider.requests) == 1


async def test_script_running_dry_is_a_clear_error() -> None:
    m = model(["only"])
    await m.complete(HELLO)
    with pytest.raises(ScriptExhausted, match="ran out of replies after 1 calls"):
        await m.complete(HELLO)


async def test_unexpected_provider_exception_becomes_llm_error() -> None:
    def broken(request: Request) -> str:
        raise KeyError("oops")

    with pytest.raises(LLMError, match="KeyError"):
        await model(broken).complete(HELLO)


async def test_timeout_is_retried() -> None:
    never = asyncio.Event()
    calls = []

    async def slow_then_fast(request: Request) -> str:
        calls.append(1)
        if len(calls) == 1:
            await never.wait()
        return "done"

    reply = await model(slow_then_fast, timeout=0.05).complete(HELLO)
    assert reply.text == "done"
    assert reply.errors == ("no reply within 0.05s",)


async def test_deadline_stops_retrying() -> None:
    slow = RetryPolicy(retries=5, base_delay=10, jitter=0)
    with pytest.raises(RetriesExhausted):
        await model([TransientError("x")] * 6, retry=slow).complete(HELLO, deadline=1)


async def test_schema_reply_is_normalised_and_invalid_reply_gets_a_hint() -> None:
    provider = ScriptedProvider(['I pick ```json\n{"target": 3}\n```', 'sure: {"target": 2} ok'])
    reply = await Model(provider, retry=FAST).complete(HELLO, schema=VOTE)
    assert json.loads(reply.text) == {"target": 2}
    assert reply.retries == 1 and reply.errors[0].startswith("invalid reply")
    hint = provider.requests[1].messages[-1]["content"]
    assert "is not one of 1, 2" in hint
    assert provider.requests[1].messages[-2] == {
        "role": "assistant",
        "content": 'I pick ```json\n{"target": 3}\n```',
    }


async def test_invalid_reply_is_returned_after_the_format_retries() -> None:
    reply = await model(["no json", "still none"]).complete(HELLO, schema=VOTE)
    assert reply.text == "still none"  # the handler decodes it and re-asks with its own hint


async def test_schema_goes_into_the_prompt_when_the_provider_cannot_constrain() -> None:
    provider = ScriptedProvider(['{"target": 1}'], supports_schema=False)
    await Model(provider).complete([{"role": "system", "content": "rules"}, *HELLO], schema=VOTE)
    system = provider.requests[0].messages[0]["content"]
    assert system.startswith("rules") and '"enum":[1,2]' in system
    assert provider.requests[0].schema == VOTE


async def test_concurrency_limit_is_respected() -> None:
    gate = asyncio.Event()
    in_flight, peak = 0, 0

    async def track(request: Request) -> str:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await gate.wait()
        in_flight -= 1
        return "x"

    m = model(track, concurrency=2)
    tasks = [asyncio.create_task(m.complete(HELLO)) for _ in range(5)]
    while in_flight < 2:
        await asyncio.sleep(0)
    for _ in range(10):
        await asyncio.sleep(0)
    assert in_flight == 2
    gate.set()
    await asyncio.gather(*tasks)
    assert peak == 2


async def test_cost_comes_from_the_price_table() -> None:
    register_price("scripted:priced-model", 1.0, 2.0)
    provider = ScriptedProvider([Completion("x", Usage(1_000_000, 500_000))], model="priced-model")
    reply = await Model(provider).complete(HELLO)
    assert reply.usage.cost_usd == pytest.approx(2.0)


async def test_bad_messages_are_refused_clearly() -> None:
    m = model(["x"])
    with pytest.raises(ValueError, match="at least one message"):
        await m.complete([])
    with pytest.raises(ValueError, match="message 0 needs a role"):
        await m.complete([{"role": "god", "content": "x"}])  # type: ignore[list-item]


def test_backoff_grows_honours_retry_after_and_is_capped() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=5, jitter=0)
    assert [policy.delay(n) for n in range(5)] == [0.5, 1.0, 2.0, 4.0, 5]
    assert policy.delay(0, retry_after=3) == 3
    assert policy.delay(0, retry_after=60) == 5
    with pytest.raises(ValueError):
        RetryPolicy(retries=-1)


async def test_usage_sums() -> None:
    assert sum([Usage(1, 2, 0.5), Usage(3, 4, 0.25)], Usage()) == Usage(4, 6, 0.75)
    assert sum([Usage(1, 1)]) == Usage(1, 1)
    assert Usage(2, 3).total_tokens == 5
