"""A fork's link to its parent: where it left the parent's log, and the check that it did.

A fork's log starts with a copy of its parent's events up to the moment it forked (its
*prefix*), then goes on with its own. Its header says where it came from, in ``extra["fork"]``:

* ``parent``: the parent's game id;
* ``event``: how many of the parent's events it kept (the parent's event number it left at);
* ``chain``: the parent's chain hash after those events (the ``h`` of the last kept line);
* ``prefix``: how many events of its own log are that prefix (``event``, unless an
  intervention replaced an action with one that produced another number of rules events);
* ``replaced`` (an intervention only): the parent's event number of the action it replaced;
* ``planted`` (a planted result only): ``[{"event": N, "value": V}]``: event N of the fork's
  prefix tells its seat ``V``, not what the rules told (a private fact the variant declares
  changeable, :mod:`duskfall.core.planted`); replay plants the same value there.

:func:`check_link` proves a fork's prefix is its parent's: same variant, config and deal seed,
the parent's chain hash at ``event`` as recorded, and every event of the prefix equal to the
parent's (apart from the game id), except the replaced action and the rules events it produced,
and a planted event, which must be the parent's with only its result changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError, DuskfallError, LogCorrupt
from duskfall.core.events import Event
from duskfall.core.planted import PrivateFact, changeable, retold, shown
from duskfall.core.registry import get_variant
from duskfall.store.log import GameLog, LineReader, LogHeader, log_lines

FORK_KEY = "fork"


class BrokenLink(DuskfallError):
    """A fork's prefix is not its parent's (a changed parent, or a forged fork)."""


@dataclass(frozen=True)
class Planted:
    """Event ``event`` of a fork's log tells ``value`` (see the module docstring)."""

    event: int
    value: Any  # a JSON value the variant's fact allows (a word, a list of roles)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "value": self.value}


@dataclass(frozen=True)
class ForkOrigin:
    """Where a fork left its parent (see the module docstring)."""

    parent: str
    event: int
    chain: str
    prefix: int
    replaced: int | None = None
    planted: tuple[Planted, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "parent": self.parent,
            "event": self.event,
            "chain": self.chain,
            "prefix": self.prefix,
        }
        if self.replaced is not None:
            out["replaced"] = self.replaced
        if self.planted:
            out["planted"] = [p.to_dict() for p in self.planted]
        return out

    @classmethod
    def of(cls, header: LogHeader) -> ForkOrigin | None:
        """The origin in a header, None for a game that is not a fork; LogCorrupt if the
        header's ``fork`` entry is malformed."""
        data = header.extra.get(FORK_KEY)
        if data is None:
            return None
        if not isinstance(data, dict):
            raise LogCorrupt("header: 'fork' must be an object", 0)
        parent, chain = data.get("parent"), data.get("chain")
        numbers = {key: data.get(key) for key in ("event", "prefix")}
        replaced = data.get("replaced")
        if not isinstance(parent, str) or not parent or not isinstance(chain, str):
            raise LogCorrupt("header: a fork names its parent and the parent's chain hash", 0)
        for key, value in [*numbers.items(), ("replaced", replaced)]:
            if value is None and key == "replaced":
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise LogCorrupt(f"header: fork {key!r} must be an event number", 0)
        planted = _planted(data.get("planted", []))
        return cls(parent, int(data["event"]), chain, int(data["prefix"]), replaced, planted)

    def changes(self) -> str:
        """What the fork changed in its prefix, as a clause (empty: nothing)."""
        out = "" if self.replaced is None else f", event {self.replaced} replaced"
        for planted in self.planted:
            out += f", event {planted.event} planted (its seat told {shown(planted.value)})"
        return out

    def plants(self) -> dict[int, Any]:
        """The planted values by the fork's event number."""
        return {p.event: p.value for p in self.planted}


def _planted(data: Any) -> tuple[Planted, ...]:
    """The header's ``planted`` list; LogCorrupt when malformed."""
    if not isinstance(data, list):
        raise LogCorrupt("header: fork 'planted' must be a list", 0)
    out: list[Planted] = []
    for entry in data:
        event = entry.get("event") if isinstance(entry, dict) else None
        value = entry.get("value") if isinstance(entry, dict) else None
        if not isinstance(event, int) or isinstance(event, bool) or event < 0:
            raise LogCorrupt("header: a planted fact names an event number", 0)
        if not isinstance(value, str | list) or not all(isinstance(v, str) for v in value):
            raise LogCorrupt("header: a planted fact names its value (a word or words)", 0)
        out.append(Planted(event, value))
    if len({p.event for p in out}) != len(out):
        raise LogCorrupt("header: an event is planted twice", 0)
    return tuple(out)


def chain_head(path: str | Path, events: int) -> str:
    """The chain hash of the log at ``path`` after its first ``events`` events (the header's
    hash for 0); LogCorrupt if the log is damaged before that or shorter."""
    reader = LineReader(str(path))
    if events < 0:
        raise LogCorrupt(f"{path}: no event number {events}", 0)
    for line in log_lines(path):
        if not line.endswith("\n"):
            break
        reader.take(line[:-1])
        if reader.header is not None and len(reader.events) == events:
            return reader.head
    raise LogCorrupt(f"{path}: the log has only {len(reader.events)} events, not {events}", 0)


