"""Monte Carlo rollouts: bots play a game on from one moment, many times, each with its own seed.

A :class:`Policy` is an agent spec whose every seat is one of the variant's bots (``heuristic``,
``random``, ``werewolf=random,default=heuristic``...). A :class:`Snapshot` freezes a game and
its policy bots at a moment (the bots brought through the game so far, as a fork's are); each
rollout thaws a copy, re-seeds every bot and the fallbacks from its own seed, and lets the
runtime's all-bot loop play it to the end, recording nothing. The deal and the rules'
own randomness are the game's: a rollout varies only what the bots choose.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping
from dataclasses import dataclass

from duskfall.agents.kinds import AgentContext, make_participant
from duskfall.agents.specs import parse_spec
from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError
from duskfall.core.outcome import Outcome
from duskfall.core.rng import stream_seed
from duskfall.core.sides import VILLAGE, side_of
from duskfall.core.variant import State, Variant
from duskfall.runtime.record import GameRecord
from duskfall.runtime.scheduler import Scheduler

DEFAULT_POLICY = "heuristic"


class Policy:
    """The bots of a rollout policy, seat by seat (checked against the variant's bots)."""

    def __init__(self, variant: Variant, spec: str, state: State) -> None:
        self.variant = variant
        self.spec = spec
        self.agents = parse_spec(variant, spec, state.num_seats)(state)
        bots = variant.bots()
        for seat, agent in enumerate(self.agents):
            if agent not in bots:
                raise ConfigError(
                    f"rollouts are played by bots ({', '.join(bots)}), not {agent!r} "
                    f"(seat {seat}): choose a bot policy such as {DEFAULT_POLICY!r}"
                )

    def bots(self, seed: int) -> dict[int, Bot]:
        """One bot per seat, seeded from ``seed`` as a game's seats are."""
        made: dict[int, Bot] = {}
        for seat, agent in enumerate(self.agents):
            bot = make_participant(agent, AgentContext(self.variant, seat, seed, ""))
            assert isinstance(bot, Bot)
            made[seat] = bot
        return made


def village_won(variant: Variant, outcome: Outcome | None) -> bool:
    """Whether the village side won (a draw or an abort is not a win)."""
    return (
        outcome is not None
        and outcome.winner is not None
        and (side_of(variant, outcome.winner) == VILLAGE)
    )


@dataclass
class Snapshot:
    """A game and its policy bots frozen at a moment; :meth:`play` plays one rollout."""

    variant: Variant
    frozen: bytes | None
    kept: tuple[State, Mapping[int, Bot]] | None = None

    @classmethod
    def take(cls, variant: Variant, state: State, bots: Mapping[int, Bot]) -> Snapshot:
        """Freeze ``state`` and ``bots`` (pickled; a deep copy where they cannot be)."""
        try:
            return cls(variant, pickle.dumps((state, dict(bots)), pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError):
            return cls(variant, None, copy.deepcopy((state, dict(bots))))

    def _thaw(self) -> tuple[State, dict[int, Bot]]:
        if self.frozen is not None:
            state, bots = pickle.loads(self.frozen)
            return state, bots
        assert self.kept is not None
        state, bots = copy.deepcopy(self.kept)
        return state, dict(bots)

    def play(self, seed: int) -> Outcome:
        """Play the game on to its end with the bots re-seeded from ``seed``."""
        state, bots = self._thaw()
        for seat, bot in bots.items():
            bot.rng.seed(stream_seed(seed, f"agent:{seat}"))
        record = GameRecord("rollout", keep_events=False)
        scheduler = Scheduler(self.variant, state, bots, record, seed=seed)
        scheduler.started = True
        while scheduler.step_bots():
            pass
        outcome = state.outcome()
        assert outcome is not None, "a rollout ended without an outcome"
        return outcome


def rollout_seed(seed: int, moment: int, number: int) -> int:
    """The seed of rollout ``number`` from the moment starting at event ``moment``."""
    return stream_seed(seed, f"rollout:{moment}:{number}")


def village_wins(snapshot: Snapshot, rollouts: int, seed: int, moment: int) -> int:
    """How many of ``rollouts`` seeded rollouts from ``snapshot`` the village wins."""
    return sum(
        village_won(snapshot.variant, snapshot.play(rollout_seed(seed, moment, number)))
        for number in range(rollouts)
    )
