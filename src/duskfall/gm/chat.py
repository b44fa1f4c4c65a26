"""The public chat: its messages, how they are rendered, and the sanitiser for player replies.

The chat holds only public text: the GM's replies with every secret replaced by a notice,
players' public replies, and system notes. A player's reply is sanitised before it enters the
chat so that it can never pass for a GM marker, a system notice or another player's line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from duskfall.core.redaction import redact
from duskfall.gm.markers import inert, neutralise
from duskfall.gm.texts import Texts

Role = Literal["gm", "player", "system"]
PLAYER_PREFIX = "🎮"
MAX_REPLY_CHARS = 2000

_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One public message: ``role`` says who wrote it, ``speaker`` is a player's name."""

    role: Role
    text: str
    speaker: str = ""

    def line(self, texts: Texts) -> str:
        if self.role == "player":
            return f"{PLAYER_PREFIX} {self.speaker}: {self.text}"
        if self.role == "gm":
            return f"{texts.gm_label}: {self.text}"
        return self.text


def sanitise_player_reply(name: str, reply: str) -> str:
    """A player's raw reply made safe for the chat; empty when nothing usable is left.

    Masks secrets (:func:`~duskfall.core.redaction.redact`), drops a leading ``NAME:`` the
    model may have written itself, makes it inert (:func:`~duskfall.gm.markers.inert`: NFKC,
    no bracket, pipe, keyword-colon or game-over phrase the marker parser could read, so that
    a game master quoting it forges nothing, and no fake notice), removes the player-line
    prefix and puts the reply on one line (no impersonation), and caps the length.
    """
    text = redact(reply).strip().replace(PLAYER_PREFIX, "")
    own_prefix = re.compile(rf"^\s*\**\s*{re.escape(name)}\s*\**\s*[:：]\s*", re.IGNORECASE)
    text = inert(own_prefix.sub("", text, count=1))
    text = _WHITESPACE.sub(" ", text).strip()
    if len(text) > MAX_REPLY_CHARS:
        text = text[:MAX_REPLY_CHARS].rstrip() + "..."
    return text


def render_chat(
    messages: Sequence[ChatMessage],
    texts: Texts,
    window: int,
    *,
    for_player: bool,
    max_chars: int | None = None,
) -> str:
    """The last ``window`` messages, one per line; markers neutralised in a player's view.

    ``max_chars`` also bounds the total length (older messages are dropped first, the latest
    one is always kept), so that a long game still fits a small model's context.
    """
    lines: list[str] = []
    used = 0
    for message in reversed(messages[-window:] if window > 0 else []):
        line = message.line(texts)
        if for_player:
            line = neutralise(line)
        if lines and max_chars is not None and used + len(line) > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(reversed(lines)) if lines else texts.no_messages
