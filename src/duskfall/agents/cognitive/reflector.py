"""The reflector: checks the writer's move against the suspicion model and the role's interest.

Checks, all from what the seat knows: the move is legal; an evil seat does not vote or kill a
team mate; a seat does not vote, kill or poison a player its own check cleared, nor protect
one its check exposed, nor check a player again; a speech does not contradict the seat's own
check results; a good seat does not vote for the player its model trusts most while a far
more suspicious one is on offer. A conflict yields one revision request for the writer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from duskfall.agents.cognitive.context import Knowledge, SessionContext
from duskfall.agents.cognitive.suspicion import SuspicionModel
from duskfall.core.errors import IllegalAction
from duskfall.core.legal import LegalActions
from duskfall.runtime.parsing import decode_reply

TRUST_MARGIN = 0.4


@dataclass(frozen=True)
class Reflection:
    """The verdict on one move: ``None`` conflict means the move stands."""

    conflict: str | None
    target: int | None = None

    @property
    def ok(self) -> bool:
        return self.conflict is None


def reflect(
    reply: str,
    context: SessionContext,
    legal: LegalActions | None,
    model: SuspicionModel,
    known: Knowledge,
) -> Reflection:
    """Check ``reply``; a conflict explains what is wrong and what to do instead."""
    try:
        decoded = decode_reply(reply)
        action = legal.parse(decoded.action) if legal is not None else decoded.action
    except IllegalAction as exc:
        return Reflection(f"the move is not legal: {exc.hint}")
    wire = _wire(action)
    target = _int(wire.get("target", wire.get("vote")))
    says = decoded.says or str(wire.get("says", ""))
    conflict = _target_conflict(context, wire, target, model, known) or _speech_conflict(
        context, says, known
    )
    return Reflection(conflict, target)


def _wire(action: Any) -> Mapping[str, Any]:
    to_dict = getattr(action, "to_dict", None)
    if callable(to_dict):
        value = to_dict()
        return value if isinstance(value, Mapping) else {}
    return action if isinstance(action, Mapping) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _target_conflict(
    context: SessionContext,
    wire: Mapping[str, Any],
    target: int | None,
    model: SuspicionModel,
    known: Knowledge,
) -> str | None:
    if target is None:
        return None
    label = context.label(target)
    mode = context.mode
    harmful = mode in ("vote", "kill") or str(wire.get("potion", "")).upper() == "POISON"
    if harmful and target in known.allies:
        return f"{label} is your own team mate; choose someone from the other side."
    if harmful and known.checks.get(target) is False and not context.is_evil:
        return f"your own check showed {label} is on the good side; do not harm them."
    if mode == "protect" and known.checks.get(target) is True:
        return f"your own check showed {label} is evil; protect someone else."
    if mode == "inspect" and target in known.checks:
        return f"you already checked {label}; check a player you know nothing about."
    if mode == "vote" and not context.is_evil and target in model.beliefs:
        ranked = model.ranked(p for p in context.others_alive if p not in known.allies)
        if ranked and ranked[0] != target:
            top = ranked[0]
            if model.score(top) - model.score(target) >= 2 * TRUST_MARGIN:
                return (
                    f"your model trusts {label} far more than {context.label(top)}, the most "
                    "suspicious player; vote on your reads or explain why not."
                )
    return None


def _speech_conflict(context: SessionContext, says: str, known: Knowledge) -> str | None:
    if not says or not known.checks:
        return None
    text = says.lower()
    for player, evil in known.checks.items():
        if not _names(context, player, text):
            continue
        window = _around(context, player, text)
        if evil and any(w in window for w in context.good_words) and not context.is_evil:
            return f"your speech vouches for {context.label(player)}, whom your own check exposed."
        if not evil and any(w in window for w in context.evil_words) and not context.is_evil:
            return f"your speech accuses {context.label(player)}, whom your own check cleared."
    return None


def _patterns(context: SessionContext, player: int) -> list[str]:
    found = [rf"\bp{player}\b", rf"\bseat {player}\b", rf"\bplayer {player}\b"]
    name = context.names.get(player)
    if name:
        found.append(rf"\b{re.escape(name.lower())}\b")
    return found


def _names(context: SessionContext, player: int, text: str) -> bool:
    return any(re.search(p, text) for p in _patterns(context, player))


def _around(context: SessionContext, player: int, text: str, width: int = 80) -> str:
    """What the speech says right after each mention of ``player`` (to the sentence's end)."""
    parts = []
    for pattern in _patterns(context, player):
        for match in re.finditer(pattern, text):
            rest = text[match.end() : match.end() + width]
            parts.append(re.split(r"[.!?;]", rest, maxsplit=1)[0])
    return " ".join(parts)


def revision_request(reflection: Reflection) -> str:
    return (
        f"Check before you commit: {reflection.conflict} Revise your move and answer again with "
        'one JSON object {"think", "says", "action"}.'
    )
