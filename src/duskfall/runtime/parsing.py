"""Lenient decoding of a participant's raw reply into the action part of a decision.

Accepted shapes, in order: an action object already parsed by a bot; a JSON object (possibly
in a Markdown fence or followed by trailing text) that is either the action itself or the
envelope ``{"reasoning": ..., "action": {...}}`` (the LLM contract; the older envelope
``{"think": ..., "says": ..., "action": {...}}`` of earlier clients is still read, its
``says`` becoming the action's); a bare number or word, which is handed to the legal actions
as is (a human typing ``3`` or ``abstain``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.lenient_json import NoJSON, lenient_json


@dataclass(slots=True)
class Reply:
    """A decoded reply: the action part, plus the envelope's reasoning (``think``) and, from an
    older envelope, its speech (``says``)."""

    action: Any
    think: str | None = None
    says: str | None = None


def decode_reply(raw: Any) -> Reply:
    """Turn a raw reply into a :class:`Reply`; raises IllegalAction with a hint on junk."""
    if not isinstance(raw, str):
        if isinstance(raw, dict):
            return _from_mapping(raw)
        return Reply(raw)
    text = raw.strip()
    if not text:
        raise IllegalAction("your reply was empty", code="bad_format")
    if text[0] not in "{[`" and "{" not in text:
        return Reply(text)  # a bare choice such as "3" or "abstain"
    try:
        value = lenient_json(text)
    except NoJSON:
        raise IllegalAction(
            "could not find a JSON object in your reply; answer with one JSON object such as "
            '{"reasoning": "...", "action": {...}}',
            code="bad_format",
        ) from None
    if isinstance(value, dict):
        return _from_mapping(value)
    return Reply(value)


def _text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _from_mapping(data: dict[str, Any]) -> Reply:
    think = _text(data, "reasoning") if "action" in data else None
    think = think if think is not None else _text(data, "think")
    says = _text(data, "says")
    if "action" in data and isinstance(data["action"], dict | int | str | bool | type(None)):
        action = data["action"]
        if isinstance(action, dict) and says is not None and "says" not in action:
            action = {**action, "says": says}
        return Reply(action, think, says)
    return Reply(data, think, says)
