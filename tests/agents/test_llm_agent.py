"""LLMAgent with the scripted model: prompts, envelope schema, memory, events, failures."""

from __future__ import annotations

import json
from typing import Any

import pytest

from duskfall.agents.kinds import AgentContext
from duskfall.agents.llm_agent import MEMORY_HEADER, LLMAgent, make_llm_agent
from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.variant import Decision
from duskfall.llm import (
    CallOptions,
    Model,
    ProviderUnavailable,
    Request,
    RetryPolicy,
    ScriptedProvider,
    TransientError,
)
from duskfall.llm.memory import RunningMemory
from duskfall.runtime.parsing import Reply
from duskfall.runtime.participant import DecisionRequest

VOTE_SCHEMA = {
    "type": "object",
    "properties": {"type": {"const": "VOTE"}, "target": {"enum": [2, 5]}},
    "required": ["type", "target"],
}
FAST = RetryPolicy(retries=1, base_delay=0.001, jitter=0)


class Legal:
    """A legal view whose only part the agent reads is its schema."""

    def __init__(self, kind: str, value: dict[str, Any]) -> None:
        self.kind = kind
        self.value = value

    def schema(self) -> dict[str, Any]:
        return self.value


def asked(events: list[Event], attempt: int = 0, day: int = 1) -> DecisionRequest:
    return DecisionRequest(
        decision=Decision(3, "VOTING"),
        observation={"day": day, "phase": "VOTING", "secret": "not for prompts"},
        legal=Legal("VOTING", VOTE_SCHEMA),  # type: ignore[arg-type]
        attempt=attempt,
        emit=events.append,
    )


def reply(target: int, think: str = "seat 5 dodged the question") -> str:
    return json.dumps({"reasoning": think, "action": {"type": "VOTE", "target": target}})


async def test_one_call_per_decision_with_envelope_schema_and_persona() -> None:
    provider = ScriptedProvider([reply(5)])
    agent = LLMAgent(Model(provider), seat=3, persona="A grumpy retired detective.")
    events: list[Event] = []
    answer = await agent.decide("RULES", "VIEW", asked(events))
    # the reply comes decoded from the object the model parsed, its text kept for the log
    assert isinstance(answer, Reply) and answer.action == {"type": "VOTE", "target": 5}
    assert answer.think == "seat 5 dodged the question"
    assert answer.raw is not None and json.loads(answer.raw)["action"] == answer.action
    [request] = provider.requests
    assert request.schema is not None
    assert request.schema["properties"]["action"] == VOTE_SCHEMA
    assert request.schema["required"] == ["reasoning", "action"]
    assert list(request.schema["properties"]) == ["reasoning", "action"]
    assert request.messages[0]["role"] == "system"
    assert request.messages[0]["content"].startswith("RULES")
    assert "grumpy retired detective" in request.messages[0]["content"]
    assert request.messages[1] == {"role": "user", "content": "VIEW"}
    assert '"reasoning"' in request.messages[0]["content"]  # the one output contract
    assert request.options["max_tokens"] == 600


async def test_each_call_is_an_admin_llm_event() -> None:
    agent = LLMAgent(Model(ScriptedProvider([reply(2)])), seat=3)
    events: list[Event] = []
    await agent.decide("RULES", "VIEW", asked(events))
    [event] = events
    assert (event.kind, event.visibility, event.source) == ("llm_call", "admin", "llm")
    payload = event.payload
    assert payload["seat"] == 3 and payload["model"] == "scripted"
    assert payload["messages"][1]["content"] == "VIEW"
    assert json.loads(payload["reply"])["action"]["target"] == 2
    assert payload["prompt_tokens"] > 0 and payload["completion_tokens"] > 0
    assert payload["retries"] == 0 and payload["decision"] == "VOTING"
    assert (event.day, event.phase) == (1, "VOTING")
    assert agent.tally.usage.prompt_tokens == payload["prompt_tokens"]


async def test_memory_carries_own_notes_and_stays_bounded() -> None:
    replies = [reply(5, think=f"note number {i} " + "x" * 100) for i in range(30)]
    provider = ScriptedProvider(replies)
    agent = LLMAgent(Model(provider), seat=3, notes=RunningMemory(budget_chars=500))
    for i in range(30):
        await agent.decide("RULES", f"VIEW {i}", asked([], day=i))
    first, last = provider.requests[0], provider.requests[-1]
    assert MEMORY_HEADER not in first.messages[1]["content"]
    user = last.messages[1]["content"]
    assert user.startswith(MEMORY_HEADER) and user.endswith("VIEW 29")
    assert "note number 28" in user and "note number 0 " not in user
    assert "older notes omitted" in user
    sizes = [len(r.messages[1]["content"]) for r in provider.requests]
    assert max(sizes[10:]) - min(sizes[10:]) < 200  # bounded, not growing with the game
    assert "not for prompts" not in user


