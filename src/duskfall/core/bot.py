"""The synchronous base of programmatic agents (bots).

A bot is plain code: it reads the seat's observation and legal actions and returns an action.
It knows nothing of asyncio, prompts or deadlines; the runtime adapts it to the asynchronous
``Participant`` protocol (and calls it directly, without rendering prompts).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from duskfall.core.legal import LegalActions


class Bot:
    """Base of programmatic agents: implement :meth:`act`.

    Each bot is created per seat and game with its own seeded ``rng``, so games are
    reproducible; bots may keep state across decisions.
    """

    name = "bot"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        """The action for this decision (an action object, or its JSON form)."""
        raise NotImplementedError

    def describe(self) -> str:
        return self.name
