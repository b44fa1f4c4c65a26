"""PettingZoo Parallel form of the environment: one step answers one decision batch.

A step takes an action for every agent; only the seats the rules are asking now (all voters
of a vote, the night roles together, or the one speaker of a speech) have theirs applied, in
ascending seat order, and every other agent's mask holds NONE alone (its action is ignored).
Observations, rewards, terminations and truncations come for every agent; when the game is
over all agents terminate at once with their rewards. Everything else is as in
:class:`~duskfall.learn.aec.DuskfallAEC` (spaces, opponents, rewards, seeding).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from duskfall.core.rng import derive_seed
from duskfall.learn.aec import agent_name, seat_of
from duskfall.learn.spaces import action_space, observation_space
from duskfall.learn.table import ObservationMode, OpponentFactory, RewardMode, Table

Obs = dict[str, np.ndarray]


class DuskfallParallel(ParallelEnv):
    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's; copied per instance
        "name": "duskfall_parallel_v0",
        "render_modes": [],
    }

    def __init__(
        self,
        variant: str = "sports-mafia",
        config: Mapping[str, Any] | None = None,
        opponents: Mapping[int, str | OpponentFactory] | None = None,
        reward: RewardMode = "win",
        illegal: Literal["raise", "fallback"] = "raise",
        observation: ObservationMode = "vector",
    ) -> None:
        self.table = Table(variant, config, opponents, reward, observation)
        self.illegal = illegal
        self.possible_agents = [agent_name(s) for s in self.table.learners]
        self.agents: list[str] = []
        self.metadata = {**self.metadata, "name": f"duskfall_{self.table.variant.id}_parallel_v0"}
        self._next_seed: int | None = None

    @functools.cache  # noqa: B019 - one space object per agent, as required
    def observation_space(self, agent: str) -> spaces.Dict:
        tokens = self.table.tokens
        vocabulary = len(tokens.vocabulary) if tokens is not None else 0
        return observation_space(self.table.obs_size, self.table.menu.size, vocabulary)

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        return action_space(self.table.menu.size)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else random.randrange(2**31)
        self._next_seed = derive_seed(seed, "reset")
        self.table.deal(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Obs]:
        table = self.table
        return {
            a: {"observation": table.features(seat_of(a)), "action_mask": table.mask(seat_of(a))}
            for a in self.agents
        }

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        batch = table.pending_learners()
        missing = [agent_name(s) for s in batch if agent_name(s) not in actions]
        if missing:
            raise ValueError(f"no action for {', '.join(missing)}: the rules are asking them")
        for seat in batch:
            if table.over:
                break
            table.play(seat, int(actions[agent_name(seat)]), self.illegal)
        observations = self._observations()
        agents = list(self.agents)
        if table.over:
            final = table.rewards()
            rewards = {a: final[seat_of(a)] for a in agents}
            terminations = dict.fromkeys(agents, True)
            self.agents = []
        else:
            rewards = dict.fromkeys(agents, 0.0)
            terminations = dict.fromkeys(agents, False)
        return (
            observations,
            rewards,
            terminations,
            dict.fromkeys(agents, False),
            {a: {} for a in agents},
        )
