"""A local server as a provider: its queue never fails a call, every call and timeout is
recorded, cached tokens in every common form, seeds, the output form, a folded system prompt."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from duskfall.core.events import Event
from duskfall.llm import CallOptions, CallRecord, Model, RetryPolicy, ScriptedProvider, get_model
from duskfall.llm.calls import call_report
from duskfall.llm.endpoints import endpoint_state, forget_endpoints
from duskfall.llm.providers.openai_compat import cached_tokens
from duskfall.llm.types import Request
from duskfall.session import GameSetup, run_game
from duskfall.testing.stub_server import StubServer

SCHEMA = {"type": "object", "properties": {"pick": {"enum": [1, 2]}}, "required": ["pick"]}
PATIENT = RetryPolicy(retries=4, base_delay=0.01, jitter=0)


@pytest.fixture(autouse=True)
def fresh_endpoints() -> Iterator[None]:
    forget_endpoints()
    yield
    forget_endpoints()


def ask(n: int) -> list[list[dict[str, str]]]:
    return [[{"role": "user", "content": f"question {i}"}] for i in range(n)]


async def calls_at_once(model: Model, n: int) -> list[Event]:
    events: list[Event] = []
    record = CallRecord(events.append, seat=0)
    await asyncio.gather(*(model.complete(m, SCHEMA, record=record) for m in ask(n)))
    return events


async def test_a_serial_server_that_says_so_is_sent_one_call_at_a_time() -> None:
    """llama-cpp-python's server (``owned_by: me``) queues: duskfall queues instead, so of 8
    calls of 0.3 s each with a 1.5 s timeout, the last ones wait longer than the timeout in
    duskfall's queue and still answer, none queued at the server."""
    async with StubServer(latency=0.3, serial=True, owned_by="me") as server:
        model = get_model(f"openai:stub@{server.url}", timeout=1.5, retry=PATIENT)
        events = await calls_at_once(model, 8)
    report = call_report(events)
    assert report.calls == 8 and report.failed_calls == 0 and report.queued_timeouts == 0
    assert server.max_in_flight == 1 and server.stats["dropped"] == 0
    assert endpoint_state(model.provider.endpoint).limit(16) == 1
    assert max(e.payload["queue_s"] for e in events) > 1.5  # waited past the timeout, answered


async def test_a_llama_cpp_server_gives_its_slots() -> None:
    async with StubServer(slots=2) as server:
        model = get_model(f"openai:stub@{server.url}")
        await model.complete(ask(1)[0])
    assert endpoint_state(model.provider.endpoint).limit(16) == 2


async def test_a_serial_server_that_does_not_say_so_is_learnt_from_its_timeouts() -> None:
    """Timeouts with other calls in flight cut the endpoint's limit and are re-sent without
    counting as failures; every one is recorded."""
    async with StubServer(latency=0.2, serial=True, owned_by="someone") as server:
        model = get_model(f"openai:stub@{server.url}", timeout=0.7, retry=PATIENT)
        events = await calls_at_once(model, 8)
    report = call_report(events)
    assert report.calls == 8 and report.failed_calls == 0
    assert report.queued_timeouts >= 1 and report.call_timeouts >= report.queued_timeouts
    assert report.retry_reasons["queued"] == report.queued_timeouts
    assert endpoint_state(model.provider.endpoint).limit(16) < 8
    assert server.stats["dropped"] >= 1  # abandoned calls were not computed


async def test_a_call_its_caller_abandons_is_recorded() -> None:
    async def never(request: Request) -> str:
        await asyncio.Event().wait()
        return ""

    events: list[Event] = []
    model = Model(ScriptedProvider(never))
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await model.complete(ask(1)[0], record=CallRecord(events.append, seat=3))
    [event] = events
    assert event.payload["seat"] == 3 and event.payload["error"].startswith("cancelled")
    assert call_report(events).cancelled_calls == 1


@pytest.mark.parametrize("form", ["openai", "deepseek", "llama.cpp", "llama.cpp-old"])
async def test_cached_tokens_are_read_in_every_common_form(form: str) -> None:
    async with StubServer(cache_form=form, prompt_cache=True) as server:
        model = get_model(f"openai:stub@{server.url}")
        history = [{"role": "system", "content": "rules " * 200}]
        await model.complete([*history, {"role": "user", "content": "a"}])
        second = await model.complete([*history, {"role": "user", "content": "b"}])
    assert 0 < second.usage.cached_tokens < second.usage.prompt_tokens


def test_cached_tokens_of_plain_mappings() -> None:
    assert cached_tokens({"usage": {"prompt_tokens_details": {"cached_tokens": 7}}}) == 7
    assert cached_tokens({"usage": {"prompt_cache_hit_tokens": 5}}) == 5
    assert cached_tokens({"timings": {"cache_n": 9}, "usage": {}}) == 9
    assert cached_tokens({"tokens_cached": 3}) == 3
    assert cached_tokens({"usage": {"prompt_tokens": 10}}) == 0


