"""Who plays a remote seat whose client is silent past its deadline or gone for good.

:class:`Policy` is the server's choice (``--stand-in``): the rules' fallback
(:class:`FallbackPlayer`) or a built-in bot of the variant. :func:`make_stand_in` builds the
player for one seat with its own seeded random source.
"""

from __future__ import annotations

import random
from enum import StrEnum

from duskfall.core.rng import derive_rng
from duskfall.core.variant import Variant
from duskfall.runtime.participant import (
    BaseParticipant,
    BotParticipant,
    DecisionRequest,
    Participant,
    SeatAnswer,
)


class Policy(StrEnum):
    """What plays a seat whose client is silent past its deadline or gone."""

    FALLBACK = "fallback"  # the rules' documented default action
    BOT = "bot"  # a built-in bot of the variant


class FallbackPlayer(BaseParticipant):
    """Plays the rules' fallback: abstain or skip where legal, else a seeded random action."""

    renders_prompts = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer:
        return request.legal.default(self.rng)

    def describe(self) -> str:
        return "fallback"


def make_stand_in(
    variant: Variant, seat: int, *, seed: int, policy: Policy, bot: str
) -> Participant:
    """The stand-in of ``seat`` under ``policy`` (``bot`` names the variant's bot to use)."""
    rng = derive_rng(seed, f"stand-in:{seat}")
    if policy is Policy.BOT:
        player: Participant = BotParticipant(variant.bots()[bot](seat, rng))
        return player
    return FallbackPlayer(rng)
