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
    older envelope, its speech (``says``). ``raw`` is the text it was decoded from where the
    participant decoded its own reply (a model's: the log quotes that text on a refusal)."""

    action: Any
    think: str | None = None
    says: str | None = None
    raw: str | None = None


def decode_reply(raw: Any) -> Reply:
    """Turn a raw reply into a :class:`Reply`; raises IllegalAction with a hint on junk.

    A :class:`Reply` (a participant that decoded its own) is taken as it is, copied."""
    if isinstance(raw, Reply):
        return Reply(raw.action, raw.think, raw.says, raw.raw)
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


def reply_of(data: dict[str, Any], raw: str | None = None) -> Reply:
    """The :class:`Reply` of a decoded JSON object (``raw``: the text it was decoded from)."""
    reply = _from_mapping(data)
    reply.raw = raw
    return reply


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
