"""The ``duskfall`` command line with one more agent kind, ``slow:MS``: the variant's random bot
waiting MS milliseconds before each decision, so that a game runs long enough to be killed."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from duskfall.agents.kinds import AgentContext, register_agent_kind
from duskfall.cli import main
from duskfall.core.bot import Bot
from duskfall.runtime.participant import BaseParticipant, DecisionRequest


class SlowBot(BaseParticipant):
    """Plays a bot after a pause."""

    renders_prompts = False

    def __init__(self, bot: Bot, delay: float) -> None:
        self.bot = bot
        self.delay = delay

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        await asyncio.sleep(self.delay)
        return self.bot.act(request.observation, request.legal)


def make_slow(context: AgentContext) -> SlowBot:
    bot = context.variant.bots()["random"](context.seat, context.rng)
    return SlowBot(bot, float(context.arg) / 1000)


if __name__ == "__main__":
    register_agent_kind("slow", make_slow, "slow:MS")
    sys.argv[0] = "duskfall"
    main()
