"""The scheduler: walks a game's decisions, asks participants through its handler, applies results.

Each round it takes the state's pending decisions, groups them by kind (sub-phase), asks
each group through :class:`AskHandler`, applies the actions
it returns in ascending seat order (each marked ``by`` the agent or the fallback, as the
handler says), and records everything in the :class:`GameRecord`. Simultaneous decisions
are asked concurrently. It can be paused between rounds. A seat that fails
``settings.seat_failures`` decisions in a row stops the game as aborted, unless
``settings.on_seat_failure`` is ``"fallback"`` (:mod:`duskfall.runtime.failures`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.rng import derive_rng
from duskfall.core.variant import Decision, State, Variant
from duskfall.runtime.failures import FailureStreaks
from duskfall.runtime.handler import (
    AskHandler,
    Handler,
    HandlerResult,
    PhaseContext,
    Player,
    settle_bot,
)
from duskfall.runtime.participant import describe_player
from duskfall.runtime.pausing import Pausable
from duskfall.runtime.record import GameRecord, action_event
from duskfall.runtime.seen import SeenEvents
from duskfall.runtime.settings import RuntimeSettings


class Scheduler(Pausable):
    """Runs one game to its end."""

    def __init__(
        self,
        variant: Variant,
        state: State,
        participants: Mapping[int, Player],
        record: GameRecord,
        *,
        seed: int,
        settings: RuntimeSettings | None = None,
    ) -> None:
        self.variant = variant
        self.state = state
        self.participants = dict(participants)
        self.record = record
        self.settings = settings or RuntimeSettings()
        self.handler: Handler = AskHandler()
        self.fallback_rng = derive_rng(seed, "fallback")
        # neither callable refers back to the scheduler: a finished game is then freed as
        # soon as its last reference goes, not by the cyclic garbage collector, which would
        # otherwise move every game into the oldest generation and scan the whole heap
        self.seen = SeenEvents(_events_of(record), state.channels)
        self._init_pausing()
        self.started = False
        self.failures = FailureStreaks(
            self.settings.seat_failures, functools.partial(_describe_seat, self.participants)
        )
        self.stop_reason: str | None = None  # set when a failing seat stops the game
        # every seat a bot: every round takes the fast path
        self._all_bots = all(isinstance(p, Bot) for p in self.participants.values())
        # what bots are settled with (they read no decisions list: one context serves all)
        self._bots_context = self._context([])

    def start(self) -> None:
        """Record the opening events (called by :meth:`run` unless resuming from a log)."""
        if not self.started:
            self.started = True
            self.record.extend(self.state.opening_events())

    async def step(self) -> bool:
        """Settle one round of pending decisions; False once the game is over (or must stop:
        :attr:`stop_reason`)."""
        if self._all_bots:
            return self.step_bots()
        pending = self._next_round()
        if pending is None:
            return False
        phase_before = self.state.phase
        groups = _grouped(pending)
        if self._bots_only(groups):  # bots never fail a decision: no streak to note
            self._play_bots(pending)
            return self._round_end(phase_before, None)
        results = await self._ask(groups)
        self._apply(results)
        return self._round_end(phase_before, self.failures.note(results))

    def step_bots(self) -> bool:
        """:meth:`step` in a game whose every seat is a bot (nothing to wait for, so it runs
        without a coroutine); bots never fail a decision (a raising bot falls back)."""
        pending = self._next_round()
        if pending is None:
            return False
        phase_before = self.state.phase
        self._play_bots(pending)
        return self._round_end(phase_before, None)

    def _next_round(self) -> Sequence[Decision] | None:
        """The pending decisions, or None if the game is over or must stop."""
        state = self.state
        if state.outcome() is not None or self.stop_reason is not None:
            return None
        pending = state.pending()
        if not pending:
            raise RuntimeError(f"{self.variant.id}: no pending decision but no outcome")
        return pending

    def _round_end(self, phase_before: str, failing: str | None) -> bool:
        """Close a settled round: the phase's end, if it ended; whether to go on."""
        state = self.state
        outcome = state.outcome()
        if outcome is not None or state.phase != phase_before:
            self.record.phase_end()
        if outcome is not None:
            return False
        if failing is not None and self.settings.on_seat_failure == "abort":
            self.stop_reason = failing
            return False
        return True

    def _context(self, decisions: list[Decision]) -> PhaseContext:
        return PhaseContext(
            self.variant,
            self.state,
            self.record.game_id,
            decisions,
            self.fallback_rng,
            self.settings,
            self.seen,
            self.record.tails,
        )

    def _bots_only(self, groups: dict[str, list[Decision]]) -> bool:
        """Whether every pending seat is a bot."""
        participants = self.participants
        return all(isinstance(participants[seat], Bot) for seat in _seats(groups))

    def _play_bots(self, pending: Sequence[Decision]) -> None:
        """A round in which every pending seat is a bot: what
        :class:`AskHandler` does for bots (each asked in turn, kind by kind), then the actions
        applied as :meth:`_apply` does, without a coroutine, task or handler result."""
        context = self._bots_context
        participants = self.participants
        log: list[Event] = []
        actions: dict[int, tuple[Any, str]] = {}
        for decision in in_asking_order(pending):
            seat = decision.seat
            bot = participants[seat]
            assert isinstance(bot, Bot)
            answer = settle_bot(context, seat, bot, log, decision.kind)
            actions[seat] = (answer.action, answer.by)
        if log:
            self.record.extend(log)
        self._apply_actions(actions)

    async def _ask(self, groups: dict[str, list[Decision]]) -> list[HandlerResult]:
        """Each group's answers from its handler; the groups are asked concurrently."""
        calls = [
            self.handler(
                self._context(decisions),
                [(d.seat, self.participants[d.seat]) for d in decisions],
            )
            for kind, decisions in groups.items()
        ]
        return [await calls[0]] if len(calls) == 1 else list(await asyncio.gather(*calls))

    def _apply(self, results: list[HandlerResult]) -> None:
        """Record the handlers' events, then apply the actions in ascending seat order."""
        record = self.record
        actions: dict[int, tuple[Any, str]] = {}
        for result in results:
            if result.subphase_log:
                record.extend(result.subphase_log)
            for seat, action in result.actions.items():
                actions[seat] = (action, "fallback" if seat in result.fallbacks else "agent")
        self._apply_actions(actions)

    def _apply_actions(self, actions: dict[int, tuple[Any, str]]) -> None:
        """Apply (action, by) per seat in ascending seat order, each recorded before its
        events; stops at the end of the game."""
        state, record = self.state, self.record
        heard = record.heard
        for seat in sorted(actions) if len(actions) > 1 else actions:
            action, by = actions[seat]
            record.actions += 1
            if heard:
                record.add(action_event(state, seat, action, by))
                record.extend(state.apply(seat, action))
            else:  # nobody receives events: the action's record is not even built
                record.pass_unheard(1 + len(state.apply(seat, action)))
            if state.outcome() is not None:
                break

    async def run(self) -> Outcome:
        """Play to the end and return the outcome (recorded as a ``game_over`` event)."""
        self.start()
        running, bots = self.running, self._all_bots
        while True:
            if not running.is_set():
                await running.wait()
            if not (self.step_bots() if bots else await self.step()):
                break
        return self.conclude()

    def conclude(self) -> Outcome:
        """Record the end once :meth:`step` returned False: the game's outcome, or an abort
        for the seat that kept failing."""
        if self.stop_reason is not None:
            return self.abort(self.stop_reason)
        outcome = self.state.outcome()
        assert outcome is not None
        self.finish(outcome)
        return outcome

    def finish(self, outcome: Outcome) -> None:
        self.record.add(game_over_event(self.state, outcome))
        self.record.phase_end()
        self.record.game_end(outcome)

    def abort(self, reason: str) -> Outcome:
        outcome = Outcome(None, Termination.ABORTED, reason)
        self.finish(outcome)
        return outcome


def _grouped(pending: Sequence[Decision]) -> dict[str, list[Decision]]:
    """Pending decisions by kind (sub-phase), kinds in order of first appearance."""
    groups: dict[str, list[Decision]] = {}
    for decision in pending:
        groups.setdefault(decision.kind, []).append(decision)
    return groups


def in_asking_order(pending: Sequence[Decision]) -> Sequence[Decision]:
    """The decisions as the handlers would ask them: kind by kind (:func:`_grouped`)."""
    kind = pending[0].kind
    if all(decision.kind == kind for decision in pending):
        return pending
    return [decision for group in _grouped(pending).values() for decision in group]


def _events_of(record: GameRecord) -> Callable[[], list[Event]]:
    return lambda: record.events


def _describe_seat(participants: Mapping[int, Player], seat: int) -> str:
    return describe_player(participants[seat])


def _seats(groups: dict[str, list[Decision]]) -> Iterator[int]:
    return (decision.seat for decisions in groups.values() for decision in decisions)


def game_over_event(state: State, outcome: Outcome) -> Event:
    return Event(
        kinds.GAME_OVER,
        outcome.to_dict(),
        "admin" if outcome.termination is Termination.ABORTED else "public",
        state.day,
        state.phase,
        source="runtime",
    )
