"""Filling in a terminal form: defaults, repeated questions, one-line re-asks, a whole form
asked again when the rules refuse the result."""

from __future__ import annotations

from typing import Any

from duskfall.agents.human_form import fill, prompt_line
from duskfall.core.errors import IllegalAction
from duskfall.core.terminal_form import Question, TerminalForm, one_line, yes_or_no


class Keyboard:
    """Typed lines, and everything printed (prompts included)."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.printed: list[str] = []

    async def ask(self, prompt: str) -> str:
        self.printed.append(prompt)
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.printed.append(text)


class Sum:
    """Legal when the numbers add up to 10."""

    def parse(self, data: Any) -> int:
        total = sum(data)
        if total != 10:
            raise IllegalAction(f"they add up to {total}, not 10")
        return total


def number(line: str) -> int:
    if not line.strip().isdigit():
        raise IllegalAction(f"{line!r} is not a number")
    return int(line)


FORM = TerminalForm(
    [
        Question("first", "First number", "4", lambda line: number(line or "4")),
        Question("more", "Another number", "done", number, repeat=True),
    ],
    lambda answers: [answers["first"], *answers["more"]],
)


async def test_defaults_repeats_and_re_asks() -> None:
    keys = Keyboard("", "x", "3", "3", "")
    assert await fill(FORM, Sum(), keys.ask, keys.say) == ([4, 3, 3], 10)
    assert keys.printed == [
        "First number [4] > ",
        "Another number [done] > ",
        "Not accepted: 'x' is not a number",
        "Another number [done] > ",
        "Another number [done] > ",
        "Another number [done] > ",
    ]


async def test_a_refused_result_asks_the_whole_form_again() -> None:
    keys = Keyboard("5", "", "7", "3", "")
    assert await fill(FORM, Sum(), keys.ask, keys.say) == ([7, 3], 10)
    assert "Not accepted: they add up to 5, not 10" in keys.printed
    assert "Once more from the start:" in keys.printed


async def test_a_question_without_default_needs_an_answer() -> None:
    keys = Keyboard("", "y")
    form = TerminalForm([Question("ok", "Sure? (y or n)", read=yes_or_no())], dict)
    legal = type("Any", (), {"parse": staticmethod(lambda data: data)})()
    assert await fill(form, legal, keys.ask, keys.say) == ({"ok": True}, {"ok": True})
    assert keys.printed[1] == "Not accepted: an answer is needed (? shows your view again)"


async def test_one_line_gives_its_default_on_enter() -> None:
    keys = Keyboard("")
    legal = type("Any", (), {"parse": staticmethod(str.upper)})()
    assert await fill(one_line("Potion", "pass"), legal, keys.ask, keys.say) == ("pass", "PASS")
    assert prompt_line(Question("a", "Name")) == "Name > "
