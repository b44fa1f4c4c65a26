"""How a person at the terminal enters a decision: a few questions, each with its default.

A variant declares ``VariantInfo.terminal_form(obs, legal)``: the :class:`TerminalForm` of a
decision. Each :class:`Question` is answered on one line; Enter gives its default; ``read``
turns the line into the answer's value or raises
:class:`~duskfall.core.errors.IllegalAction` with a one-line reason, and the question is asked
again. ``build`` makes, from the answers, the action data that ``legal.parse`` reads. A
variant without a form (or a decision it has none for) is answered in one line, read by
``legal.parse`` as typed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from duskfall.core.errors import IllegalAction

Answers = Mapping[str, Any]

YES_WORDS = frozenset({"y", "yes", "true", "1"})
NO_WORDS = frozenset({"n", "no", "false", "0"})


def as_text(line: str) -> str:
    """The line as typed (the default reader)."""
    return line


def yes_or_no(default: bool | None = None) -> Callable[[str], bool]:
    """A reader of ``y``/``yes`` or ``n``/``no`` (an empty line: ``default``)."""

    def read(line: str) -> bool:
        word = line.strip().lower()
        if not word and default is not None:
            return default
        if word in YES_WORDS:
            return True
        if word in NO_WORDS:
            return False
        raise IllegalAction(f"answer y or n, not {line!r}", "bad_format")

    return read


@dataclass(frozen=True, slots=True)
class Question:
    """One line to ask.

    ``default`` says in brackets what Enter gives (None: an answer is needed, an empty line is
    refused); ``read`` gets the line as typed, the empty line too. ``repeat`` asks again until
    an empty line, the value being the list of answers (Enter at once: an empty list).
    """

    key: str
    prompt: str
    default: str | None = None
    read: Callable[[str], Any] = as_text
    repeat: bool = False


@dataclass(frozen=True, slots=True)
class TerminalForm:
    """The questions of a decision, ``intro`` lines shown before them, and ``build``: the
    answers (by question key) -> the action data ``legal.parse`` reads."""

    questions: Sequence[Question]
    build: Callable[[Answers], Any]
    intro: str = ""


def one_line(prompt: str, default: str | None = None, intro: str = "") -> TerminalForm:
    """A decision answered in one line, read by ``legal.parse`` as typed (Enter: ``default``)."""

    def read(line: str) -> str:
        return line if line.strip() or default is None else default

    return TerminalForm([Question("answer", prompt, default, read)], _the_answer, intro)


def _the_answer(answers: Answers) -> Any:
    return answers["answer"]
