"""Filling in a decision's terminal form (:mod:`duskfall.core.terminal_form`) line by line.

Each question is asked until its line is read (a refused line gets its one-line reason and the
question again); if the rules refuse the whole answer, the reason is shown and the form is
asked again from its first question. A variant that declares no form for a decision gets one
line, read by ``legal.parse`` as typed (JSON too), a player's name standing for their seat.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.terminal_form import Question, TerminalForm
from duskfall.core.variant import Variant
from duskfall.runtime.parsing import decode_reply

Ask = Callable[[str], Awaitable[str]]
"""Print a prompt and return the line typed (without its newline)."""
Say = Callable[[str], None]

NEEDED = "an answer is needed (? shows your view again)"


def refused(reason: str) -> str:
    return f"Not accepted: {reason}"


def form_for(variant: Variant, obs: Mapping[str, Any], legal: Any) -> TerminalForm:
    """The variant's form of the decision, else one line read as typed."""
    declared = variant.info.terminal_form
    form = declared(obs, legal) if declared is not None else None
    if form is not None:
        return form
    question = Question("answer", "Your answer", read=_decoded)
    return TerminalForm([question], lambda answers: _named(answers["answer"], obs))


def prompt_line(question: Question) -> str:
    default = f" [{question.default}]" if question.default is not None else ""
    return f"{question.prompt}{default} > "


async def fill(form: TerminalForm, legal: Any, ask: Ask, say: Say) -> tuple[Any, Any]:
    """The answers' data and the legal action it parses to, asked through ``ask``."""
    while True:
        answers: dict[str, Any] = {}
        for question in form.questions:
            answers[question.key] = await answer(question, ask, say)
        data = form.build(answers)
        try:
            return data, legal.parse(data)
        except IllegalAction as exc:
            say(refused(exc.hint))
            if len(form.questions) > 1:
                say("Once more from the start:")


async def answer(question: Question, ask: Ask, say: Say) -> Any:
    """One question's value (a list for a repeated question)."""
    values: list[Any] = []
    while True:
        line = await ask(prompt_line(question))
        if question.repeat and not line.strip():
            return values
        if not line.strip() and question.default is None:
            say(refused(NEEDED))
            continue
        try:
            value = question.read(line)
        except IllegalAction as exc:
            say(refused(exc.hint))
            continue
        if not question.repeat:
            return value
        values.append(value)


def _decoded(line: str) -> Any:
    """A typed line as the action it holds (JSON decoded; a bare word as it is)."""
    return decode_reply(line).action


def _named(value: Any, obs: Mapping[str, Any]) -> Any:
    """The seat number of the player called ``value`` (ignoring case), else ``value``."""
    players = obs.get("players")
    if not isinstance(value, str) or not isinstance(players, list):
        return value
    wanted = value.strip().lower()
    for player in players:
        if isinstance(player, Mapping) and str(player.get("name", "")).lower() == wanted:
            seat = player.get("seat", player.get("player_id"))
            return str(seat) if isinstance(seat, int) else value
    return value
