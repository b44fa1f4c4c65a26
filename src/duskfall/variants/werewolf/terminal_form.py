"""A Werewolf decision as a person enters it at the terminal: one line each.

``legal.parse`` reads what a person types (a seat number or a name, ``abstain``, yes or no,
``save``/``poison N``/``pass``, the words of a speech); the form names what is expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.terminal_form import Question, TerminalForm, one_line
from duskfall.variants.werewolf.legal import SpeechChoice, TargetChoice, YesNoChoice
from duskfall.variants.werewolf.units import UNIT_CHOICES


def terminal_form(obs: Mapping[str, Any], legal: Any) -> TerminalForm | None:
    """The form of ``legal`` (``obs`` is not needed: the decision says it all)."""
    if isinstance(legal, SpeechChoice):
        kind = legal.kind
        question = Question("says", f"What you say (at most {legal.max_chars} characters)")
        return TerminalForm([question], lambda answers: {"type": kind, "says": answers["says"]})
    if isinstance(legal, TargetChoice):
        none = f", or '{legal.none_word}'" if legal.none_allowed else ""
        return one_line(f"Seat number or name{none}")
    if isinstance(legal, YesNoChoice):
        return one_line("y or n")
    if isinstance(legal, UNIT_CHOICES):  # a role's own night turn
        form: TerminalForm = legal.form()
        return form
    return None
