"""The embedded model reuses each seat's KV prefix, however seats interleave, and reuse does
not change a reply. Six short calls on the real model (two seats, two turns, two cold
re-runs); the model loads in seconds."""

from __future__ import annotations

import pytest

from duskfall.llm import CallOptions, Completion, Model
from duskfall.llm.providers.local import LocalProvider
from duskfall.llm.types import Message
from duskfall.testing.require import require

pytestmark = [pytest.mark.llm, pytest.mark.timeout(600)]

RULES = (
    "You play werewolf in the village of Duskfall. Werewolves kill one villager each night; "
    "by day the village talks, then votes one player out. "
) * 16  # prompts past the 512-token sliding window of Gemma 3
VOTE = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string", "maxLength": 60},
        "target": {"type": "integer", "enum": [3, 5]},
    },
    "required": ["reasoning", "target"],
}
OPTIONS = CallOptions(max_tokens=32)


def seat_messages(seat: int, replies: list[str]) -> list[Message]:
    """A seat's conversation: its fixed system prompt, then a turn per call."""
    messages: list[Message] = [{"role": "system", "content": f"{RULES}You are seat {seat}."}]
    for day in range(len(replies) + 1):
        if day:
            messages.append({"role": "assistant", "content": replies[day - 1]})
        messages.append(
            {"role": "user", "content": f"Day {day + 1}: seat {seat + 2} accuses you. Vote."}
        )
    return messages


def local_provider(**settings: int) -> LocalProvider:
    require("llama_cpp", "pip install 'duskfall[local]'")
    # a context size of its own: a model instance that no other test has used
    return LocalProvider(n_ctx=3072, **settings)


async def test_each_seat_reuses_its_prefix_and_replies_as_if_cold(
    capfd: pytest.CaptureFixture[str],
) -> None:
    model = Model(local_provider())
    assert model.context_tokens == 3072
    first: dict[int, Completion] = {}
    for seat in (1, 2):
        first[seat] = await model.complete(seat_messages(seat, []), VOTE, options=OPTIONS)
    assert capfd.readouterr() == ("", "")  # llama.cpp printed nothing while loading and running
    for seat in (1, 2):  # the model's own count bounds the prompt it evaluates, closely
        counted = model.count_tokens(seat_messages(seat, []))
        assert first[seat].usage.prompt_tokens <= counted <= first[seat].usage.prompt_tokens + 24
    second: dict[int, Completion] = {}
    for seat in (1, 2):  # seat 2's call came between seat 1's two calls
        extended = seat_messages(seat, [first[seat].text])
        second[seat] = await model.complete(extended, VOTE, options=OPTIONS)
        usage = second[seat].usage
        assert usage.cached_tokens >= first[seat].usage.prompt_tokens  # its whole last prompt
        assert usage.cached_tokens > 0.75 * usage.prompt_tokens
    # seat 2's first call already shared the rules with seat 1's
    assert first[2].usage.cached_tokens > len(RULES) // 8

    cold_provider = local_provider(kv_cache_mb=0)
    cold = Model(cold_provider)
    for seat in (1, 2):
        cold_provider.forget()
        again = await cold.complete(seat_messages(seat, [first[seat].text]), VOTE, options=OPTIONS)
        assert again.usage.cached_tokens == 0
        assert again.text == second[seat].text  # the same reply from a cold context
