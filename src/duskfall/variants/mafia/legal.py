"""Legal-action views of a decision: parse, validate, sample, fall back, JSON schema, wire form."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from duskfall.core.choices import default_seat, is_nobody, sample_seat
from duskfall.core.errors import IllegalAction
from duskfall.core.legal import LegalChoice
from duskfall.variants.mafia.actions import SAY, Choose, Say, resolve_player
from duskfall.variants.mafia.roles import ROLES

_CHAT_LINES = (
    "I have nothing to add yet.",
    "Let's keep our eyes open.",
    "I agree with what was said.",
    "We should decide carefully.",
)


# Sampled actions are immutable values, and few: the samplers share one instance per value
# instead of building a frozen dataclass per decision (a large part of a random decision).
@cache
def _chosen(action_type: str, target: int) -> Choose:
    return Choose(action_type, target)


@cache
def _chat_line(says: str, target: int | None) -> Say:
    return Say(says, target)


def _passes(text: str) -> bool:
    """Whether a text says nobody: empty, or a word for nobody (``pass``, ``abstain``...)."""
    return not text.strip() or is_nobody(text)


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _check_type(data: Mapping[str, Any], allowed: tuple[str, ...]) -> str | None:
    given = data.get("type")
    if given is None:
        return None
    upper = str(given).strip().upper()
    if upper not in allowed:
        raise IllegalAction(
            f"this decision takes {' or '.join(allowed)}, not {given!r}", "invalid_action"
        )
    return upper


@dataclass(slots=True)
class TargetChoice(LegalChoice):
    """Choose one player (``action_type``), or pass where ``pass_type`` is set.

    Read-only once made; not a frozen dataclass, which costs four times as much to build
    (one is made per seat and decision).
    """

    kind: str
    action_type: str
    targets: tuple[int, ...]
    names: tuple[str, ...]
    pass_type: str | None = None

    def _types(self) -> tuple[str, ...]:
        return (self.action_type, self.pass_type) if self.pass_type else (self.action_type,)

    def _choose(self, target: int, reasoning: str = "", says: str = "") -> Choose:
        if target not in self.targets:
            who = self.names[target] if 0 <= target < len(self.names) else f"seat {target}"
            raise IllegalAction(
                f"{who} is not a legal target; choose one of {self._target_list()}",
                "invalid_target",
            )
        return Choose(self.action_type, target, reasoning, says)

    def _pass(self, reasoning: str = "", says: str = "") -> Choose:
        if self.pass_type is None:
            raise IllegalAction(
                f"you must choose a target: one of {self._target_list()}", "invalid_action"
            )
        return Choose(self.pass_type, None, reasoning, says)

    def _canonical(self, action: Choose) -> bool:
        """Whether ``action`` is a legal target choice exactly as :meth:`parse` builds one."""
        return (
            action.type == self.action_type
            and type(action.target) is int
            and action.target in self.targets
            and isinstance(action.reasoning, str)
            and isinstance(action.says, str)
        )

    def parse(self, data: Any) -> Choose:
        if isinstance(data, Choose):
            if self._canonical(data):
                return data  # what the long way below would build from it
            data = data.to_dict()
        if not isinstance(data, Mapping):
            if isinstance(data, str) and _passes(data):
                return self._pass()
            return self._choose(resolve_player(data, self.names))
        kind = _check_type(data, self._types())
        reasoning, says = _text(data, "reasoning"), _text(data, "says")
        target = data.get("target", data.get("player"))
        declined = any(data.get(key) is False for key in ("shoot", "shouldShoot", "act"))
        if (
            (kind is not None and kind == self.pass_type)
            or declined
            or (isinstance(target, str) and _passes(target))
            or (target is None and self.pass_type is not None)
        ):
            return self._pass(reasoning, says)
        if target is None or target == -1:
            raise IllegalAction(
                f'{self.action_type} needs a "target": one of {self._target_list()}', "bad_format"
            )
        return self._choose(resolve_player(target, self.names), reasoning, says)

    def default(self, rng: random.Random) -> Choose:
        target = default_seat(rng, self.targets, self.pass_type is not None)
        return self._pass() if target is None else self._choose(target)

    def sample(self, rng: random.Random) -> Choose:
        target = sample_seat(rng, self.targets, self.pass_type is not None)
        return self._pass() if target is None else _chosen(self.action_type, target)

    def to_wire(self) -> dict[str, Any]:
        """``type`` and ``target`` as the action spells them (a passable choice lists the
        targets per type); the older ``kill: [...]``/``pass: true`` keys stay."""
        wire: dict[str, Any] = {self.action_type.lower(): list(self.targets)}
        if self.pass_type:
            wire[self.pass_type.lower()] = True
            wire["type"] = [self.action_type, self.pass_type]
            wire["target"] = {self.action_type: list(self.targets), self.pass_type: [None]}
        else:
            wire["type"] = self.action_type
            wire["target"] = list(self.targets)
        return wire

    def schema(self) -> dict[str, Any]:
        target: list[dict[str, Any]] = [
            {"type": "integer", "enum": list(self.targets)},
            {"type": "string", "enum": [self.names[t] for t in self.targets]},
        ]
        if self.pass_type:
            target.append({"type": "null"})
        return {
            "type": "object",
            "properties": {
                "type": {"enum": list(self._types())},
                "target": {"anyOf": target},
                "reasoning": {"type": "string"},
                "says": {"type": "string"},
            },
            "required": ["target"],
        }

    def _target_list(self) -> str:
        return ", ".join(f"{self.names[t]} (seat {t})" for t in self.targets)

    def describe(self) -> str:
        text = f"{self.action_type}: choose one of {self._target_list()}"
        if self.pass_type:
            text += f'; or {self.pass_type} with "target": null'
        return text


@dataclass(slots=True)
class SayChoice(LegalChoice):
    """Write one message (a team chat line or a day speech), optionally about one player.

    Read-only once made (shared by the speakers of a step; see TargetChoice).
    """

    kind: str
    mentionable: tuple[int, ...]
    names: tuple[str, ...]
    max_chars: int

    def _say(self, says: str, target: int | None, claim: Any = None) -> Say:
        if target is not None and target not in self.mentionable:
            raise IllegalAction(
                f'"target" must be a living player or null, not seat {target}', "invalid_target"
            )
        if isinstance(claim, str) and _passes(claim):
            claim = None
        if claim is not None:
            if not isinstance(claim, str) or claim.strip().upper() not in ROLES:
                raise IllegalAction(
                    f'"claim" must be one of {", ".join(ROLES)} or null, not {claim!r}',
                    "bad_format",
                )
            claim = claim.strip().upper()
        return Say(says.strip()[: self.max_chars], target, claim)

    def parse(self, data: Any) -> Say:
        if isinstance(data, Say):
            if (
                data.claim is None
                and (data.target is None or data.target in self.mentionable)
                and len(data.says) <= self.max_chars
                and data.says == data.says.strip()
            ):
                return data  # already what _say would build
            return self._say(data.says, data.target, data.claim)
        if isinstance(data, str):
            return self._say(data, None)
        if not isinstance(data, Mapping):
            raise IllegalAction('answer with {"says": "your message"}', "bad_format")
        _check_type(data, (SAY,))
        says = next((data[k] for k in ("says", "message", "text") if k in data), None)
        if not isinstance(says, str):
            raise IllegalAction('put your message in "says" (a string)', "bad_format")
        target = data.get("target")
        if isinstance(target, str) and _passes(target):
            target = None
        target_seat = None if target is None else resolve_player(target, self.names)
        return self._say(says, target_seat, data.get("claim"))

    def default(self, rng: random.Random) -> Say:
        return Say("")

    def sample(self, rng: random.Random) -> Say:
        target = rng.choice(self.mentionable) if self.mentionable and rng.random() < 0.5 else None
        return _chat_line(rng.choice(_CHAT_LINES), target)

    def to_wire(self) -> dict[str, Any]:
        """The action's fields (``says`` is free text); the older ``say`` key stays."""
        return {
            "type": SAY,
            "says": "text",
            "target": [*self.mentionable, None],
            "claim": [*ROLES, None],
            "say": {"max_chars": self.max_chars, "target": list(self.mentionable)},
        }

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "type": {"const": SAY},
                "says": {"type": "string", "maxLength": self.max_chars},
                "target": {
                    "anyOf": [
                        {"type": "integer", "enum": list(self.mentionable)},
                        {"type": "string", "enum": [self.names[t] for t in self.mentionable]},
                        {"type": "null"},
                    ]
                },
                "claim": {"anyOf": [{"enum": list(ROLES)}, {"type": "null"}]},
            },
            "required": ["says"],
        }

    def describe(self) -> str:
        return (
            f'SAY: your message in "says" (up to {self.max_chars} characters); optionally '
            '"target": the player it is about, and "claim": a role you claim in public'
        )


LegalView = TargetChoice | SayChoice
