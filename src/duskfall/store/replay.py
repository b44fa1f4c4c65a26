"""Replay: re-apply a log's recorded actions to the rules and check every rules event matches."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import IllegalAction, ReplayMismatch
from duskfall.core.events import Event
from duskfall.core.outcome import Termination
from duskfall.core.registry import get_variant
from duskfall.core.variant import State, Variant, parse_config
from duskfall.store.log import GameLog


@dataclass
class ReplayResult:
    """The state after re-applying the log, and how much was checked."""

    variant: Variant
    state: State
    rules_events: int
    actions: int
    # rules events the last actions produced that the (cut-off) log does not have yet
    unrecorded: list[Event] = field(default_factory=list)


def _describe(event: Event) -> str:
    return f"event {event.seq} ({event.kind} {event.payload})"


def _apply(state: State, event: Event) -> list[Event]:
    """Re-apply one ``action`` event; a malformed or illegal one is a mismatch."""
    seat, action = event.payload.get("seat"), event.payload.get("action")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(action, dict):
        raise ReplayMismatch(f"{_describe(event)} is not a well-formed action")
    try:
        return state.apply(seat, action)
    except IllegalAction as exc:
        raise ReplayMismatch(f"{_describe(event)} is refused by the rules: {exc}") from None


def new_state_for(log: GameLog) -> tuple[Variant, State]:
    """A fresh state for the log's variant, config and seed."""
    variant = get_variant(log.header.variant)
    config = parse_config(variant, log.header.config)
    return variant, variant.new_game(config, log.header.seed)


PROGRESS_EVERY = 1000  # events between two progress reports


def replay(log: GameLog, progress: Callable[[int], None] | None = None) -> ReplayResult:
    """Re-apply every ``action`` event; raise :class:`ReplayMismatch` on any difference.

    Works on a partial log too (a crashed game): it stops at the last recorded event.
    ``progress(n)`` is told of every ``PROGRESS_EVERY`` events checked, and of the rest at the end.
    """
    variant, state = new_state_for(log)
    produced: deque[Event] = deque(state.opening_events())
    checked = actions = 0
    for number, event in enumerate(log.events, 1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(PROGRESS_EVERY)
        if event.source == "rules":
            if not produced:
                raise ReplayMismatch(f"{_describe(event)} was not produced by the rules")
            expected = produced.popleft()
            if not expected.same_content(event):
                raise ReplayMismatch(
                    f"{_describe(event)} differs from the rules' {expected.kind} {expected.payload}"
                )
            checked += 1
        elif event.kind == kinds.ACTION:
            if produced:
                raise ReplayMismatch(
                    f"the rules produced {produced[0].kind} before {_describe(event)}, "
                    "but the log does not have it"
                )
            produced.extend(_apply(state, event))
            actions += 1
        elif (
            event.kind == kinds.GAME_OVER
            and event.payload.get("termination") != Termination.ABORTED
        ):
            outcome = state.outcome()
            if outcome is None or outcome.to_dict() != {
                k: event.payload.get(k) for k in ("winner", "termination", "reason")
            }:
                raise ReplayMismatch(f"{_describe(event)} but the rules give {outcome}")
    if produced and log.finished:
        raise ReplayMismatch(f"the rules produced {produced[0].kind} that the log does not have")
    if progress is not None:
        progress(len(log.events) % PROGRESS_EVERY)
    return ReplayResult(variant, state, checked, actions, list(produced))
