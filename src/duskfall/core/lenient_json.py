"""Reading the JSON in a reply written by a model or a person, leniently: a Markdown fence,
prose before or after the object, and raw control characters (a newline) inside strings, which
llama.cpp's JSON grammar lets through, are all tolerated."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder(strict=False)  # a raw newline inside a string is harmless


class NoJSON(ValueError):
    """The text holds no JSON object."""


def unfenced(text: str) -> str:
    """``text`` stripped, or the inside of its first Markdown code fence."""
    stripped = text.strip()
    fence = _FENCE.search(stripped)
    return fence.group(1).strip() if fence else stripped


def lenient_json(text: str) -> Any:
    """The JSON value ``text`` is (once unfenced), else the first JSON object inside it."""
    stripped = unfenced(text)
    try:
        return _DECODER.decode(stripped)
    except json.JSONDecodeError:
        pass
    for match in re.finditer(r"\{", stripped):
        try:
            value, _ = _DECODER.raw_decode(stripped, match.start())
        except json.JSONDecodeError:
            continue
        return value
    raise NoJSON("the reply contains no JSON object")
