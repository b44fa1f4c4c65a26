"""Entrants of known strength: ``mix:A@p/B`` takes each decision with ``A`` with probability
``p``, else with ``B``.

A ladder such as ``mix:heuristic@0.25/random``, ``@0.5``, ``@0.75`` has a known order (more of
the stronger agent's decisions can only help it, in expectation), which is how a leaderboard is
checked: does it put the rungs in order, with intervals that cover the truth?

The coin is seeded per seat from the game's seed (one draw per decision), so the same game
replays exactly. ``A`` and ``B`` are built for the seat as they would be alone (the same seeded
random stream), so ``mix:A@1/B`` plays exactly as ``A`` and ``mix:A@0/B`` exactly as ``B``. Both
follow the game if they keep their own records (``watch_game``); each is asked only for the
decisions the coin gives it. Any agent may be mixed, for every variant: two bots make a bot
(called directly, no prompts rendered); a model-backed agent makes a participant.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from duskfall.agents.kinds import AgentContext, calls_models, check_agent, make_participant
from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError
from duskfall.core.legal import LegalActions
from duskfall.core.rng import derive_rng
from duskfall.core.variant import Variant
from duskfall.runtime.participant import (
    BaseParticipant,
    BotParticipant,
    DecisionRequest,
    Participant,
    SeatAnswer,
    describe_player,
)

HELP = (
    "mix:A@p/B (each decision by agent A with probability p, else B; e.g. mix:heuristic@0.7/random)"
)
_SPLIT = re.compile(r"@([0-9]*\.?[0-9]+)/")
# What a user means as the probability but is none (-0.1, 1e3, nan, inf): named in the error.
_NOT_A_PROBABILITY = re.compile(
    r"@([-+]?(?:[0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?|nan|inf(?:inity)?))/", re.IGNORECASE
)


@dataclass(frozen=True)
class MixSpec:
    """The parts of ``mix:A@p/B``."""

    first: str
    p: float
    second: str


def parse_mix(arg: str) -> MixSpec:
    """``A@p/B`` (the part after ``mix:``) split into its agents and probability.

    The split is at the first ``@<number>/`` after which both sides are non-empty, so model
    specs with their own ``@`` (``llm:openai:m@http://host/v1``) can be mixed too.
    """
    for match in _SPLIT.finditer(arg):
        first, second = arg[: match.start()].strip(), arg[match.end() :].strip()
        if not first or not second:
            continue
        p = float(match.group(1))
        if not 0.0 <= p <= 1.0:
            raise ConfigError(f"mix:{arg}: the probability must be between 0 and 1, not {p:g}")
        return MixSpec(first, p, second)
    for match in _NOT_A_PROBABILITY.finditer(arg):
        if arg[: match.start()].strip() and arg[match.end() :].strip():
            raise ConfigError(
                f"mix:{arg}: the probability after '@' must be a number from 0 to 1, "
                f"not {match.group(1)}"
            )
    raise ConfigError(f"mix:{arg}: write {HELP}")


def check_mix(variant: Variant, arg: str) -> None:
    """Refuse a malformed mix or one whose agents are not valid for ``variant``."""
    spec = parse_mix(arg)
    for agent in (spec.first, spec.second):
        if agent.partition(":")[0] == "human":
            raise ConfigError(f"mix:{arg}: a person cannot be mixed (agents take turns unseen)")
        check_agent(variant, agent)


def mix_calls_models(agent: str) -> bool:
    """Whether ``mix:A@p/B`` may call a model: whether A or B may."""
    mixed = parse_mix(agent.strip().partition(":")[2])
    return calls_models(mixed.first) or calls_models(mixed.second)


def coin(seed: int, seat: int) -> random.Random:
    """The seat's mixing coin: one draw per decision."""
    return derive_rng(seed, f"mix:{seat}")


class MixBot(Bot):
    """Two bots behind one seat; each decision goes to ``first`` with probability ``p``."""

    name = "mix"

    def __init__(self, seat: int, first: Bot, second: Bot, p: float, chooser: random.Random):
        super().__init__(seat, chooser)
        self.first, self.second, self.p = first, second, p
        self.taken = [0, 0]  # decisions taken by first, second

    def pick(self) -> Bot:
        chosen = 0 if self.rng.random() < self.p else 1
        self.taken[chosen] += 1
        return self.first if chosen == 0 else self.second

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        return self.pick().act(observation, legal)

    def describe(self) -> str:
        return f"mix:{self.first.describe()}@{self.p:g}/{self.second.describe()}"


class MixParticipant(BaseParticipant):
    """Two participants behind one seat (at least one is not a bot); see the module doc."""

    def __init__(
        self, first: Participant, second: Participant, p: float, chooser: random.Random
    ) -> None:
        self.parts = (first, second)
        self.p = p
        self.rng = chooser
        self.taken = [0, 0]
        self.renders_prompts = any(x.renders_prompts for x in self.parts)
        self.reads_history = any(x.reads_history for x in self.parts)
        # rendered prompts are wanted unless every part that is shown them composes its own
        self.composes_prompts = all(x.composes_prompts or not x.renders_prompts for x in self.parts)
        known = [float(t) for t in (x.decision_timeout for x in self.parts) if t]
        self.decision_timeout = max(known) if known else None

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer:
        chosen = 0 if self.rng.random() < self.p else 1
        self.taken[chosen] += 1
        return await self.parts[chosen].decide(system_prompt, user_prompt, request)

    def models(self) -> tuple[object, ...]:
        """The models of both parts (a mix with a model part is checked before it plays)."""
        parts = [part for part in self.parts if isinstance(part, BaseParticipant)]
        return tuple(model for part in parts for model in part.models())

    def watch_game(self, game_id: str, log_path: Path | None) -> Any:
        """Both parts follow the game if they keep records of it."""
        observers = [
            observer
            for part in self.parts
            if (observer := part.watch_game(game_id, log_path)) is not None
        ]
        if not observers:
            return None
        return observers[0] if len(observers) == 1 else _Both(observers)

    def describe(self) -> str:
        names = [describe_player(x) for x in self.parts]
        return f"mix:{names[0]}@{self.p:g}/{names[1]}"


class _Both:
    """One observer that forwards to several (every method the runtime calls on one)."""

    def __init__(self, observers: list[Any]) -> None:
        self.observers = observers

    def __getattr__(self, name: str) -> Any:
        methods = [getattr(o, name) for o in self.observers if hasattr(o, name)]
        if not methods:
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> None:
            for method in methods:
                method(*args, **kwargs)

        return call


def make_mix_agent(ctx: AgentContext) -> Participant | Bot:
    """The factory of the ``mix`` kind (``ctx.arg`` is ``A@p/B``)."""
    spec = parse_mix(ctx.arg)
    first = make_participant(spec.first, replace(ctx, arg=""))
    second = make_participant(spec.second, replace(ctx, arg=""))
    chooser = coin(ctx.seed, ctx.seat)
    if isinstance(first, Bot) and isinstance(second, Bot):
        return MixBot(ctx.seat, first, second, spec.p, chooser)
    return MixParticipant(_participant(first), _participant(second), spec.p, chooser)


def _participant(agent: Participant | Bot) -> Participant:
    return BotParticipant(agent) if isinstance(agent, Bot) else agent


def mix_options(options: Mapping[str, Any]) -> Collection[str]:
    """The mix reads no option itself: its agents' kinds check theirs."""
    return ()
