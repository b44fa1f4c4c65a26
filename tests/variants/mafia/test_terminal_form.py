"""Classic mafia at the terminal: targets by name or number, free-text messages, and for a day
message whom it is about and the role claimed (Enter: nobody, no claim)."""

from __future__ import annotations

import pytest

from duskfall.agents.human_form import fill
from duskfall.core.errors import IllegalAction
from duskfall.variants.mafia.actions import Choose, Say
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.phases import DAY_DISCUSSION, MAFIA_CHAT, MAFIA_VOTE
from duskfall.variants.mafia.terminal_form import read_about, read_claim, terminal_form

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri")
DAY = SayChoice(DAY_DISCUSSION, (0, 1, 3), NAMES, 800)


class Keyboard:
    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.printed: list[str] = []

    async def ask(self, prompt: str) -> str:
        self.printed.append(prompt)
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.printed.append(text)


async def enter(legal: object, *lines: str) -> tuple[object, Keyboard]:
    keys = Keyboard(*lines)
    form = terminal_form({}, legal)
    assert form is not None
    _, action = await fill(form, legal, keys.ask, keys.say)
    return action, keys


async def test_a_day_message_asks_about_whom_and_the_claim() -> None:
    action, keys = await enter(DAY, "Bruno is {odd}", "chloe", "bruno", "doc", "doctor")
    assert action == Say("Bruno is {odd}", 1, "DOCTOR")
    assert "Not accepted: 'chloe' is not a living player" in keys.printed
    assert any(line.startswith("Not accepted: claim one of MAFIA") for line in keys.printed)
    quiet, _ = await enter(DAY, "nothing to add", "", "")
    assert quiet == Say("nothing to add")


async def test_a_team_chat_is_one_line_and_a_target_a_name_or_number() -> None:
    chat, keys = await enter(SayChoice(MAFIA_CHAT, (0, 1), NAMES, 800), "kill Alice")
    assert chat == Say("kill Alice")
    assert keys.printed == ["Your message (at most 800 characters) > "]
    vote = TargetChoice(MAFIA_VOTE, "KILL", (0, 3), NAMES, "PASS")
    assert (await enter(vote, "dmitri"))[0] == Choose("KILL", 3)
    assert (await enter(vote, "pass"))[0] == Choose("PASS")
    assert (await enter(vote, "0"))[0] == Choose("KILL", 0)


def test_readers_refuse_with_a_reason() -> None:
    assert read_about(DAY, "") is None and read_about(DAY, "3") == 3
    assert read_claim("") is None and read_claim("sheriff") == "SHERIFF"
    with pytest.raises(IllegalAction):
        read_claim("king")
