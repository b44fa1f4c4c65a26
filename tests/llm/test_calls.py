"""The recorded-call path: a Model records each call it is given a CallRecord for; typed options."""

from __future__ import annotations

import asyncio

import pytest

from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.usage import Tally, Usage, fold_usage
from duskfall.llm import (
    CallOptions,
    CallRecord,
    CallTimeout,
    LLMError,
    Model,
    Request,
    RetryPolicy,
    ScriptedProvider,
    TransientError,
)
from duskfall.llm.calls import call_report, game_usage, usage_by_seat
from duskfall.llm.options import ModelOptions, read_options

FAST = RetryPolicy(retries=1, base_delay=0.001, jitter=0)
NO_RETRY = RetryPolicy(retries=0)
HELLO = [{"role": "user", "content": "hello"}]


async def test_a_reply_is_recorded_with_its_labels_after_the_standard_fields() -> None:
    events: list[Event] = []
    tally = Tally()
    fields = {"decision": "VOTE", "attempt": 0}
    labels = CallRecord(events.append, seat=2, day=3, phase="VOTE", fields=fields, tally=tally)
    reply = await Model(ScriptedProvider(["hi there"])).complete(HELLO, record=labels)
    [event] = events
    assert (event.kind, event.visibility, event.source) == ("llm_call", "admin", "llm")
    assert (event.day, event.phase) == (3, "VOTE")
    assert list(event.payload) == [
        "seat",
        "model",
        "messages",
        "reply",
        "prompt_tokens",
        "cached_tokens",
        "cache_write_tokens",
        "completion_tokens",
        "cost_usd",
        "latency_s",
        "retries",
        "retry_reasons",
        "queue_s",
        "decision",
        "attempt",
    ]
    assert event.payload["reply"] == "hi there" and event.payload["messages"] == HELLO
    assert tally.calls == 1 and tally.usage == reply.usage


async def test_a_failed_call_is_recorded_with_its_retries_then_raised() -> None:
    events: list[Event] = []
    tally = Tally()
    model = Model(ScriptedProvider([TransientError("HTTP 503")] * 2), retry=FAST)
    with pytest.raises(LLMError, match="gave up after 2 failed attempts"):
        await model.complete(HELLO, record=CallRecord(events.append, source="gm", tally=tally))
    [event] = events
    payload = event.payload
    assert event.source == "gm" and payload["reply"] is None
    assert payload["retries"] == 2 and payload["retry_reasons"] == ["HTTP 503", "HTTP 503"]
    assert payload["error"].startswith("scripted: gave up") and list(payload)[-1] == "error"
    assert tally.calls == 1


async def test_url_credentials_never_reach_the_record() -> None:
    events: list[Event] = []
    failure = TransientError("cannot reach https://me:sk-123@example.org/v1")
    spec = "openai:m@https://me:sk-123@example.org"
    model = Model(ScriptedProvider([failure]), spec=spec, retry=NO_RETRY)
    with pytest.raises(LLMError):
        await model.complete(HELLO, record=CallRecord(events.append))
    assert "sk-123" not in str(events[0].payload)
    assert events[0].payload["model"] == "openai:m@https://example.org"


async def test_without_a_record_nothing_is_emitted() -> None:
    reply = await Model(ScriptedProvider(["x"])).complete(HELLO)
    assert reply.text == "x"


async def test_a_call_past_its_limit_is_abandoned_and_recorded() -> None:
    async def hang(request: Request) -> str:
        await asyncio.Event().wait()
        return "late"

    events: list[Event] = []
    with pytest.raises(CallTimeout, match=r"no reply within 0\.05s"):
        await Model(ScriptedProvider(hang)).complete(
            HELLO, limit=0.05, record=CallRecord(events.append)
        )
    assert events[0].payload["error"] == "no reply within 0.05s"


async def test_options_reach_the_provider_and_only_those_set() -> None:
    provider = ScriptedProvider(["a", "b"])
    model = Model(provider)
    await model.complete(HELLO, options=CallOptions(max_tokens=7, seed=3))
    await model.complete(HELLO)
    assert [r.options for r in provider.requests] == [{"max_tokens": 7, "seed": 3}, {}]


def test_bad_options_are_one_config_error() -> None:
    with pytest.raises(ConfigError, match="max_tokens must be at least 1"):
        CallOptions(max_tokens=0)
    with pytest.raises(ConfigError, match="temperature cannot be negative"):
        CallOptions(temperature=-1)
    with pytest.raises(ConfigError) as info:
        read_options(ModelOptions, {"timeout": "soon", "retries": -1, "persona": "x"}, "llm agent")
    message = str(info.value)
    assert message.startswith("invalid llm agent option timeout:") and "retries:" in message
    assert "\n" not in message


def test_model_options_build_the_model() -> None:
    options = read_options(ModelOptions, {"timeout": 7, "retries": 2, "concurrency": 3}, "x")
    model = options.build_model("scripted", format_retries=0)
    assert model.timeout == 7 and model.concurrency == 3
    assert model.retry.retries == 2 and model.retry.format_retries == 0
    assert ModelOptions().retry_policy() is None


def _call(seat: int | None, prompt: int, completion: int, **payload: object) -> Event:
    fields = {"prompt_tokens": prompt, "completion_tokens": completion}
    return Event("llm_call", {"seat": seat, **fields, "cost_usd": 0.5, **payload}, "admin")


def test_usage_is_folded_once_for_every_reader() -> None:
    events = [
        _call(0, 10, 2),
        Event("fallback", {"seat": 1}, "admin", source="runtime"),
        _call(None, 5, 1, retry_reasons=["server error 500: x"], error="boom"),
        _call(0, 1, 1, prompt_tokens=None),
    ]
    fold = fold_usage(events)
    assert fold.total.calls == 3 and fold.total.usage == Usage(15, 4, 1.5)
    assert fold.by_seat[0].usage == Usage(10, 3, 1.0) and fold.by_seat[None].calls == 1
    assert usage_by_seat(events) == {0: Usage(10, 3, 1.0), None: Usage(5, 1, 0.5)}
    assert game_usage(events) == (Usage(15, 4, 1.5), 3)
    report = call_report(events)
    assert (report.calls, report.usage, report.fallbacks) == (3, Usage(15, 4, 1.5), 1)
    assert report.failed_calls == 1 and report.retry_reasons == {"server error 500": 1}
    assert report.by_seat == usage_by_seat(events)
