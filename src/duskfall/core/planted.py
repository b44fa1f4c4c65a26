"""Private facts a fork may tell a seat otherwise (a planted result).

The rules produce a private result (a Werewolf check of a role) from the truth. A researcher who
forks a game may want the seat told the other answer, to see what the seat, and the table, do
with a belief that is false. A variant declares which of its private events may be changed so,
in :attr:`~duskfall.core.variant.VariantInfo.private_facts` (by event kind): the payload
``field`` that holds the result, the ``values`` it may take (by the words people write), and
``believe(state, payload, value)``, which makes the game's own record of the fact (what the
seat's view shows from then on) say ``value``.

:func:`plant` applies a :class:`PrivateFact` to one produced event and its state; a fork's log
names every planted event in its header (:mod:`duskfall.store.lineage`), so replay plants the
same value where the rules produce the true one, and the god view knows it was planted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.events import Event


@dataclass(frozen=True)
class PrivateFact:
    """One kind of private result a fork may change (see the module docstring).

    * ``kind``: the event kind that tells it; ``name``: how a rule names it (``check``);
    * ``field``: the payload field changed; ``values``: accepted word (lower case) -> value
      (a JSON value: a word, a list of roles...);
    * ``believe(state, payload, value)``: the state's record of the fact set to ``value``;
    * ``flip(value)``: the other answer to a told value (default: the one other value).
    """

    kind: str
    name: str
    field: str
    values: Mapping[str, Any]
    believe: Callable[[Any, Mapping[str, Any], Any], None]
    flip: Callable[[Any], Any] | None = None

    def value_of(self, word: str, where: str) -> Any:
        """The payload value ``word`` names; ConfigError naming the words allowed."""
        value = self.values.get(word.strip().lower())
        if value is None:
            allowed = "|".join(sorted(self.values))
            shown = word.strip()[:40]
            raise ConfigError(f"{where}: {shown!r} is no {self.name} result ({allowed})")
        return value

    def word_of(self, value: Any) -> str:
        """The first word that names ``value``."""
        return next(word for word, known in self.values.items() if known == value)

    def allows(self, value: Any) -> bool:
        return any(known == value for known in self.values.values())

    def flipped(self, payload: Mapping[str, Any]) -> Any:
        """The other answer to the value ``payload`` tells (ConfigError when there is none
        single)."""
        told = payload.get(self.field)
        if self.flip is not None:
            return self.flip(told)
        others: list[Any] = []
        for value in self.values.values():
            if value != told and value not in others:
                others.append(value)
        if len(others) != 1:
            raise ConfigError(f"a {self.name} result has no single other value to flip to")
        return others[0]


def shown(value: Any) -> str:
    """A planted value in words (``Good``; a list of roles as ``VILLAGER+DOCTOR``)."""
    return "+".join(map(str, value)) if isinstance(value, list) else str(value)


def changeable(facts: Mapping[str, PrivateFact], event: Event) -> PrivateFact | None:
    """The fact of ``facts`` that ``event`` tells, if a fork may change it there: a private
    result the rules produced (never a public event, never a player's action)."""
    fact = facts.get(event.kind)
    if fact is None or event.source != "rules" or event.visibility == "public":
        return None
    return fact


def fact_of(facts: Mapping[str, PrivateFact], event: Event, where: str) -> PrivateFact:
    """The changeable fact ``event`` tells; ConfigError when it tells none."""
    fact = changeable(facts, event)
    if fact is None:
        kinds = ", ".join(sorted(facts)) or "none in this variant"
        raise ConfigError(
            f"{where}: event {event.seq} ({event.kind}) is not a private result a fork may "
            f"change ({kinds})"
        )
    return fact


def plant(fact: PrivateFact, state: Any, event: Event, value: Any) -> Event:
    """``event`` telling ``value`` instead, and ``state`` believing it (its record changed;
    ValueError when it holds no such fact)."""
    told = retold(fact, event, value)
    fact.believe(state, event.payload, value)
    return told


def retold(fact: PrivateFact, event: Event, value: Any) -> Event:
    """``event`` telling ``value`` instead (ConfigError for a value the fact cannot take)."""
    if not fact.allows(value):
        raise ConfigError(f"{shown(value)[:40]!r} is no {fact.name} result")
    return Event(
        event.kind,
        {**event.payload, fact.field: value},
        event.visibility,
        event.day,
        event.phase,
        event.seq,
        event.game_id,
        event.source,
    )
