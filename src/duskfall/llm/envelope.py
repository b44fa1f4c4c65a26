"""The reply every LLM player answers with: ``{"reasoning": ..., "action": {...}}``.

``reasoning`` comes first, so the model thinks before it commits; it is private (recorded as an
``admin`` thought). ``action`` is the decision itself, constrained by the decision's own JSON
schema; speech text lives inside the action of a speech decision, nowhere else. Nothing in the
envelope is thrown away. The reasoning's length is asked for in words
(:func:`~duskfall.core.transcript.contract_text`) and, given ``reasoning_chars``, bounded by the
schema's ``maxLength``: a grammar (llama.cpp) enforces it, so a reply cannot run past its
``max_tokens`` in the middle of its reasoning; elsewhere it is a hint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.transcript import REASONING_CHARS as REASONING_CHARS


def envelope_schema(
    action_schema: Mapping[str, Any] | None, reasoning_chars: int | None = None
) -> dict[str, Any]:
    """The JSON schema of a reply whose ``action`` satisfies ``action_schema`` (and whose
    reasoning has at most ``reasoning_chars`` characters, when given)."""
    reasoning: dict[str, Any] = {"type": "string"}
    if reasoning_chars is not None:
        reasoning["maxLength"] = reasoning_chars
    return {
        "type": "object",
        "properties": {
            "reasoning": reasoning,
            "action": dict(action_schema) if action_schema else {},
        },
        "required": ["reasoning", "action"],
        "additionalProperties": False,
    }
