"""How a spectator sees a game-master game's events: the GM mode's
:class:`~duskfall.core.spectator.Spectator`, as a variant declares its own.

The roles are the deal's (the god view) and each player's own role secret (a seat's view: its
role and the players its role knows); the chat reads as people say it (``Cleo: ...``, the GM's
narration without its markers and notices); the bookkeeping behind the chat (steps, the GM's
parsed instructions, turns, the phase and out records the chat already announces) is detail,
shown only on request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.spectator import Payload, Spectator, mark, seat_or_none
from duskfall.gm import event_kinds as kinds
from duskfall.gm.markers import find_markers
from duskfall.gm.texts import LANGUAGES, texts_for

GM_VARIANT = "gm"  # the variant id a GM game's log header names

#: The records behind the chat: shown on request only (the chat says the same for people).
DETAIL_KINDS = frozenset({kinds.STEP, kinds.GM_INSTRUCTION, kinds.TURN, kinds.PHASE, kinds.OUT})

#: "[system sent a secret message to NAME]" in every language: bookkeeping, not narration.
_NOTICES = re.compile(
    "|".join(
        re.escape(texts_for(language).secret_notice).replace(re.escape("{name}"), r"[^\]]{1,80}")
        for language in LANGUAGES
    )
)


def narration(text: str) -> str:
    """The GM's words as people read them: its markers and secret notices taken out."""
    _markers, _problems, spans = find_markers(text)
    kept, last = [], 0
    for start, end in sorted(spans):
        kept.append(text[last:start])
        last = max(last, end)
    kept.append(text[last:])
    return " ".join(_NOTICES.sub(" ", "".join(kept)).split())


def _audit(p: Payload) -> str:
    if p["rule"] == "unmapped":
        return f"audit, step {p['step']}: not checked ({p['detail']})"
    return f"audit, step {p['step']}: the GM broke {p['rule']} ({p['detail']})"


def _chat(p: Payload) -> str:
    text = str(p["text"])
    if p.get("role") == "player":
        return f"{p.get('speaker') or 'a player'}: {text}"
    if p.get("role") == "gm":
        return f"GM: {narration(text) or '(passes the turn on)'}"
    if text.startswith("[") and text.endswith("]"):  # a notice: "[Cleo answered the GM ...]"
        return text[1:-1]
    return text


def _instruction(p: Payload) -> str:
    parts = [f"{'private turn' if p.get('private') else 'turn'}: {p.get('turn') or 'nobody'}"]
    if p.get("secrets"):
        parts.append("secrets to " + ", ".join(map(str, p["secrets"])))
    if p.get("out"):
        parts.append("out: " + ", ".join(map(str, p["out"])))
    if p.get("game_over"):
        parts.append("game over")
    return f"GM instruction, step {p['step']}: " + "; ".join(parts)


_LINES: dict[str, Callable[[Payload], str]] = {
    kinds.GM_AUDIT: _audit,
    kinds.PHASE: lambda p: f"phase: {p['name']}",
    kinds.OUT: lambda p: f"{p['player']} is out",
    kinds.CHAT: _chat,
    kinds.SECRET: lambda p: f"GM to {p['player']} in private: {p['text']}",
    kinds.PRIVATE_REPLY: lambda p: f"{p['player']} to the GM in private: {p['text']}",
    kinds.TURN: lambda p: f"{p['player']}'s turn" + (" (in private)" if p.get("private") else ""),
    kinds.GM_INSTRUCTION: _instruction,
    kinds.STEP: lambda p: f"step {p['step']}",
    kinds.DEAL: lambda p: "dealt: " + ", ".join(f"{n} {r}" for n, r in p["roles"].items()),
    kinds.GM_START: lambda p: f"{p.get('title') or p['card']} begins",
}


def _seat_roles(roles: Any) -> dict[int, str]:
    if not isinstance(roles, Mapping):
        return {}
    found = {seat_or_none(s): r for s, r in roles.items() if isinstance(r, str)}
    return {s: r for s, r in found.items() if s is not None}


class GMSpectator(Spectator):
    def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
        render = _LINES.get(event.kind)
        return render(event.payload) if render is not None else None

    def reveals(self, event: Event) -> dict[int, str]:
        """The deal (god view: ``{name: role}`` in seat order, as it is dealt) and a player's
        role secret (``roles`` by seat: its own and the ones its role knows); a chat's
        ``role`` (``player``, ``gm``) is who speaks, not a role."""
        payload = event.payload
        if event.kind == kinds.DEAL and isinstance(payload.get("roles"), Mapping):
            return {i: str(role) for i, role in enumerate(payload["roles"].values())}
        if event.kind == kinds.SECRET:
            return _seat_roles(payload.get("roles"))
        return {}

    def marks(self, event: Event) -> list[dict[str, Any]]:
        """A player the GM announced out (games recorded before outs named a seat: none)."""
        if event.kind == kinds.OUT:
            return mark(event.payload.get("seat"), "dead", f"{event.payload['player']} is out")
        return []

    def detail(self, event: Event) -> bool:
        return event.kind in DETAIL_KINDS


SPECTATOR = GMSpectator()
