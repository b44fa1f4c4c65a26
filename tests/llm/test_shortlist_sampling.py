"""Schema-constrained replies of the embedded model come from the shortlist sampler, always
satisfy the schema (also where the grammar forbids every likely token), keep ``maxLength``,
and are the same for the same request."""

from __future__ import annotations

import json

import pytest

from duskfall.llm.providers import shortlist_sampling
from duskfall.llm.providers.local import LocalProvider
from duskfall.llm.schema import validate
from duskfall.testing.require import require

pytestmark = [pytest.mark.llm, pytest.mark.timeout(600)]

VOTE = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string", "maxLength": 40},
        # a word no model would write unasked: the grammar forbids the whole shortlist
        "action": {"type": "object", "properties": {"word": {"enum": ["zqxjv"]}}},
    },
    "required": ["reasoning", "action"],
}
ASK = [{"role": "user", "content": "Say why you vote, in JSON."}]


@pytest.fixture
def sampled(monkeypatch: pytest.MonkeyPatch) -> list[shortlist_sampling.ShortlistGrammarSampler]:
    """Every shortlist sampler the provider makes."""
    made: list[shortlist_sampling.ShortlistGrammarSampler] = []
    original = shortlist_sampling.ShortlistGrammarSampler.__init__

    def record(self: shortlist_sampling.ShortlistGrammarSampler, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        made.append(self)

    monkeypatch.setattr(shortlist_sampling.ShortlistGrammarSampler, "__init__", record)
    return made


async def test_constrained_replies_satisfy_the_schema_and_repeat(
    sampled: list[shortlist_sampling.ShortlistGrammarSampler],
) -> None:
    require("llama_cpp", "pip install 'duskfall[local]'")
    provider = LocalProvider(n_ctx=2048, kv_cache_mb=0)
    replies = [(await provider.complete(ASK, VOTE, max_tokens=80)).text for _ in range(2)]
    assert replies[0] == replies[1]
    value = json.loads(replies[0], strict=False)
    assert validate(value, VOTE) == []
    assert len(value["reasoning"]) <= 40
    assert value["action"] == {"word": "zqxjv"}
    assert sampled, "the grammar went through the shortlist sampler"
    assert any(s.full_checks for s in sampled), "the full-vocabulary check was needed"
