"""Asking a model seat, once a day, how likely each other living player is to be evil.

With the agent option ``beliefs=daily``, the first decision of each day is preceded by one
extra model call: the seat's own prompt for that decision (so it knows exactly what the seat
knows, and nothing more) with a closing question asking for P(evil) of every other living
player, answered as JSON under a schema. The answer is recorded as an admin ``beliefs`` event
(``{"seat": s, "day": d, "beliefs": {"3": 0.7, ...}}``) that tournaments score for calibration
(:mod:`duskfall.report.calibration`). The question stays out of the seat's conversation, and a
failed or unreadable answer only means no beliefs that day: the decision goes on. An answer
that arrives but cannot be scored (unreadable, a player missing, a probability outside [0, 1])
is still recorded, as a ``beliefs`` event with ``refused`` (why) and ``stated`` (the reply's
values) instead of ``beliefs``, so reports count it (:func:`duskfall.llm.calls.call_report`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import ADMIN, Event
from duskfall.llm import CallOptions, CallRecord, LLMError, Model
from duskfall.llm.types import Message


class DailyBeliefs:
    """When a seat with the option ``beliefs`` (``off`` or ``daily``) is asked: at its first
    decision of each day."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._asked_day: int | None = None

    def due(self, day: int) -> bool:
        """Whether the decision on ``day`` asks first (and, if so, the day is then taken)."""
        if self.mode != "daily" or (self._asked_day is not None and day <= self._asked_day):
            return False
        self._asked_day = day
        return True


def living_others(observation: Mapping[str, Any]) -> list[tuple[int, str]]:
    """(seat, name) of every other living player in a seat's observation."""
    me = observation.get("seat", observation.get("player_id"))
    out = []
    for player in observation.get("players") or []:
        if not isinstance(player, Mapping) or not player.get("alive", False):
            continue
        seat = player.get("seat", player.get("player_id"))
        if isinstance(seat, int) and seat != me:
            out.append((seat, str(player.get("name", f"player {seat}"))))
    return out


def beliefs_schema(players: Sequence[tuple[int, str]]) -> dict[str, Any]:
    probability = {"type": "number", "minimum": 0, "maximum": 1}
    keys = [str(seat) for seat, _ in players]
    inner = {
        "type": "object",
        "properties": {key: probability for key in keys},
        "required": keys,
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"beliefs": inner},
        "required": ["beliefs"],
        "additionalProperties": False,
    }


def beliefs_question(players: Sequence[tuple[int, str]]) -> str:
    listed = ", ".join(f"{seat} ({name})" for seat, name in players)
    return (
        "Before your decision, a separate question (it does not count as your move): for "
        f"each other living player ({listed}), give the probability from 0 to 1 that they "
        'are on the evil side. Answer only JSON: {"beliefs": {"<player number>": p, ...}}.'
    )


def read_beliefs(text: str, players: Sequence[tuple[int, str]]) -> dict[str, float] | None:
    """The probabilities in a reply, keyed by player number; None if unreadable."""
    beliefs, _why = checked_beliefs(text, players)
    return beliefs


def checked_beliefs(
    text: str, players: Sequence[tuple[int, str]]
) -> tuple[dict[str, float] | None, str]:
    """The probabilities in a reply keyed by player number, or None and why they are refused."""
    try:
        data = json.loads(text)
        stated = data["beliefs"]
        out = {str(seat): float(stated[str(seat)]) for seat, _ in players}
    except (ValueError, KeyError, TypeError) as exc:
        return None, f"unreadable ({type(exc).__name__})"
    outside = sorted(key for key, p in out.items() if not 0.0 <= p <= 1.0)
    if outside:
        return None, "outside [0, 1] for player " + ", ".join(outside)
    return out, ""


def _stated(text: str) -> Any:
    """The reply's ``beliefs`` as it was stated (for the record of a refused answer)."""
    try:
        data = json.loads(text)
    except ValueError:
        return text[:400]
    return data.get("beliefs", data) if isinstance(data, dict) else data


async def ask_beliefs(
    model: Model,
    messages: Sequence[Message],
    observation: Mapping[str, Any],
    *,
    seat: int | None,
    day: int,
    phase: str,
    emit: Callable[[Event], None],
    options: CallOptions,
    deadline: float,
) -> dict[str, float] | None:
    """One beliefs call after ``messages`` (the seat's prompt for its decision); emits the
    ``beliefs`` event and returns the beliefs, or None."""
    players = living_others(observation)
    if not players or not messages or messages[-1].get("role") != "user":
        return None
    last = messages[-1]
    question: list[Message] = [
        *messages[:-1],
        {"role": "user", "content": f"{last['content']}\n\n{beliefs_question(players)}"},
    ]
    record = CallRecord(emit, seat=seat, day=day, phase=phase, fields={"decision": "beliefs"})
    try:
        completion = await model.complete(
            question, beliefs_schema(players), options=options, deadline=deadline, record=record
        )
    except LLMError:
        return None
    beliefs, why = checked_beliefs(completion.text, players)
    payload: dict[str, Any] = {"seat": seat, "day": day}
    if beliefs is None:
        payload.update(refused=why, stated=_stated(completion.text))
    else:
        payload["beliefs"] = beliefs
    emit(Event(kinds.BELIEFS, payload, ADMIN, day, phase, source="agent"))
    return beliefs
