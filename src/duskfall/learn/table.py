"""One game driven by index actions: the engine side shared by the AEC and Parallel envs.

A :class:`Table` deals a game of a variant, plays the seats given to built-in bots (or any
other policy, see :class:`SeatPolicy`) itself, and stops whenever a *learner* seat must
decide. Decisions asked of several seats at once (votes, night roles) are answered one at a
time in ascending seat order, as the runtime's ``apply_all`` does; nobody sees another seat's
answer before the rules resolve the batch. Rewards (:func:`rewards`) are +1 for a win, -1 for
a loss and 0 for a draw, given only when the game is over; the ``shaped`` option adds
``0.5 * (share of the other side dead - share of one's own side dead)`` at the end (a
shaped reward, documented as such: still nothing before the end, so it leaks no hidden role).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol

import numpy as np
from pydantic import BaseModel

from duskfall.core.encoding import MORE, none_only
from duskfall.core.errors import ConfigError
from duskfall.core.learning import SeatEncoder, TokenEncoding
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import State, Variant, parse_config
from duskfall.learn.encoders import encoder_for, tokens_of

RewardMode = Literal["win", "shaped"]
ObservationMode = Literal["vector", "tokens"]


class SeatPolicy(Protocol):
    """Anything that plays a seat: ``act(observation, legal) -> action`` (bots do)."""

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any: ...


OpponentFactory = Callable[[int, random.Random], SeatPolicy]


def variant_and_config(
    variant_id: str, config: Mapping[str, Any] | None
) -> tuple[Variant, BaseModel]:
    return (variant := get_variant(variant_id)), parse_config(variant, config)


class Table:
    """A game in progress with some seats played by learners and the others by opponents."""

    def __init__(
        self,
        variant_id: str,
        config: Mapping[str, Any] | None = None,
        opponents: Mapping[int, str | OpponentFactory] | None = None,
        reward: RewardMode = "win",
        observation: ObservationMode = "vector",
    ) -> None:
        if reward not in ("win", "shaped"):
            raise ConfigError(f"reward must be 'win' or 'shaped', not {reward!r}")
        if observation not in ("vector", "tokens"):
            raise ConfigError(f"observation must be 'vector' or 'tokens', not {observation!r}")
        self.observation_mode = observation
        self.variant, self.config = variant_and_config(variant_id, config)
        self.tokens: TokenEncoding | None = (
            tokens_of(self.variant) if observation == "tokens" else None
        )
        probe = self.variant.new_game(self.config, 0)
        self.num_seats = probe.num_seats
        self.reward_mode = reward
        self.opponent_specs = dict(opponents or {})
        bots = self.variant.bots()
        for seat, spec in self.opponent_specs.items():
            if not 0 <= seat < self.num_seats:
                raise ConfigError(f"seat {seat} does not exist (seats are 0-{self.num_seats - 1})")
            if isinstance(spec, str) and spec not in bots:
                raise ConfigError(
                    f"unknown bot {spec!r} for {self.variant.id}; bots: {', '.join(bots)}"
                )
        self.learners = [s for s in range(self.num_seats) if s not in self.opponent_specs]
        self.encoders: list[SeatEncoder] = [
            encoder_for(self.variant, self.num_seats, s) for s in range(self.num_seats)
        ]
        self.menu = self.encoders[0].menu
        self.obs_size = self.encoders[0].size if self.tokens is None else self.tokens.max_tokens
        self._seen: dict[int, Mapping[str, Any]] = {}
        self.state: State = probe
        self.seed = 0
        self.opponents: dict[int, SeatPolicy] = {}
        self.batch: list[int] = []

    # -- the game ------------------------------------------------------------------------

    def deal(self, seed: int) -> None:
        self.seed = seed
        self.state = self.variant.new_game(self.config, seed)
        self.encoders = [
            encoder_for(self.variant, self.num_seats, s) for s in range(self.num_seats)
        ]
        bots = self.variant.bots()
        self.opponents = {}
        for seat, spec in self.opponent_specs.items():
            factory = bots[spec] if isinstance(spec, str) else spec
            self.opponents[seat] = factory(seat, derive_rng(seed, f"agent:{seat}"))
        self.batch = []
        self._seen = {}
        self.advance()

    @property
    def over(self) -> bool:
        return self.state.outcome() is not None

    def observe(self, seat: int) -> Mapping[str, Any]:
        """``observe(seat)`` of the state as it is now (kept until the state changes)."""
        seen = self._seen.get(seat)
        if seen is None:
            seen = self._seen[seat] = self.state.observe(seat)
        return seen

    def advance(self) -> None:
        """Play opponents' decisions until a learner must decide or the game is over."""
        self._seen = {}
        state = self.state
        while state.outcome() is None:
            if not self.batch:
                self.batch = sorted(d.seat for d in state.pending())
                if not self.batch:
                    raise RuntimeError("the rules asked nobody to decide")  # pragma: no cover
            seat = self.batch[0]
            player = self.opponents.get(seat)
            if player is None:
                return
            legal = state.legal(seat)
            state.apply(seat, legal.parse(player.act(state.observe(seat), legal)))
            self.batch.pop(0)

    def pending_learners(self) -> list[int]:
        """Learner seats of the current batch that still have to answer."""
        return [s for s in self.batch if s not in self.opponents] if not self.over else []

    def to_move(self) -> int | None:
        return self.batch[0] if self.batch and not self.over else None

    def play(self, seat: int, index: int, illegal: Literal["raise", "fallback"] = "raise") -> None:
        """Apply learner ``seat``'s menu choice ``index`` (it must be the next to answer)."""
        if self.to_move() != seat:
            raise ValueError(f"seat {seat} is not the seat to move ({self.to_move()})")
        legal = self.state.legal(seat)
        obs = self.observe(seat)
        mask = self.encoders[seat].mask(legal, obs)
        if not 0 <= int(index) < len(mask) or not mask[int(index)]:
            if illegal == "raise":
                legal_ids = [int(i) for i in np.flatnonzero(mask)]
                raise ValueError(
                    f"action {index} is not legal for seat {seat} ({legal.kind}); "
                    f"legal: {legal_ids}"
                )
            action = legal.default(derive_rng(self.seed, f"fallback:{seat}"))
        else:
            chosen = self.encoders[seat].action(legal, obs, int(index))
            if chosen is MORE:
                self._seen.pop(seat, None)  # its features changed (the step it is at)
                return  # the same seat answers the second step
            action = legal.parse(chosen)
        self.state.apply(seat, action)
        self.batch.pop(0)
        self.advance()

    # -- what a seat is shown ------------------------------------------------------------

    def features(self, seat: int) -> np.ndarray:
        if self.tokens is not None:
            return self.tokens.encode(self.observe(seat))
        return self.encoders[seat].features(self.observe(seat))

    def mask(self, seat: int) -> np.ndarray:
        if self.to_move() == seat or (seat in self.batch and not self.over):
            return self.encoders[seat].mask(self.state.legal(seat), self.observe(seat))
        return none_only(self.menu)

    def rewards(self) -> dict[int, float]:
        outcome = self.state.outcome()
        if outcome is None:
            return dict.fromkeys(range(self.num_seats), 0.0)
        teams = [self.state.team_of(s) for s in range(self.num_seats)]
        alive = set(self.state.alive())
        out = {}
        for seat, team in enumerate(teams):
            value = 0.0 if outcome.winner is None else 1.0 if outcome.winner == team else -1.0
            if self.reward_mode == "shaped":
                value += 0.5 * (
                    _dead_share(teams, alive, team, False) - _dead_share(teams, alive, team, True)
                )
            out[seat] = value
        return out


def _dead_share(teams: Sequence[str], alive: set[int], team: str, own: bool) -> float:
    seats = [s for s, t in enumerate(teams) if (t == team) == own]
    return sum(s not in alive for s in seats) / len(seats) if seats else 0.0
