"""Replay: re-apply a log's recorded actions to the rules and check every rules event matches.

:func:`replay` checks a whole log; :class:`Replayer` does the same one event at a time, for
code that must stop or look at the state between events (a fork rebuilding a game at a
moment, a line of estimates from each phase boundary).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError, IllegalAction, ReplayMismatch
from duskfall.core.events import Event
from duskfall.core.outcome import Termination
from duskfall.core.planted import changeable, plant
from duskfall.core.registry import get_variant
from duskfall.core.variant import State, Variant, parse_config
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import GameLog, LogHeader


@dataclass
class ReplayResult:
    """The state after re-applying the log, and how much was checked."""

    variant: Variant
    state: State
    rules_events: int
    actions: int
    # rules events the last actions produced that the (cut-off) log does not have yet
    unrecorded: list[Event] = field(default_factory=list)


def describe_event(event: Event) -> str:
    return f"event {event.seq} ({event.kind} {event.payload})"


def recorded_action(event: Event) -> tuple[int, dict[str, object]]:
    """The seat and action of an ``action`` event; a malformed one is a mismatch."""
    seat, action = event.payload.get("seat"), event.payload.get("action")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(action, dict):
        raise ReplayMismatch(f"{describe_event(event)} is not a well-formed action")
    return seat, action


def new_state_for(log: GameLog | LogHeader) -> tuple[Variant, State]:
    """A fresh state for the log's (or header's) variant, config and seed."""
    header = log.header if isinstance(log, GameLog) else log
    variant = get_variant(header.variant)
    config = parse_config(variant, header.config)
    return variant, variant.new_game(config, header.seed)


class Replayer:
    """Re-applies a game's events one at a time (:meth:`take`), checking each rules event
    against what the rules produce; :attr:`state` is the game after the events taken."""

    def __init__(self, header: LogHeader) -> None:
        self.variant, self.state = new_state_for(header)
        origin = ForkOrigin.of(header)
        # a fork's planted results (its prefix only): the rules' event there tells this value
        self.plants = (
            {}
            if origin is None
            else {seq: value for seq, value in origin.plants().items() if seq < origin.prefix}
        )
        self.produced: deque[Event] = deque(self.state.opening_events())
        self.rules_events = 0
        self.actions = 0

    @property
    def settled(self) -> bool:
        """Whether every rules event the actions so far produced has been taken."""
        return not self.produced

    def take(self, event: Event) -> None:
        """Check (a rules event), re-apply (an action) or pass over (anything else) ``event``."""
        if event.source == "rules":
            if not self.produced:
                raise ReplayMismatch(f"{describe_event(event)} was not produced by the rules")
            expected = self.produced.popleft()
            if event.seq in self.plants:
                expected = self._planted(expected, self.plants[event.seq])
            if not expected.same_content(event):
                raise ReplayMismatch(
                    f"{describe_event(event)} differs from the rules' "
                    f"{expected.kind} {expected.payload}"
                )
            self.rules_events += 1
        elif event.kind == kinds.ACTION:
            seat, action = recorded_action(event)
            self.produced.extend(self.apply(seat, action, event))
        elif (
            event.kind == kinds.GAME_OVER
            and event.payload.get("termination") != Termination.ABORTED
        ):
            outcome = self.state.outcome()
            if outcome is None or outcome.to_dict() != {
                k: event.payload.get(k) for k in ("winner", "termination", "reason")
            }:
                raise ReplayMismatch(f"{describe_event(event)} but the rules give {outcome}")

    def _planted(self, produced: Event, value: Any) -> Event:
        """The rules' event ``produced`` telling the fork's planted ``value``, and the state
        believing it; a mismatch when it is no private result the variant lets a fork change."""
        fact = changeable(self.variant.info.private_facts, produced)
        if fact is None:
            raise ReplayMismatch(
                f"the fork plants a result in a {produced.kind} event, which tells none"
            )
        try:
            return plant(fact, self.state, produced, value)
        except (ConfigError, ValueError) as exc:
            raise ReplayMismatch(f"the fork's planted {fact.name} result: {exc}") from None

    def apply(self, seat: int, action: object, event: Event) -> list[Event]:
        """Apply ``action`` for ``seat`` (recorded by ``event``) once every rules event the
        previous actions produced has been taken; returns the rules events it produces."""
        if self.produced:
            raise ReplayMismatch(
                f"the rules produced {self.produced[0].kind} before {describe_event(event)}, "
                "but the log does not have it"
            )
        try:
            produced = self.state.apply(seat, action)
        except IllegalAction as exc:
            raise ReplayMismatch(
                f"{describe_event(event)} is refused by the rules: {exc}"
            ) from None
        self.actions += 1
        return produced

    def result(self) -> ReplayResult:
        return ReplayResult(
            self.variant, self.state, self.rules_events, self.actions, list(self.produced)
        )


PROGRESS_EVERY = 1000  # events between two progress reports


def replay(log: GameLog, progress: Callable[[int], None] | None = None) -> ReplayResult:
    """Re-apply every ``action`` event; raise :class:`ReplayMismatch` on any difference.

    Works on a partial log too (a crashed game): it stops at the last recorded event.
    ``progress(n)`` is told of every ``PROGRESS_EVERY`` events checked, and of the rest at the end.
    """
    replayer = Replayer(log.header)
    for number, event in enumerate(log.events, 1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(PROGRESS_EVERY)
        replayer.take(event)
    if replayer.produced and log.finished:
        raise ReplayMismatch(
            f"the rules produced {replayer.produced[0].kind} that the log does not have"
        )
    if progress is not None:
        progress(len(log.events) % PROGRESS_EVERY)
    return replayer.result()
