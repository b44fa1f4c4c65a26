"""PettingZoo AEC environment for any duskfall variant.

``DuskfallAEC("werewolf", {"preset": "werewolf-9"})`` has one agent per seat (``seat_0``...);
``opponents={3: "heuristic"}`` plays seat 3 by a built-in bot instead (or any
``factory(seat, rng)``), so a learner can face the bots. Each agent observes
``{"observation": float32 vector, "action_mask": int8 vector}`` (the variant's encoder,
:mod:`.encoders`, built from the seat's ``observe`` only) and acts with an index of the menu
(:class:`~duskfall.core.encoding.Menu`). Seats that are
dead stay agents until the game ends (they are never selected). Rewards come at the end
(:class:`~duskfall.learn.table.Table`). ``reset(seed=s)`` deals the game of seed ``s``;
``reset()`` after that deals a seed derived from the last one
(:func:`~duskfall.core.rng.derive_seed`:
never ``s+1``, so one game's seed does not give the next), and before any seed a fresh random one.
``observation="tokens"`` observes token ids instead, for a variant that declares them (sports
mafia).
An index outside the mask raises ValueError naming the legal ones (``illegal="fallback"``
plays the rules' documented fallback instead).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from duskfall.core.rng import derive_seed
from duskfall.learn.spaces import action_space, observation_space
from duskfall.learn.table import ObservationMode, OpponentFactory, RewardMode, Table


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.removeprefix("seat_"))


class DuskfallAEC(AECEnv):
    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's attribute, per instance below
        "name": "duskfall_aec_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "sports-mafia",
        config: Mapping[str, Any] | None = None,
        opponents: Mapping[int, str | OpponentFactory] | None = None,
        reward: RewardMode = "win",
        illegal: Literal["raise", "fallback"] = "raise",
        observation: ObservationMode = "vector",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(variant, config, opponents, reward, observation)
        self.illegal = illegal
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in self.table.learners]
        self.metadata = {**self.metadata, "name": f"duskfall_{self.table.variant.id}_aec_v0"}
        self._next_seed: int | None = None
        self._cache: dict[str, dict[str, np.ndarray]] = {}

    @functools.cache  # noqa: B019 - one space object per agent, as required
    def observation_space(self, agent: str) -> spaces.Dict:
        tokens = self.table.tokens
        vocabulary = len(tokens.vocabulary) if tokens is not None else 0
        return observation_space(self.table.obs_size, self.table.menu.size, vocabulary)

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        return action_space(self.table.menu.size)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else random.randrange(2**31)
        self._next_seed = derive_seed(seed, "reset")
        self.table.deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        self._after_move()

    def _after_move(self) -> None:
        """Select the next seat to move, or end the game for everybody."""
        self._cache = {}
        table = self.table
        if table.over:
            final = table.rewards()
            for agent in self.agents:
                self.rewards[agent] = final[seat_of(agent)]
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0] if self.agents else ""
            return
        seat = table.to_move()
        assert seat is not None
        self.agent_selection = agent_name(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        cached = self._cache.get(agent)
        if cached is None:
            seat = seat_of(agent)
            cached = {
                "observation": self.table.features(seat),
                "action_mask": self.table.mask(seat),
            }
            self._cache[agent] = cached
        return cached

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        self.table.play(seat_of(agent), int(action), self.illegal)
        self._after_move()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.table.state
        outcome = state.outcome()
        status = f"over: {outcome.winner or 'draw'}" if outcome else f"to move: {state.pending()}"
        return f"{self.table.variant.id} day {state.day} {state.phase}; {status}"

    def close(self) -> None:
        pass
