"""Bringing a fork's bots through the prefix, as if they had played it.

A bot keeps memory between decisions and draws from its own random stream, so a bot that
joins a game at day 2 would not play as one that sat there from the start. At each whole
round of the prefix (:func:`duskfall.lab.rebuild.rebuild`), :class:`BotWarmUp` asks the fork's
bots that round's decisions exactly as the scheduler would (same order, same retries and
fallbacks) and throws the answers away: the log's actions are what happened. The fallback
stream is advanced as the parent's was, for seats that fell back in the log and are not bots
here. With the parent's agents and seed, a fork therefore replays the parent exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.events import Event
from duskfall.core.variant import State, Variant
from duskfall.lab.rounds import Round
from duskfall.runtime.handler import PhaseContext, Player, settle_bot
from duskfall.runtime.scheduler import in_asking_order
from duskfall.runtime.settings import RuntimeSettings


class BotWarmUp:
    """A :data:`~duskfall.lab.rebuild.WarmUp` for the bots among ``participants``."""

    def __init__(
        self,
        variant: Variant,
        participants: Mapping[int, Player],
        fallback_rng: random.Random,
        settings: RuntimeSettings,
        game_id: str,
    ) -> None:
        self.variant = variant
        self.participants = participants
        self.fallback_rng = fallback_rng
        self.settings = settings
        self.game_id = game_id

    def __call__(self, state: State, round_: Round, events: Sequence[Event]) -> None:
        context = PhaseContext(
            self.variant, state, self.game_id, [], self.fallback_rng, self.settings
        )
        fell_back = {event.payload.get("seat") for event in events if event.kind == kinds.FALLBACK}
        for decision in in_asking_order(state.pending()):
            player = self.participants.get(decision.seat)
            if isinstance(player, Bot):
                settle_bot(context, decision.seat, player, [], decision.kind)
            elif decision.seat in fell_back:
                state.legal(decision.seat).default(self.fallback_rng)
