"""A sports-mafia declaration entered step by step at the terminal: beliefs as changes, claims
only once a night has passed (earlier ones kept on Enter), the nomination; each line checked."""

from __future__ import annotations

from typing import Any

import pytest

from duskfall.agents.human_form import fill
from duskfall.core.errors import IllegalAction
from duskfall.variants.sports_mafia.actions import SKIP
from duskfall.variants.sports_mafia.legal import DeclarationChoice, TargetChoice
from duskfall.variants.sports_mafia.terminal_form import (
    declaration_form,
    read_beliefs,
    read_claim,
    read_nomination,
    terminal_form,
)

ZERO = (0,) * 10
CHOICE = DeclarationChoice((1, 2, 5))


def observation(turn: int = 0, beliefs: tuple[int, ...] = ZERO, claims: Any = None) -> Any:
    matrix = claims or [[0] * 10 for _ in range(10)]
    players = [
        {"player_id": p, "alive": True, "declarations": [0] * 10, "sheriff_claims": matrix}
        for p in range(10)
    ]
    players[3]["declarations"] = list(beliefs)
    return {"player_id": 3, "turn": turn, "players": players}


class Keyboard:
    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.printed: list[str] = []

    async def ask(self, prompt: str) -> str:
        self.printed.append(prompt)
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.printed.append(text)


async def declare(obs: Any, *lines: str) -> tuple[Any, Keyboard]:
    keys = Keyboard(*lines)
    _, action = await fill(declaration_form(obs, CHOICE), CHOICE, keys.ask, keys.say)
    return action, keys


def test_beliefs_are_changes_to_the_last_ones() -> None:
    last = (0, 0, 0, 0, -2, 0, 0, 3, 0, 0)
    assert read_beliefs(ZERO, "4:-2 7:+3") == last
    assert read_beliefs(last, "") == last
    assert read_beliefs(last, "7: 0, 1 = 2") == (0, 2, 0, 0, -2, 0, 0, 0, 0, 0)
    assert read_beliefs(last, "clear") == ZERO
    refusals = [("4", "not player:belief"), ("12:1", "no player 12"), ("4:5", "-3 to [+]3")]
    for bad, reason in refusals:
        with pytest.raises(IllegalAction, match=reason):
            read_beliefs(ZERO, bad)


def test_claims_and_nominations_are_checked_one_line_at_a_time() -> None:
    assert read_claim(2, "2 4 black") == {"night": 2, "player": 4, "team": "BLACK"}
    assert read_claim(1, "night 1 player 0 R") == {"night": 1, "player": 0, "team": "RED"}
    with pytest.raises(IllegalAction, match="not a night that has passed"):
        read_claim(1, "2 4 red")
    with pytest.raises(IllegalAction, match="such as 1 4 red"):
        read_claim(1, "1 4")
    assert read_nomination((1, 2), "") == SKIP
    assert read_nomination((1, 2), "player 2") == 2
    with pytest.raises(IllegalAction, match="nominate one of 1, 2"):
        read_nomination((1, 2), "3")


async def test_day_one_enter_everywhere_declares_nothing_and_nominates_nobody() -> None:
    action, keys = await declare(observation(), "", "")
    assert action.declaration == ZERO and action.nomination_policy == ()
    assert not any("Claim" in line for line in keys.printed)  # no night has passed


async def test_a_whole_declaration_step_by_step_with_re_asks() -> None:
    lines = ("4:-2 7:+3", "3 1 red", "1 7 black", "", "x", "5")
    action, keys = await declare(observation(turn=2), *lines)
    assert action.declaration == (0, 0, 0, 0, -2, 0, 0, 3, 0, 0)
    assert action.sheriff_claims[0][7] == -1 and sum(map(sum, action.sheriff_claims)) == -1
    assert action.nomination_policy == ((5, 1.0),)
    assert "Not accepted: night 3 is not a night that has passed (nights 1 to 2)" in keys.printed
    assert any(line.startswith("Not accepted: nominate one of 1, 2, 5") for line in keys.printed)


async def test_earlier_claims_are_kept_on_enter_and_dropped_on_no() -> None:
    matrix = [[0] * 10 for _ in range(10)]
    matrix[0][4] = 1
    obs = observation(turn=1, beliefs=(0, 0, 0, 0, 3, 0, 0, 0, 0, 0), claims=matrix)
    kept, keys = await declare(obs, "", "", "", "")
    assert kept.sheriff_claims[0][4] == 1 and kept.declaration[4] == 3
    assert any("yours: 4:+3" in line and "[keep]" in line for line in keys.printed)
    keep = "Keep your claims (night 1 player 4 is RED)? (y or n) [y] > "
    assert keep in keys.printed
    dropped, _ = await declare(obs, "", "n", "", "")
    assert not any(map(any, dropped.sheriff_claims))


async def test_conflicting_claims_ask_the_declaration_again() -> None:
    _, keys = await declare(observation(turn=1), "", "1 4 red", "1 4 black", "", "", "", "", "")
    assert any("claimed both RED and BLACK" in line for line in keys.printed)
    assert "Once more from the start:" in keys.printed


def test_a_vote_is_a_player_number() -> None:
    form = terminal_form(observation(), TargetChoice("NIGHT_KILL", "KILL", "kill", (1, 2), True))
    assert form is not None and form.questions[0].prompt == "Player number, or -1 for nobody"