async def test_the_accepted_output_form_and_the_seed_are_recorded() -> None:
    events: list[Event] = []
    async with StubServer(response_formats=("text", "json_object")) as server:
        model = get_model(f"openai:stub@{server.url}")
        await model.complete(
            ask(1)[0],
            SCHEMA,
            options=CallOptions(seed=11),
            record=CallRecord(events.append, seat=0),
        )
    [event] = events
    assert event.payload["output_form"] == "json_object"
    assert event.payload["sampling"] == {"seed": 11}
    assert server.requests[-1]["seed"] == 11


async def test_a_server_that_refuses_a_seed_is_asked_without_one() -> None:
    async with StubServer(refuse_seed=True) as server:
        model = get_model(f"openai:stub@{server.url}")
        first = await model.complete(ask(1)[0], options=CallOptions(seed=5))
        await model.complete(ask(1)[0], options=CallOptions(seed=6))
    assert first.text and "seed" not in server.requests[-1]
    assert len(server.requests) == 2  # the refused request is not kept; none was re-refused


async def test_fold_system_sends_no_system_turn() -> None:
    async with StubServer() as server:
        model = get_model(f"openai:stub@{server.url}", fold_system=True)
        await model.complete(
            [{"role": "system", "content": "RULES"}, {"role": "user", "content": "go"}]
        )
    sent = server.requests[-1]["messages"]
    assert [m["role"] for m in sent] == ["user"] and sent[0]["content"] == "RULES\n\ngo"


async def seeds_of_a_game(url: str, seed: int) -> list[int]:
    game = await run_game(
        GameSetup(
            variant="werewolf",
            config={"preset": "werewolf-6"},
            seed=seed,
            agents=f"0=llm:openai:stub@{url},1=llm:openai:stub@{url},default=heuristic",
            write_log=False,
        )
    )
    return [e.payload["sampling"]["seed"] for e in game.record.events if e.kind == "llm_call"]


async def test_each_call_gets_a_seed_derived_from_the_game_seed(tmp_path: object) -> None:
    async with StubServer() as server:
        first = await seeds_of_a_game(server.url, 41)
        again = await seeds_of_a_game(server.url, 41)
        other = await seeds_of_a_game(server.url, 42)
    assert first and first == again
    assert len(set(first)) == len(first)  # a seed per call
    assert not set(first) & set(other)
    assert [r["seed"] for r in list(server.requests)[: len(first)]] == first


async def test_llama_sampler_settings_reach_the_server_and_the_log() -> None:
    """``repeat_penalty`` (and top_k, top_p, min_p) pin a server's sampler: llama-cpp-python's
    server penalises repeats by default where its library does not."""
    pinned = {"repeat_penalty": 1.0, "top_k": 40, "top_p": 0.95, "min_p": 0.05}
    async with StubServer() as server:
        game = await run_game(
            GameSetup(
                variant="werewolf",
                config={"preset": "werewolf-6"},
                seed=3,
                agents=f"0=llm:openai:stub@{server.url},default=heuristic",
                agent_options={**pinned, "temperature": 0.7},
                write_log=False,
            )
        )
    calls = [e.payload["sampling"] for e in game.record.events if e.kind == "llm_call"]
    assert calls and all(c.items() >= {**pinned, "temperature": 0.7}.items() for c in calls)
    assert all(r.items() >= pinned.items() for r in server.requests)


@pytest.mark.parametrize(
    "option", [{"top_p": 1.5}, {"min_p": -0.1}, {"top_k": -1}, {"repeat_penalty": 0}]
)
def test_a_bad_sampler_setting_is_one_clear_error(option: dict[str, float]) -> None:
    from duskfall.agents.kinds import check_agent_options
    from duskfall.core.errors import ConfigError

    with pytest.raises(ConfigError, match=next(iter(option))):
        check_agent_options(option)
    with pytest.raises(ConfigError, match=next(iter(option))):
        CallOptions(**option)


def test_the_cognitive_agent_samples_with_the_pinned_settings() -> None:
    from duskfall.agents.cognitive import make_cognitive_agent
    from duskfall.agents.kinds import AgentContext
    from duskfall.core.registry import get_variant

    ctx = AgentContext(
        seat=0,
        seed=1,
        variant=get_variant("werewolf"),
        arg="scripted",
        options={"repeat_penalty": 1.0, "top_k": 20, "temperature": 0.5},
    )
    agent = make_cognitive_agent(ctx)
    assert agent.call_options.to_dict() == {"temperature": 0.5, "top_k": 20, "repeat_penalty": 1.0}
