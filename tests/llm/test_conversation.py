"""A seat's conversation: fixed system prompt, each call extends the last, complete history."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.agents.llm_agent import LLMAgent
from duskfall.core.prompting import DecisionPrompt, Entry, Line, Period
from duskfall.core.variant import Decision
from duskfall.llm import Model, ScriptedProvider
from duskfall.llm.conversation import (
    NOTHING_NEW,
    RESTARTED,
    SeatConversation,
    stateless_messages,
)
from duskfall.llm.provider import Capabilities
from duskfall.runtime.participant import DecisionRequest


class VoteLegal:
    """A legal view with no schema of its own: the envelope's action is open."""

    kind = "VOTE"

    def schema(self) -> dict[str, Any]:
        return {}


class TinyKit:
    """A prompt kit over entries ``{"kind", "day", "phase", "text", "digest"}``."""

    markers = frozenset({"night_start"})

    def system(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        return "RULES" + (" with hints" if coaching else "")

    def period(self, entry: Entry) -> Period:
        night = entry["phase"] == "night"
        order = entry["day"] * 2 + (0 if night else 1)
        return Period(order, entry["day"], f"{'Night' if night else 'Day'} {entry['day']}")

    def line(self, entry: Entry, obs: Mapping[str, Any]) -> Line | None:
        if entry["kind"] == "night_start":
            return None
        return Line(entry["text"], entry.get("digest"))

    def situation(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        return f"You are seat {obs['seat']}."

    def decision(self, obs: Mapping[str, Any], legal: Any, *, coaching: bool) -> DecisionPrompt:
        return DecisionPrompt("Vote for a seat.", {"type": "VOTE", "target": "<seat>"})

    def entries(self, obs: Mapping[str, Any]) -> Sequence[Entry] | None:
        return None


def said(day: int, phase: str, text: str, digest: str | None = None) -> dict[str, Any]:
    return {"kind": "speech", "day": day, "phase": phase, "text": text, "digest": digest}


OBS = {"seat": 2}
GAME = [
    {"kind": "night_start", "day": 1, "phase": "night"},
    said(1, "night", "wolves attack seat 4"),
    said(1, "day", "seat 4 died", "seat 4 died (digest)"),
    said(1, "day", "seat 1 says seat 3 is a wolf, at length", "seat 1 accuses seat 3"),
    {"kind": "night_start", "day": 2, "phase": "night"},
    said(2, "night", "nobody died"),
    said(2, "day", "seat 3 votes seat 1"),
    said(3, "day", "seat 5 claims seer", "seat 5 claims seer"),
]


def conversation(budget: int = 100_000) -> SeatConversation:
    kit = TinyKit()
    return SeatConversation(kit, lambda obs: kit.system(obs, coaching=False), budget_tokens=budget)


def test_each_call_extends_the_previous_one_with_only_what_is_new() -> None:
    seat = conversation()
    first = seat.messages(OBS, None, GAME[:3])
    assert first[0] == {"role": "system", "content": "RULES"}
    assert "[Night 1]" in first[1]["content"] and "seat 4 died" in first[1]["content"]
    seat.answered("answer one")
    second = seat.messages(OBS, None, GAME[:6])
    assert second[:2] == first and second[2] == {"role": "assistant", "content": "answer one"}
    new = second[3]["content"]
    assert "[Day 1 (continued)]" in new and "[Night 2]" in new and "nobody died" in new
    assert "wolves attack seat 4" not in new  # already in the conversation
    seat.answered("answer two")
    third = seat.messages(OBS, None, GAME[:6])
    assert third[:4] == second and third[5]["content"].startswith(NOTHING_NEW)


def test_a_refused_answer_is_followed_by_its_reason() -> None:
    seat = conversation()
    seat.messages(OBS, None, GAME[:3])
    seat.answered("bad answer")
    retry = seat.messages(OBS, None, GAME[:3], hint="target 9 is not legal", retry=True)
    assert retry[-2] == {"role": "assistant", "content": "bad answer"}
    assert "target 9 is not legal" in retry[-1]["content"]
    seat.answered("good answer")
    assert seat.turns[-1]["content"] == "good answer"


def test_an_unanswered_call_leaves_the_conversation_as_it_was() -> None:
    seat = conversation()
    first = seat.messages(OBS, None, GAME[:3])
    again = seat.messages(OBS, None, GAME[:3])  # the call failed: same turn again
    assert again == first and seat.turns == []


def test_an_outgrown_conversation_restarts_from_a_digest_never_cut() -> None:
    seat = conversation(budget=60)
    for upto in (2, 4, 6, 8):
        messages = seat.messages(OBS, None, GAME[:upto])
        seat.answered("x" * 120)
    assert seat.restarts >= 1
    text = messages[1]["content"]
    assert RESTARTED in text and len(messages) == 2
    assert "[Day 1 (digest)]" in text and "seat 1 accuses seat 3" in text
    assert "seat 4 died (digest)" in text and "seat 5 claims seer" in text


def test_stateless_prompts_hold_the_whole_history() -> None:
    kit = TinyKit()
    [system, user] = stateless_messages(kit, "RULES", OBS, None, GAME)
    text = user["content"]
    assert system["content"] == "RULES"
    assert "seat 1 accuses seat 3" in text and "at length" not in text  # day 1 is old: digest
    assert "nobody died" in text and "seat 3 votes seat 1" in text and "seat 5 claims" in text
    assert text.index("[Night 1 (digest)]") < text.index("[Night 2]") < text.index("[Day 3]")


async def vote(agent: LLMAgent, entries: Sequence[Entry]) -> None:
    """One vote decision of seat 2, having seen ``entries``."""
    request = DecisionRequest(
        decision=Decision(2, "VOTE"),
        observation=OBS,
        legal=VoteLegal(),  # type: ignore[arg-type]
        prompt_kit=TinyKit(),
        entries=entries,
    )
    await agent.decide("ignored", "ignored", request)


async def test_agent_conversation_is_one_growing_prefix() -> None:
    def answer(request: Any) -> str:
        return json.dumps({"reasoning": "r", "action": {"type": "VOTE", "target": 1}})

    provider = ScriptedProvider(answer)
    agent = LLMAgent(Model(provider), seat=2, persona="calm")
    for upto in (3, 6, 8):
        await vote(agent, GAME[:upto])
    calls = [request.messages for request in provider.requests]
    assert calls[1][: len(calls[0])] == calls[0] and calls[2][: len(calls[1])] == calls[1]
    assert "calm" in calls[0][0]["content"] and '"reasoning"' in calls[0][0]["content"]
    assert all(call[0] == calls[0][0] for call in calls)  # the system prompt never changes


class CountingProvider(ScriptedProvider):
    """A provider with a small window whose tokens are single characters (denser than the
    four-characters-a-token estimate), so only its own count keeps prompts inside it."""

    capabilities = Capabilities(schema=True, token_count=True)
    context_tokens = 1400

    def count_tokens(self, text: str) -> int:
        return len(text)


async def test_a_model_that_counts_tokens_keeps_every_prompt_inside_its_window() -> None:
    def answer(request: Any) -> str:
        return json.dumps({"reasoning": "r" * 40, "action": {"type": "VOTE", "target": 1}})

    provider = CountingProvider(answer)
    model = Model(provider)
    agent = LLMAgent(model, seat=2, max_tokens=100)
    assert model.exact_counts and agent.budget_tokens < 1400 - 100
    for upto in range(1, len(GAME) + 1):
        await vote(agent, GAME[:upto])
    assert agent.conversation is not None and agent.conversation.restarts >= 1
    for request in provider.requests:
        assert model.count_tokens(request.messages) <= agent.budget_tokens