def rules_run(events: list[Event], start: int) -> int:
    """How many rules events directly follow ``events[start]`` (those an action produced)."""
    end = start + 1
    while end < len(events) and events[end].source == "rules":
        end += 1
    return end - start - 1


@dataclass(frozen=True)
class LinkCheck:
    """What :func:`check_link` compared: the prefix's events, and the replaced ones."""

    compared: int
    replaced: int


def check_link(fork: GameLog, parent: GameLog, parent_path: str | Path) -> LinkCheck:
    """Prove ``fork``'s prefix is ``parent``'s (module docstring); raise :class:`BrokenLink`."""
    origin = ForkOrigin.of(fork.header)
    if origin is None:
        raise BrokenLink(f"game {fork.header.game_id} is not a fork")
    if parent.header.game_id != origin.parent:
        raise BrokenLink(
            f"{parent_path} is game {parent.header.game_id}, not the parent {origin.parent}"
        )
    for what in ("variant", "config", "seed"):
        if getattr(parent.header, what) != getattr(fork.header, what):
            raise BrokenLink(f"the fork's {what} differs from its parent's")
    if chain_head(parent_path, origin.event) != origin.chain:
        raise BrokenLink(
            f"the parent's log {parent_path} changed before event {origin.event}, where the "
            "fork left it (its chain hash differs from the one the fork recorded)"
        )
    if len(fork.events) < origin.prefix:
        raise BrokenLink(f"the fork's log ends inside its prefix ({origin.prefix} events)")
    ours, theirs = fork.events[: origin.prefix], parent.events[: origin.event]
    pairs = list(zip(ours, theirs, strict=False))
    replaced = 0
    if origin.replaced is not None:
        pairs, replaced = _around_replacement(ours, theirs, origin.replaced)
    elif len(ours) != len(theirs):
        raise BrokenLink("the fork's prefix and the parent's events differ in length")
    plants = origin.plants()
    if any(seq >= origin.prefix for seq in plants):
        raise BrokenLink("a planted result lies outside the fork's prefix")
    facts = get_variant(fork.header.variant).info.private_facts
    for mine, original in pairs:
        if mine.seq in plants:
            original = _retold(facts, original, plants.pop(mine.seq))
        if not mine.same_content(original) or mine.seq != original.seq:
            raise BrokenLink(
                f"event {mine.seq} of the fork's prefix differs from the parent's "
                f"({mine.kind} against {original.kind})"
            )
    if plants:
        raise BrokenLink(f"the planted event {min(plants)} is not an event the fork copied")
    return LinkCheck(len(pairs), replaced)


def _retold(facts: Mapping[str, PrivateFact], original: Event, value: Any) -> Event:
    """The parent's ``original`` event telling the fork's planted ``value``."""
    fact = changeable(facts, original)
    if fact is None:
        raise BrokenLink(f"event {original.seq} ({original.kind}) tells no result a fork may plant")
    try:
        return retold(fact, original, value)
    except ConfigError as exc:
        raise BrokenLink(f"event {original.seq}: {exc}") from None


def _around_replacement(
    ours: list[Event], theirs: list[Event], at: int
) -> tuple[list[tuple[Event, Event]], int]:
    """The event pairs that must be equal around a replaced action (renumbered after it),
    and how many events of the fork the replacement is (the action and its rules events)."""
    if not (at < len(ours) and at < len(theirs)):
        raise BrokenLink(f"the replaced event {at} is outside the fork's prefix")
    mine, original = ours[at], theirs[at]
    if mine.kind != kinds.ACTION or original.kind != kinds.ACTION:
        raise BrokenLink(f"the replaced event {at} is not an action")
    if mine.payload.get("seat") != original.payload.get("seat"):
        raise BrokenLink(f"the replaced action {at} is another seat's")
    new_run, old_run = rules_run(ours, at), rules_run(theirs, at)
    after_ours, after_theirs = ours[at + 1 + new_run :], theirs[at + 1 + old_run :]
    if len(after_ours) != len(after_theirs):
        raise BrokenLink("the fork's prefix and the parent's events differ in length")
    pairs = list(zip(ours[:at], theirs[:at], strict=True))
    shift = new_run - old_run
    for mine_event, their_event in zip(after_ours, after_theirs, strict=True):
        if mine_event.seq - shift != their_event.seq:
            raise BrokenLink(f"event {mine_event.seq} of the fork's prefix is out of place")
        pairs.append((_renumbered(mine_event, their_event.seq), their_event))
    return pairs, 1 + new_run


def _renumbered(event: Event, seq: int) -> Event:
    return Event(
        event.kind,
        event.payload,
        event.visibility,
        event.day,
        event.phase,
        seq,
        event.game_id,
        event.source,
    )
