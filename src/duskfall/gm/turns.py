"""Structured GM turns: the JSON schema the game master answers in, and its rendering as markers.

A structured turn is::

    {"narration": str, "secrets": [{"to": NAME, "text": str}],
     "next": {"player": NAME, "private": bool} | null, "game_over": bool, "result": str | null}

with every name an enum of the players, so a constrained model (llama.cpp grammar, OpenAI
``json_schema``, Anthropic tool input) can only name real players. A card with a skeleton
narrows the choices further (:class:`TurnChoices`): who may act next, whether the turn is
private, whether the game may end yet, and which players the GM may announce out.

:func:`render_turn` writes a turn as the marker text of free-text mode (``【轮到：X】``,
``[SECRET: X | ...]``, ``GAME OVER``...), so the log, the web page and the marker parser
see the same thing in either mode; the texts are first made inert (:func:`plain`) so that no
narration can pass for a marker.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.gm.markers import inert
from duskfall.gm.texts import Texts
from duskfall.llm.schema import validate

NARRATION_CHARS = 80
SECRET_CHARS = 50
RESULT_CHARS = 40
MAX_SECRETS = 2

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class TurnChoices:
    """What a GM turn may contain at this step.

    ``next_players``: who may act next (empty: nobody, so the GM can only end the game or
    send secrets; otherwise ``next`` is required, and ignored when the GM ends the game);
    ``private``: the privacy of that turn, or None to let the GM choose;
    ``may_end``: whether the game may be declared over; ``out``: players the GM may announce
    out of the game in this turn, at most ``max_out`` of them.
    """

    players: Sequence[str]
    next_players: Sequence[str]
    private: bool | None = None
    may_end: bool = True
    out: Sequence[str] = ()
    max_out: int = 0

    @classmethod
    def free(cls, players: Sequence[str]) -> TurnChoices:
        """Any player, either kind of turn, the end at any time (a card without a skeleton)."""
        return cls(players, players)


@dataclass(frozen=True, slots=True)
class Secret:
    to: str
    text: str


@dataclass(frozen=True, slots=True)
class Turn:
    """One structured GM turn (see the module docstring)."""

    narration: str
    secrets: tuple[Secret, ...] = ()
    player: str | None = None
    private: bool = False
    game_over: bool = False
    result: str | None = None
    out: tuple[str, ...] = field(default=())


def _enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _text(limit: int) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": limit}


def turn_schema(choices: TurnChoices) -> dict[str, Any]:
    """The JSON schema of a turn under ``choices``; property order is the order written."""
    properties: dict[str, Any] = {"narration": _text(NARRATION_CHARS)}
    required = ["narration"]
    if choices.max_out > 0 and choices.out:
        properties["out"] = {
            "type": "array",
            "items": _enum(choices.out),
            "maxItems": choices.max_out,
        }
        required.append("out")
    properties["secrets"] = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"to": _enum(choices.players), "text": _text(SECRET_CHARS)},
            "required": ["to", "text"],
            "additionalProperties": False,
        },
        "maxItems": MAX_SECRETS,
    }
    required.append("secrets")
    private: dict[str, Any] = (
        {"type": "boolean"} if choices.private is None else {"enum": [choices.private]}
    )
    next_turn: dict[str, Any] = {
        "type": "object",
        "properties": {"player": _enum(choices.next_players), "private": private},
        "required": ["player", "private"],
        "additionalProperties": False,
    }
    # Never null while someone can act: a turn that asks nobody and ends nothing is no turn.
    properties["next"] = next_turn if choices.next_players else {"type": "null"}
    properties["game_over"] = {"type": "boolean"} if choices.may_end else {"enum": [False]}
    properties["result"] = (
        {"anyOf": [_text(RESULT_CHARS), {"type": "null"}]} if choices.may_end else {"type": "null"}
    )
    required += ["next", "game_over", "result"]
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def plain(text: str) -> str:
    """``text`` made inert in a rendered turn: one line, nothing the marker parser could read
    (:func:`~duskfall.gm.markers.inert`)."""
    return _SPACES.sub(" ", inert(text)).strip()


def read_turn(text: str, schema: dict[str, Any] | None = None) -> Turn:
    """The turn in a JSON reply (texts made inert); ValueError if it is none, or (given the
    ``schema`` it was asked in) does not match it, e.g. a reply cut at its token limit."""
    try:
        value = json.loads(text, strict=False)  # a raw newline in a string is no problem
    except json.JSONDecodeError as exc:
        raise ValueError(f"the reply is not JSON: {exc.msg}") from None
    if not isinstance(value, dict):
        raise ValueError("the reply is not a JSON object")
    problems = validate(value, schema) if schema is not None else []
    if problems:
        raise ValueError("the reply does not match the turn schema: " + "; ".join(problems[:3]))
    game_over = value.get("game_over") is True
    narration = plain(str(value.get("narration") or ""))  # says no "game over" of its own
    secrets = tuple(
        Secret(str(s.get("to", "")), plain(str(s.get("text") or "")))
        for s in value.get("secrets") or []
        if isinstance(s, dict)
    )
    nxt = value.get("next")
    player = str(nxt["player"]) if isinstance(nxt, dict) and nxt.get("player") else None
    private = bool(nxt.get("private")) if isinstance(nxt, dict) else False
    result = value.get("result")
    out = tuple(str(name) for name in value.get("out") or [])
    return Turn(
        narration,
        tuple(s for s in secrets if s.text),
        None if game_over else player,
        private,
        game_over,
        plain(str(result)) if game_over and result else None,
        out,
    )


def render_turn(turn: Turn, texts: Texts) -> str:
    """The turn as free-text marker text in ``texts``' language (see :mod:`.markers`)."""
    parts = [turn.narration] if turn.narration else []
    parts += [texts.secret_marker.format(name=s.to, text=s.text) for s in turn.secrets]
    if turn.game_over:
        if turn.result:
            parts.append(turn.result)
        parts.append(texts.game_over_marker)
    elif turn.player is not None:
        marker = texts.private_turn_marker if turn.private else texts.turn_marker
        parts.append(marker.format(name=turn.player))
    return " ".join(parts)
