"""The reply every LLM player answers with: ``{"reasoning": ..., "action": {...}}``.

``reasoning`` comes first, so the model thinks before it commits; it is private (recorded as an
``admin`` thought). ``action`` is the decision itself, constrained by the decision's own JSON
schema; speech text lives inside the action of a speech decision, nowhere else. Nothing in the
envelope is thrown away. The reasoning's length is asked for in words
(:func:`~duskfall.core.transcript.contract_text`) and bounded by ``max_tokens``: a schema
``maxLength`` would make llama.cpp grammars very slow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.transcript import REASONING_CHARS as REASONING_CHARS


def envelope_schema(action_schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """The JSON schema of a reply whose ``action`` satisfies ``action_schema``."""
    return {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "action": dict(action_schema) if action_schema else {},
        },
        "required": ["reasoning", "action"],
        "additionalProperties": False,
    }
