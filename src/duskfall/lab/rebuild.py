"""Rebuilding a logged game at a moment: its state, and the events that led there.

The log's events before the cut are re-applied to fresh rules (each rules event checked, as
replay does), and its rounds found on the way (:class:`~duskfall.lab.rounds.RoundFinder`: the
one deal names them, and the moment to cut at). Before each whole round of that prefix,
``warm(state, round, events)`` is told of it: a fork's bots are asked that round's decisions
there and then, so they come out of the prefix with the memory (and the random draws) of
having played it. An intervention's action is applied in place of the logged one; what the
rules make of it replaces the logged events of that action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError, IllegalAction, ReplayMismatch
from duskfall.core.events import Event
from duskfall.core.variant import State, Variant
from duskfall.lab.interventions import Replacement
from duskfall.lab.moments import Moment
from duskfall.lab.planting import Planting
from duskfall.lab.rounds import Round, RoundFinder, check_rebuildable
from duskfall.store.lineage import rules_run
from duskfall.store.log import GameLog
from duskfall.store.replay import Replayer

WarmUp = Callable[[State, Round, Sequence[Event]], None]
"""Told of each whole round of the prefix, at its start: (state, round, the round's events)."""

INTERVENTION = "intervention"  # the ``by`` of an action an intervention put in the log


@dataclass
class Rebuilt:
    """The game at the cut: ``state``, and ``prefix``: the events that led there, renumbered
    for the new game (``game_id``), the intervention's in place of the ones it replaced;
    ``rounds``: the rounds found up to the cut (the moment's too), ``moment`` the round cut
    at when one was named, ``cut`` the number of the log's events kept."""

    variant: Variant
    state: State
    prefix: list[Event]
    rounds: list[Round]
    moment: Round | None
    cut: int


def cut_after(log: GameLog, replacement: Replacement) -> int:
    """The cut right after a replaced action and the rules events the log has for it."""
    return replacement.index + 1 + rules_run(log.events, replacement.index)


def rebuild(
    log: GameLog,
    *,
    game_id: str,
    at: Moment | None = None,
    cut: int | None = None,
    warm: WarmUp | None = None,
    replacement: Replacement | None = None,
    replayer: Replayer | None = None,
    planting: Planting | None = None,
) -> Rebuilt:
    """The game of ``log`` at the round ``at`` names, else after its first ``cut`` events,
    else after its last round (module docstring); raises ConfigError for a moment it does not
    have. ``replayer`` is the log's fresh :class:`~duskfall.store.replay.Replayer` where the
    caller dealt one already (to read the seats off the deal), else one is made; ``planting``
    retells one private result of the prefix (:mod:`duskfall.lab.planting`)."""
    check_rebuildable(log)
    events = log.events
    replayer = Replayer(log.header) if replayer is None else replayer
    finder = RoundFinder(events)
    moment: Round | None = None
    prefix: list[Event] = []
    skip = 0
    for index, event in enumerate(events):
        found = finder.at(index, replayer.state)
        if found is not None and at is not None and moment is None and at.is_at(found):
            moment, cut = found, found.start
        if at is None and cut is None:
            cut = finder.end  # to the end: known once the last round is found
        if cut is not None and index >= cut:
            break
        if warm is not None and found is not None and (cut is None or found.stop <= cut):
            warm(replayer.state, found, events[found.start : found.stop])
        if skip:
            skip -= 1
            continue
        if replacement is not None and index == replacement.index:
            prefix.extend(_intervene(replayer, event, replacement))
            skip = rules_run(events, index)
            continue
        try:
            replayer.take(event)
            if planting is not None and index == planting.index:
                event = planting.apply(replayer.state, event)
        except ReplayMismatch as exc:
            if replacement is None or index < replacement.index:
                raise
            raise ConfigError(
                f"the replaced event {replacement.given} changes event {event.seq} of the game "
                f"before the fork point ({exc}); fork right after it (leave out --at)"
            ) from None
        prefix.append(event)
    if at is not None and moment is None:
        raise at.missing(finder.rounds)
    kept = len(events) if cut is None else min(cut, len(events))
    if not replayer.settled:
        raise ReplayMismatch(f"the log stops inside the events of an action at event {kept}")
    renumbered = _renumbered(prefix, game_id)
    return Rebuilt(replayer.variant, replayer.state, renumbered, finder.rounds, moment, kept)


def _intervene(replayer: Replayer, logged: Event, replacement: Replacement) -> list[Event]:
    """The intervention's action event and the rules events it produces."""
    state, seat = replayer.state, replacement.seat
    try:
        action = state.legal(seat).parse(replacement.action)
    except IllegalAction as exc:
        raise ConfigError(
            f"--replace {replacement.given}: not a legal choice there ({exc.hint})"
        ) from None
    record = Event(
        kinds.ACTION,
        {"seat": seat, "action": action.to_dict(), "by": INTERVENTION},
        logged.visibility,
        logged.day,
        logged.phase,
        source=logged.source,
    )
    return [record, *replayer.apply(seat, action, logged)]


def _renumbered(events: Sequence[Event], game_id: str) -> list[Event]:
    """Copies of ``events`` numbered from 0 and given the new game's id."""
    return [
        Event(e.kind, e.payload, e.visibility, e.day, e.phase, seq, game_id, e.source)
        for seq, e in enumerate(events)
    ]
