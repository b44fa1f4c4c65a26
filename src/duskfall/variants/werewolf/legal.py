"""The legal choices of one Werewolf decision: parse, check, sample, fall back, schema, wire.

Every choice parses the forms a program, an LLM or a person is likely to send: an action
object, its wire dict (``{"type": "VOTE", "target": 3}``), a bare seat number or player
name, or a word such as ``abstain``. Refusals raise :class:`IllegalAction` with a hint.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from duskfall.core.choices import (
    default_seat,
    read_seat,
    read_text,
    read_yes_no,
    sample_seat,
)
from duskfall.core.errors import IllegalAction
from duskfall.core.legal import LegalActions, LegalChoice
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.actions import YES_NO_FIELDS, Pick, Say, YesNo

_CANNED_SPEECHES = (
    "I am a simple villager.",
    "I have nothing to add.",
    "Let us listen carefully before we vote.",
    "I do not trust the quiet ones.",
)
_CANNED_SET = frozenset(_CANNED_SPEECHES)  # each already normalised (see SpeechChoice.parse)


# Actions are immutable values and a sampled one is one of few: the samplers share one
# instance per value instead of building a frozen dataclass per decision (the costliest step
# of a random bot's decision otherwise).
@cache
def _pick(kind: str, target: int | None) -> Pick:
    return Pick(kind, target)


_CANNED_SAYS = {kind: tuple(Say(kind, t) for t in _CANNED_SPEECHES) for kind in P.SPEECH_KINDS}


@cache
def _yes_no(kind: str, yes: bool) -> YesNo:
    return YesNo(kind, yes)


def _label(seat: int, names: Sequence[str]) -> str:
    return f"seat {seat} ({names[seat]})"


def _payload(data: Any, kind: str, keys: Sequence[str]) -> Any:
    """The value under the first of ``keys`` in a wire dict (checking its type), else ``data``."""
    if not isinstance(data, dict):
        return data
    given = data.get("type")
    if isinstance(given, str) and given.strip().upper() != kind:
        raise IllegalAction(f"this decision is {kind}, not {given!r}", "invalid_action")
    for key in keys:
        if key in data:
            return data[key]
    raise IllegalAction(
        f'the {kind} action needs a {keys[0]!r} field, e.g. {{"type": "{kind}", "{keys[0]}": ...}}',
        "bad_format",
    )


@dataclass(slots=True)
class TargetChoice(LegalChoice):
    """Choose one seat among ``targets`` (or nobody, when ``none_allowed``).

    Read-only once made (the wolves share one), but not a frozen dataclass: one is made per
    seat and vote, and a frozen one costs four times as much to build.
    """

    kind: str
    targets: tuple[int, ...]
    none_allowed: bool
    none_word: str
    names: tuple[str, ...]
    question: str

    def parse(self, data: Any) -> Pick:
        if isinstance(data, Pick):
            if data.kind != self.kind:
                raise IllegalAction(f"this decision is {self.kind}, not {data.kind}")
            target = data.target
        else:
            value = _payload(data, self.kind, ("target", "seat", "player"))
            if isinstance(value, str) and value.strip().lower() == self.none_word:
                value = None
            target = read_seat(value, self.names)
        if target is None:
            if not self.none_allowed:
                raise IllegalAction(f"you must choose a seat: {self._options()}", "invalid_target")
            return data if isinstance(data, Pick) else Pick(self.kind, None)
        if target not in self.targets:
            raise IllegalAction(
                f"seat {target} is not a legal choice; choose {self._options()}",
                "invalid_target",
            )
        return data if isinstance(data, Pick) else Pick(self.kind, target)

    def _options(self) -> str:
        text = ", ".join(_label(t, self.names) for t in self.targets)
        return f"{text} or '{self.none_word}'" if self.none_allowed else text

    def default(self, rng: random.Random) -> Pick:
        return Pick(self.kind, default_seat(rng, self.targets, self.none_allowed))

    def sample(self, rng: random.Random) -> Pick:
        return _pick(self.kind, sample_seat(rng, self.targets, self.none_allowed))

    def schema(self) -> dict[str, Any]:
        allowed: list[int | None] = list(self.targets)
        if self.none_allowed:
            allowed.append(None)
        return {
            "type": "object",
            "properties": {"type": {"const": self.kind}, "target": {"enum": allowed}},
            "required": ["type", "target"],
        }

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "target": [*self.targets, *([None] if self.none_allowed else [])],
        }

    def describe(self) -> str:
        return f"{self.question} Choose {self._options()}."


@dataclass(frozen=True, slots=True)
class SpeechChoice(LegalChoice):
    """Say something (speeches longer than ``max_chars`` are cut)."""

    kind: str
    max_chars: int
    question: str

    def parse(self, data: Any) -> Say:
        if (
            data.__class__ is Say
            and data.kind == self.kind
            and data.text in _CANNED_SET
            and len(data.text) <= self.max_chars
        ):
            return data  # a canned speech is already what the long way below builds
        if isinstance(data, Say):
            if data.kind != self.kind:
                raise IllegalAction(f"this decision is {self.kind}, not {data.kind}")
            text = data.text
        else:
            text = _payload(data, self.kind, ("says", "text", "speech", "message"))
        if not isinstance(text, str):
            raise IllegalAction("a speech must be text", "bad_format")
        text = read_text(text, self.max_chars)
        if isinstance(data, Say) and text == data.text:
            return data
        return Say(self.kind, text)

    def default(self, rng: random.Random) -> Say:
        return Say(self.kind, "")

    def sample(self, rng: random.Random) -> Say:
        return rng.choice(_CANNED_SAYS[self.kind])

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "type": {"const": self.kind},
                "says": {"type": "string", "maxLength": self.max_chars},
            },
            "required": ["type", "says"],
        }

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.kind, "says": "text"}

    def describe(self) -> str:
        return f"{self.question} Type what you say (at most {self.max_chars} characters)."


@dataclass(frozen=True, slots=True)
class YesNoChoice(LegalChoice):
    """A yes/no decision (run for sheriff, withdraw from the race)."""

    kind: str
    question: str

    def parse(self, data: Any) -> YesNo:
        if isinstance(data, YesNo):
            if data.kind != self.kind:
                raise IllegalAction(f"this decision is {self.kind}, not {data.kind}")
            return data
        value = _payload(data, self.kind, (YES_NO_FIELDS[self.kind], "yes", "answer"))
        yes = read_yes_no(value)
        if yes is not None:
            return YesNo(self.kind, yes)
        raise IllegalAction(f"answer yes or no: {self.question}", "bad_format")

    def default(self, rng: random.Random) -> YesNo:
        return YesNo(self.kind, False)

    def sample(self, rng: random.Random) -> YesNo:
        return _yes_no(self.kind, rng.random() < 0.5)

    def schema(self) -> dict[str, Any]:
        field = YES_NO_FIELDS[self.kind]
        return {
            "type": "object",
            "properties": {"type": {"const": self.kind}, field: {"type": "boolean"}},
            "required": ["type", field],
        }

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.kind, YES_NO_FIELDS[self.kind]: [True, False]}

    def describe(self) -> str:
        return f"{self.question} Answer yes or no."


Choice = TargetChoice | SpeechChoice | YesNoChoice | LegalActions
"""A decision's legal choice: the table's own, or a role's night turn (its unit's class:
see :class:`~duskfall.variants.werewolf.role_unit.NightTurn`)."""
