"""The reply envelope every LLM player answers with: ``{"think", "says", "action"}``.

``think`` is private reasoning (recorded as an ``admin`` event), ``says`` what the player says
to those who can hear it, ``action`` the decision itself, constrained by the decision's own
JSON schema. Length caps keep replies (and so tokens and latency) bounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

THINK_CHARS = 200
SAYS_CHARS = 200


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
            "think": {"type": "string", "maxLength": think_chars},
            "says": {"type": "string", "maxLength": says_chars},
            "action": dict(action_schema) if action_schema else {},
        },
        "required": ["think", "says", "action"],
        "additionalProperties": False,
    }
