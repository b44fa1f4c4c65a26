"""Bringing a fork's seats through the prefix, as if they had played it.

A bot keeps memory between decisions and draws from its own random stream, so a bot that
joins a game at day 2 would not play as one that sat there from the start. At each whole
round of the prefix (:func:`duskfall.lab.rebuild.rebuild`), :class:`BotWarmUp` asks the fork's
bots that round's decisions exactly as the scheduler would (same order, same retries and
fallbacks) and throws the answers away: the log's actions are what happened.

A model seat (one that can :meth:`~Reliving.relive`, such as the ``llm`` agent) keeps a
conversation and counts its calls: for each of its model calls the round's log holds, it is
handed the prompts the runtime would have handed it (the seat's history as it stood, the
refusal's hint on a re-ask) and the reply the log recorded, and makes no call. Its
conversation, notes and call count then stand as the parent's did, and whether the messages
it built are the logged ones is counted (:attr:`BotWarmUp.relived`, :attr:`BotWarmUp.unmatched`).

The fallback stream is advanced as the parent's was, for seats that fell back in the log and
are not bots here. With the parent's agents and seed, a fork therefore replays the parent.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.events import Event
from duskfall.core.variant import State, Variant
from duskfall.lab.rounds import Round
from duskfall.runtime.handler import PhaseContext, Player, decision_prompts, settle_bot
from duskfall.runtime.participant import DecisionRequest, Participant
from duskfall.runtime.scheduler import in_asking_order
from duskfall.runtime.seen import SeenEvents
from duskfall.runtime.settings import RuntimeSettings

BELIEFS = "beliefs"  # the ``decision`` of a beliefs call, asked beside a decision's first


@runtime_checkable
class Reliving(Protocol):
    """A participant that can go through a logged attempt without playing it."""

    def relive(
        self,
        system_prompt: str,
        user_prompt: str,
        request: DecisionRequest,
        reply: str | None,
        sent: Sequence[Mapping[str, str]] | None = None,
    ) -> bool: ...


class BotWarmUp:
    """A :data:`~duskfall.lab.rebuild.WarmUp` for the bots and model seats among
    ``participants``; ``history`` is the parent's events (the model seats' prompts are built
    from what their seat had seen of them)."""

    def __init__(
        self,
        variant: Variant,
        participants: Mapping[int, Player],
        fallback_rng: random.Random,
        settings: RuntimeSettings,
        game_id: str,
        history: Sequence[Event] = (),
    ) -> None:
        self.variant = variant
        self.participants = participants
        self.fallback_rng = fallback_rng
        self.settings = settings
        self.game_id = game_id
        self.history = history
        self.relived = 0  # model calls gone through
        self.unmatched: list[int] = []  # seqs of logged calls whose messages came out otherwise
        self._shown: list[Event] = []
        self._seen: SeenEvents | None = None

    def __call__(self, state: State, round_: Round, events: Sequence[Event]) -> None:
        context = PhaseContext(
            self.variant, state, self.game_id, [], self.fallback_rng, self.settings
        )
        fell_back = {event.payload.get("seat") for event in events if event.kind == kinds.FALLBACK}
        for decision in in_asking_order(state.pending()):
            player = self.participants.get(decision.seat)
            if isinstance(player, Bot):
                settle_bot(context, decision.seat, player, [], decision.kind)
                continue
            if isinstance(player, Reliving) and player is not None:
                context.seen = self._seen_until(state, round_.start)
                self._relive(context, decision.seat, player, decision.kind, events)
            if decision.seat in fell_back:
                state.legal(decision.seat).default(self.fallback_rng)

    def _seen_until(self, state: State, start: int) -> SeenEvents:
        """What each seat had been shown by the parent's event ``start``."""
        self._shown.extend(self.history[len(self._shown) : start])
        if self._seen is None:
            self._seen = SeenEvents(self._shown, state.channels)
        return self._seen

    def _relive(
        self, context: PhaseContext, seat: int, player: Reliving, kind: str, events: Sequence[Event]
    ) -> None:
        """The seat's logged model calls of this round, gone through in order."""
        hints: dict[Any, Any] = {
            e.payload.get("attempt"): e.payload.get("error")
            for e in events
            if e.kind == kinds.INVALID_ACTION and e.source == "runtime"
            if e.payload.get("seat") == seat
        }
        for event in events:
            call = event.payload
            if event.kind != kinds.LLM_CALL or call.get("seat") != seat:
                continue
            if call.get("decision") == BELIEFS:
                continue
            attempt = int(call.get("attempt") or 0)
            hint = hints.get(attempt - 1) if attempt else None
            system, user, request = decision_prompts(
                context, seat, cast(Participant, player), kind, attempt, hint
            )
            reply = None if "error" in call else call.get("reply")
            self.relived += 1
            if not player.relive(system, user, request, reply, call.get("messages")):
                self.unmatched.append(event.seq)
