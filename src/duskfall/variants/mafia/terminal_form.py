"""A classic-mafia decision as a person enters it at the terminal.

A target is a name or a seat number (or ``pass``/``abstain`` where allowed). A message is free
text; a day message then asks whom it is about and which role you claim in public, if any
(Enter: nobody, no claim).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.terminal_form import Answers, Question, TerminalForm, one_line
from duskfall.variants.mafia.actions import resolve_player
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.phases import DAY_DISCUSSION
from duskfall.variants.mafia.roles import ROLES

NOBODY = frozenset({"", "nobody", "none", "no one"})


def terminal_form(obs: Mapping[str, Any], legal: Any) -> TerminalForm | None:
    """The form of ``legal`` (``obs`` is not needed: the decision says it all)."""
    if isinstance(legal, TargetChoice):
        passing = f", or '{legal.pass_type.lower()}'" if legal.pass_type else ""
        return one_line(f"Name or seat number{passing}")
    if isinstance(legal, SayChoice):
        return say_form(legal)
    return None


def say_form(legal: SayChoice) -> TerminalForm:
    questions = [Question("says", f"Your message (at most {legal.max_chars} characters)")]
    if legal.kind == DAY_DISCUSSION:
        about = partial(read_about, legal)
        roles = ", ".join(ROLES)
        questions += [
            Question("target", "About whom (name or seat number)?", "nobody", about),
            Question("claim", f"Claim a role in public ({roles})?", "no claim", read_claim),
        ]
    return TerminalForm(questions, build_say)


def build_say(answers: Answers) -> dict[str, Any]:
    return {
        "says": answers["says"],
        "target": answers.get("target"),
        "claim": answers.get("claim"),
    }


def read_about(legal: SayChoice, line: str) -> int | None:
    if line.strip().casefold() in NOBODY:
        return None
    seat = resolve_player(line, legal.names)
    if seat not in legal.mentionable:
        raise IllegalAction(f"{line.strip()!r} is not a living player", "invalid_target")
    return seat


def read_claim(line: str) -> str | None:
    role = line.strip().upper()
    if role.casefold() in NOBODY or role in ("NO", "NO CLAIM"):
        return None
    if role not in ROLES:
        raise IllegalAction(f"claim one of {', '.join(ROLES)}, or nothing", "bad_format")
    return role
