"""The digest of a speech: its sentences that name a player or a role (claims, accusations).

Older days of a seat's history are shown as digests (:mod:`duskfall.core.transcript`); a
speech keeps the sentences that point at someone (a role claim, "Bram is a werewolf.",
"vote seat 4"), clipped to about :data:`DIGEST_CHARS` characters. A speech that names nobody
keeps only the fact that it was made. Each variant gives its own role words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

DIGEST_CHARS = 300
ELLIPSIS = "..."
SEAT_WORDS = r"(?:seat|player)\s*#?\s*\d+|#\s*\d+"
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


@lru_cache(maxsize=32)
def _pointing(names: tuple[str, ...], role_words: str) -> re.Pattern[str]:
    """Matches a seat, a player's name or a role word (``role_words``: a regex alternation)."""
    words = [SEAT_WORDS, role_words, *(re.escape(name) for name in names if name)]
    return re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    return [part for part in _SENTENCE_END.split(text.strip()) if part]


def clip(text: str, limit: int = DIGEST_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, at a word break, ending in an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(ELLIPSIS)]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + ELLIPSIS


def pointed(text: str, names: Sequence[str], role_words: str) -> str | None:
    """The sentences of ``text`` naming a player or a role, clipped; None when none does."""
    pattern = _pointing(tuple(names), role_words)
    kept = [s for s in sentences(text) if pattern.search(s)]
    return clip(" ".join(kept)) if kept else None
