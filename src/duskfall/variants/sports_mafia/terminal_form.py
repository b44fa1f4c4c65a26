"""A sports-mafia decision as a person enters it at the terminal.

A declaration is asked step by step: the beliefs (changes to your last ones, such as
``4:-2 7:+3``; Enter keeps them), once a night has passed the sheriff checks you claim (keep
your earlier claims, then one new claim a line: ``1 4 red``; Enter: none), and the nomination
(Enter: nobody). A vote or a night choice is a player's number; the eliminate-all vote y or n.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.terminal_form import Answers, Question, TerminalForm, one_line, yes_or_no
from duskfall.variants.sports_mafia.actions import NUM_PLAYERS, SKIP
from duskfall.variants.sports_mafia.legal import (
    BELIEF_VALUES,
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.sports_mafia.prompt_lines import beliefs, claims, colour

Claim = Mapping[str, Any]
CLEAR_WORDS = frozenset({"clear", "none", "zero"})
TEAMS = {"red": "RED", "r": "RED", "black": "BLACK", "b": "BLACK"}
_SEPARATOR = re.compile(r"\s*([:=])\s*")


def terminal_form(obs: Mapping[str, Any], legal: Any) -> TerminalForm | None:
    """The form of ``legal`` for the seat of ``obs``."""
    if isinstance(legal, DeclarationChoice):
        return declaration_form(obs, legal)
    if isinstance(legal, EliminateAllChoice):
        return one_line("Eliminate them all? (y or n)")
    if isinstance(legal, TargetChoice):
        skip = f", or {SKIP} for nobody" if legal.allow_skip else ""
        return one_line(f"Player number{skip}")
    return None


def declaration_form(obs: Mapping[str, Any], legal: DeclarationChoice) -> TerminalForm:
    me = obs["players"][obs["player_id"]]
    current = tuple(me["declarations"])
    kept = claim_list(me["sheriff_claims"])
    nights = obs["turn"]  # on day N, nights 1..N-1 have passed
    shown = beliefs(current)
    now = f"yours: {shown}; 'clear': all 0" if shown else "the others stay 0"
    questions = [
        Question(
            "beliefs",
            f"Beliefs from -3 (BLACK) to +3 (RED), such as '4:-2 7:+3' ({now})",
            "keep" if shown else "all 0",
            partial(read_beliefs, current),
        )
    ]
    if kept:
        questions.append(
            Question(
                "keep",
                f"Keep your claims ({claims(me['sheriff_claims'])})? (y or n)",
                "y",
                yes_or_no(True),
            )
        )
    if nights:
        questions.append(
            Question(
                "claims",
                f"Claim a sheriff check: night (1-{nights}), player, red or black, e.g. '1 4 red'",
                "no more" if kept else "none",
                partial(read_claim, nights),
                repeat=True,
            )
        )
    if legal.nominable:
        options = ", ".join(map(str, legal.nominable))
        questions.append(
            Question(
                "nomination",
                f"Nominate a player ({options}), or {SKIP} for nobody",
                "nobody",
                partial(read_nomination, legal.nominable),
            )
        )
    return TerminalForm(questions, partial(build_declaration, kept))


def build_declaration(kept: Sequence[Claim], answers: Answers) -> dict[str, Any]:
    """The LLM form of the declaration (``DeclarationChoice.parse`` reads it)."""
    claimed = [*(kept if answers.get("keep", False) else ()), *answers.get("claims", ())]
    data: dict[str, Any] = {
        "type": "DECLARATION",
        "beliefs": {str(p): v for p, v in enumerate(answers["beliefs"])},
        "nomination": answers.get("nomination", SKIP),
    }
    if claimed:
        data["claims"] = claimed
    return data


def claim_list(matrix: Sequence[Sequence[int]]) -> list[Claim]:
    """The claims of a wire matrix (row ``k``: night ``k + 1``) as the LLM form's list."""
    return [
        {"night": row + 1, "player": p, "team": colour(v)}
        for row, values in enumerate(matrix)
        for p, v in enumerate(values)
        if v
    ]


def read_beliefs(current: Sequence[int], line: str) -> tuple[int, ...]:
    """``current`` changed by ``4:-2 7:+3`` (empty: unchanged; ``clear``: all 0)."""
    text = _SEPARATOR.sub(r"\1", line.strip().lower())
    if text in CLEAR_WORDS:
        return (0,) * NUM_PLAYERS
    vector = list(current)
    for token in filter(None, re.split(r"[\s,;]+", text)):
        player, sep, value = token.replace("=", ":").partition(":")
        if not sep or not _is_int(player) or not _is_int(value):
            raise IllegalAction(f"{token!r} is not player:belief, such as 4:-2", "bad_format")
        if not 0 <= int(player) < NUM_PLAYERS:
            raise IllegalAction(f"there is no player {player}", "bad_format")
        if int(value) not in BELIEF_VALUES:
            raise IllegalAction(f"a belief is -3 to +3, not {value}", "bad_format")
        vector[int(player)] = int(value)
    return tuple(vector)


def read_claim(nights: int, line: str) -> Claim:
    """``1 4 red``: night 1, player 4 was found RED."""
    numbers = re.findall(r"-?\d+", line)
    teams = [TEAMS[w] for w in re.findall(r"[a-z]+", line.lower()) if w in TEAMS]
    if len(numbers) != 2 or len(teams) != 1:
        raise IllegalAction("a claim is night, player and red or black, such as 1 4 red")
    night, player = int(numbers[0]), int(numbers[1])
    if not 1 <= night <= nights:
        passed = "night 1" if nights == 1 else f"nights 1 to {nights}"
        raise IllegalAction(f"night {night} is not a night that has passed ({passed})")
    if not 0 <= player < NUM_PLAYERS:
        raise IllegalAction(f"there is no player {player}")
    return {"night": night, "player": player, "team": teams[0]}


def read_nomination(nominable: Sequence[int], line: str) -> int:
    text = line.strip().lower().removeprefix("player").strip()
    if not text or text in ("nobody", "none"):
        return SKIP
    if not _is_int(text) or (int(text) != SKIP and int(text) not in nominable):
        options = ", ".join(map(str, nominable))
        raise IllegalAction(f"nominate one of {options}, or {SKIP} for nobody", "invalid_target")
    return int(text)


def _is_int(text: str) -> bool:
    return text.lstrip("+-").isdigit()
