"""Planting a private result: a fork whose seat is told the other answer.

``--set-result SEQ=VALUE`` names a private result of the parent's log (event SEQ: a Werewolf
role's check, or any event kind the variant declares changeable in
:attr:`~duskfall.core.variant.VariantInfo.private_facts`) and the value the fork's seat is told
there instead (``good`` or ``evil`` for a check). The rules computed the truth; the fork's
prefix carries the planted event in its place, its state's record of the fact is changed so
the seat's view (prompts, a bot's memory) shows what it was told, and the fork's header names
the planted event (:class:`~duskfall.store.lineage.Planted`): replay plants the same value,
the link check accepts exactly that change, and the god view marks it. The fork starts right
after the action whose events hold the result, unless ``--at`` names a later moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.planted import PrivateFact, changeable, fact_of, plant, shown
from duskfall.core.registry import get_variant
from duskfall.store.lineage import ForkOrigin, Planted, rules_run
from duskfall.store.log import GameLog

OPTION = "--set-result"


@dataclass(frozen=True)
class Planting:
    """Event ``index`` of the parent's log (a ``fact``) to be told as ``value``."""

    index: int
    fact: PrivateFact
    value: Any

    def apply(self, state: Any, event: Event) -> Event:
        """The parent's event retold, ``state`` (the game right after it) believing it."""
        try:
            return plant(self.fact, state, event, self.value)
        except ValueError as exc:
            raise ConfigError(f"{OPTION} {self.index}: {exc}") from None

    def record(self) -> Planted:
        """What the fork's header says of it (the fork's event number is the parent's)."""
        return Planted(self.index, self.value)

    def cut(self, log: GameLog) -> int:
        """The earliest cut: right after the action whose rules events hold the result."""
        action = self.index
        while action > 0 and log.events[action].source == "rules":
            action -= 1
        return action + 1 + rules_run(log.events, action)


def planting_of(text: str | None, log: GameLog, replace: str | None) -> Planting | None:
    """The request's ``--set-result`` read against ``log`` (None when not asked); one
    intervention a fork: not with ``--replace``."""
    if text is None:
        return None
    if replace is not None:
        raise ConfigError(f"give {OPTION} or --replace, not both: a fork makes one intervention")
    return parse_planting(text, log)


def parse_planting(text: str, log: GameLog) -> Planting:
    """``SEQ=VALUE`` read against ``log``; one ConfigError when SEQ is no changeable private
    result or VALUE is not one of its values."""
    number, sep, word = text.partition("=")
    if not sep or not number.strip().isdigit() or not word.strip():
        raise ConfigError(
            f"{OPTION} {text[:40]!r}: give SEQ=VALUE (a private result's event number and the "
            "answer its seat is told instead, such as 12=evil)"
        )
    index = int(number)
    return planting_at(log, index, word)


def planting_at(log: GameLog, index: int, word: str | None) -> Planting:
    """The planting of ``word`` (None: the other answer) at event ``index`` of ``log``."""
    events = log.events
    if index >= len(events):
        raise ConfigError(f"{OPTION} {index}: the log has events 0-{len(events) - 1} only")
    facts = get_variant(log.header.variant).info.private_facts
    event = events[index]
    fact = fact_of(facts, event, f"{OPTION} {index}")
    where = f"{OPTION} {index}"
    value = fact.flipped(event.payload) if word is None else fact.value_of(word, where)
    if value == event.payload.get(fact.field):
        raise ConfigError(
            f"{where}: the seat was told {shown(value)} already; plant another answer"
        )
    return Planting(index, fact, value)


def first_planting(log: GameLog, before: int) -> Planting:
    """The other answer of the first changeable private result before event ``before``."""
    facts = get_variant(log.header.variant).info.private_facts
    for index, event in enumerate(log.events[:before]):
        if changeable(facts, event) is not None:
            return planting_at(log, index, None)
    raise ConfigError(
        f"game {log.header.game_id} has no private result to flip before event {before}"
    )


def planted_in(
    parent: GameLog,
    cut: int,
    planting: Planting | None,
    replaced: tuple[int, int] | None = None,
) -> tuple[Planted, ...]:
    """What a fork of ``parent`` kept to ``cut`` says was planted in its prefix: the
    parent's own plants before the cut (a fork of a fork tells what its parent was told),
    renumbered after a replaced action (``replaced``: its index and how many events the
    replacement added), and the fork's own ``planting``."""
    origin = ForkOrigin.of(parent.header)
    out: list[Planted] = []
    for planted in () if origin is None else origin.planted:
        if planted.event >= cut:
            continue
        seq = planted.event
        if replaced is not None and seq > replaced[0]:
            end = replaced[0] + rules_run(parent.events, replaced[0])
            if seq <= end:
                continue  # the replaced action's own events are the fork's new ones
            seq += replaced[1]
        out.append(Planted(seq, planted.value))
    if planting is not None:
        out.append(planting.record())
    return tuple(sorted(out, key=lambda p: p.event))
