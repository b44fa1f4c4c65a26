"""Built-in sports-mafia bots."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from duskfall.core.variant import LegalActions
from duskfall.runtime.participant import Bot


class UniformBot(Bot):
    """Picks a uniformly random legal action (the kit's baseline)."""

    name = "uniform"

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        return legal.sample(self.rng)


BOTS: dict[str, type[Bot]] = {"uniform": UniformBot, "random": UniformBot}


def make_bot(name: str, seat: int, rng: random.Random) -> Bot:
    return BOTS[name](seat, rng)
