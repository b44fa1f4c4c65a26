"""A trained policy as a bot: ``--agents trained:PATH`` (a checkpoint of ``duskfall train``).

The bot builds the same observation vector and mask as the environment (from its seat's
``observe`` only), draws an entry from the policy with its own seeded ``rng`` and turns it
into the variant's action, so it plays by the same rules as any other agent. Checkpoints of
the seed-001 policy search (``kind: seed001-params``) load here too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from duskfall.core.bot import Bot
from duskfall.core.encoding import MORE
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.learn import require
from duskfall.learn.encoders import encoder_for
from duskfall.learn.games import VARIANT
from duskfall.learn.policy import LinearPolicy, N, read_checkpoint


class TrainedBot(Bot):
    """Plays a sports-mafia seat with a :class:`~duskfall.learn.policy.LinearPolicy`."""

    name = "trained"

    def __init__(self, seat: int, rng: random.Random, policy: LinearPolicy) -> None:
        super().__init__(seat, rng)
        self.policy = policy
        self.encoder = encoder_for(get_variant(VARIANT), N, seat)

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any:
        encoder = self.encoder
        while True:
            features = encoder.features(observation)
            index = self.policy.choose(features, encoder.mask(legal, observation), self.rng)
            action = encoder.action(legal, observation, index)
            if action is not MORE:
                return action


@cache
def load_policy(path: str) -> Any:
    """The policy in a checkpoint (read once per process)."""
    require()
    data = read_checkpoint(path)
    if data.get("variant") != "sports-mafia":
        raise ConfigError(
            f"{path} holds a {data.get('variant')} policy; only sports-mafia is trained"
        )
    if data.get("kind") == "seed001-params":
        from duskfall.learn.search import SearchedParams

        return SearchedParams.load(path)
    return LinearPolicy.load(path)


def trained_bot(path: str | Path, seat: int, rng: random.Random) -> Bot:
    policy = load_policy(str(path))
    if isinstance(policy, LinearPolicy):
        return TrainedBot(seat, rng, policy)
    return policy.bot()(seat, rng)


def make_trained_agent(ctx: Any) -> Bot:
    """Agent factory for ``trained:PATH`` (``ctx`` is the runtime's AgentContext)."""
    if ctx.variant.id != "sports-mafia":
        raise ConfigError(f"trained policies play sports-mafia, not {ctx.variant.id}")
    return trained_bot(ctx.arg, ctx.seat, ctx.rng)
