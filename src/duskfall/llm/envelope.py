"""The reply envelope every LLM player answers with: ``{"think", "says", "action"}``.

``think`` is private reasoning (recorded as an ``admin`` event), ``says`` what the player says
to those who can hear it, ``action`` the decision itself, constrained by the decision's own
JSON schema. The length caps are asked for in words (:func:`length_note`) and enforced by
``max_tokens``: as schema ``maxLength`` they would make llama.cpp grammars very slow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

THINK_CHARS = 160
SAYS_CHARS = 160


def envelope_schema(
    action_schema: Mapping[str, Any] | None,
    *,
    think_chars: int = THINK_CHARS,
    says_chars: int = SAYS_CHARS,
) -> dict[str, Any]:
    """The JSON schema of an envelope whose ``action`` satisfies ``action_schema``."""
    return {
        "type": "object",
        "properties": {
            "think": {"type": "string"},
            "says": {"type": "string"},
            "action": dict(action_schema) if action_schema else {},
        },
        "required": ["think", "says", "action"],
        "additionalProperties": False,
    }


def length_note(think_chars: int = THINK_CHARS, says_chars: int = SAYS_CHARS) -> str:
    """The instruction that keeps the free text of a reply short."""
    return (
        f'Keep "think" under {think_chars} characters and "says" under {says_chars}; '
        "answer with the JSON object only."
    )