async def test_a_retry_replaces_the_note_of_its_decision() -> None:
    provider = ScriptedProvider([reply(2, think="first try"), reply(5, think="second try")])
    agent = LLMAgent(Model(provider), seat=3)
    await agent.decide("R", "V", asked([]))
    await agent.decide("R", "V", asked([], attempt=1))
    assert len(agent.notes.notes) == 1
    assert "second try" in agent.notes.render()


async def test_memory_can_be_turned_off() -> None:
    provider = ScriptedProvider([reply(5), reply(5)])
    agent = LLMAgent(Model(provider), notes=RunningMemory(budget_chars=0))
    await agent.decide("R", "V", asked([]))
    await agent.decide("R", "V", asked([]))
    assert provider.requests[1].messages[1]["content"] == "V"


async def test_failed_call_is_recorded_then_raised() -> None:
    provider = ScriptedProvider([TransientError("HTTP 503")] * 2)
    agent = LLMAgent(Model(provider, retry=FAST), seat=1)
    events: list[Event] = []
    with pytest.raises(Exception, match="gave up after 2 failed attempts"):
        await agent.decide("R", "V", asked(events))
    [event] = events
    assert event.payload["error"].startswith("scripted: gave up")
    assert event.payload["retries"] == 2 and event.payload["reply"] is None


async def test_a_refusing_provider_is_not_asked_again() -> None:
    provider = ScriptedProvider([ProviderUnavailable("bad key"), reply(5)])
    agent = LLMAgent(Model(provider, retry=FAST), seat=1)
    for _ in range(2):
        with pytest.raises(ProviderUnavailable):
            await agent.decide("R", "V", asked([]))
    assert len(provider.requests) == 1


async def test_free_text_decisions_still_get_the_envelope() -> None:
    provider = ScriptedProvider(lambda request: reply(2))
    agent = LLMAgent(Model(provider))
    speech = Legal("SPEECH", {})
    await agent.decide(
        "R",
        "V",
        DecisionRequest(decision=Decision(0, "SPEECH"), observation={}, legal=speech),  # type: ignore[arg-type]
    )
    schema = provider.requests[0].schema
    assert schema is not None and schema["properties"]["action"] == {}


def _context(seat: int, options: dict[str, Any], arg: str = "scripted") -> AgentContext:
    from duskfall.core.registry import get_variant

    return AgentContext(get_variant("sports-mafia"), seat, 0, arg, options)


def test_factory_reads_options() -> None:
    options = {
        "personas": ["calm", "loud", "sly"],
        "memory_chars": 0,
        "max_tokens": 123,
        "temperature": 0.2,
        "timeout": 7,
        "retries": 2,
    }
    agent = make_llm_agent(_context(1, options))
    assert agent.persona == "loud"
    assert agent.notes.budget_chars == 0
    assert agent.options == CallOptions(max_tokens=123, temperature=0.2)
    assert agent.model.timeout == 7 and agent.model.retry.retries == 2
    assert agent.describe() == "llm:scripted"
    assert make_llm_agent(_context(2, {"personas": {"2": "shy"}})).persona == "shy"
    assert make_llm_agent(_context(4, {"persona": "everyone"})).persona == "everyone"
    assert make_llm_agent(_context(4, {})).persona is None


def test_bad_options_are_one_config_error() -> None:
    for options, key in (
        ({"max_tokens": "lots"}, "max_tokens"),
        ({"temperature": -1}, "temperature"),
        ({"memory_chars": -5}, "memory_chars"),
    ):
        with pytest.raises(ConfigError, match=f"invalid llm agent option {key}:"):
            make_llm_agent(_context(1, options))
    for retired in ("history", "think_chars", "says_chars"):
        with pytest.raises(ConfigError, match=f"option '{retired}' was replaced by"):
            make_llm_agent(_context(1, {retired: "x"}))
    with pytest.raises(ConfigError, match="invalid llm agent option memory:"):
        make_llm_agent(_context(1, {"memory": "forever"}))


def test_request_seeded_answers_are_deterministic() -> None:
    request = Request([{"role": "user", "content": "x"}], VOTE_SCHEMA)
    a = ScriptedProvider()._schema_answer(request)
    assert a == ScriptedProvider()._schema_answer(request)
