"""The games ``check-bot`` plays with the user's program, and the bots that steer them.

The program always sits at seat 0; a scenario deals it a role (an ordered deal, or a seed
found for the role) and the other seats are :class:`SteeringBot`s that play at random except
where the scenario needs something to happen: the wolves kill seat 3 so the witch has both
potions, or seat 0 so the hunter shoots; everyone votes seat 0 out once it holds the badge;
the sports-mafia voters split their votes around the program's own vote so the first round and
the re-vote tie and the eliminate-all round comes; otherwise the program is never voted out
or killed. The bots read only what their seat may see, plus, where the program's vote decides
a tie, that vote, which the check's proxy saw go by (:class:`Director`).

The bots play as people and remote seats do, each move in a turn of the event loop of its own,
so the server sends the program a state update after each of their moves, as a real table does.
In the ``slow`` scenario (1 ms deadlines) they wait, before each move, for the program's late
answer to each of its first :data:`SLOW_WAITS` requests (up to the check's deadline), so that a
program that takes seconds to answer is still in the game when its answer comes.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.bot import Bot
from duskfall.core.legal import LegalActions
from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.variant import parse_config
from duskfall.runtime.participant import BaseParticipant, DecisionRequest

USER = 0  # the program's seat


DEADLINE = 10.0  # seconds the program has to answer a request (check-bot --deadline)
SLOW_WAITS = 3  # the slow game waits for the program's late answers to this many requests


def round_of(observation: Mapping[str, Any]) -> tuple[Any, bool]:
    """A sports-mafia vote round: the day (``turn``) and whether it is the re-vote."""
    return observation.get("turn"), bool(observation.get("tied_players"))


@dataclass
class Director:
    """What the steering bots of one game share: the program's vote in each round, as the
    check's proxy saw the request and its answer go by."""

    deadline: float = DEADLINE  # how long the bots wait for the program
    votes: dict[tuple[Any, bool], Any] = field(default_factory=dict)
    asked: tuple[Any, bool] | None = None
    requests: int = 0  # requests to answer sent to the program
    answers: int = 0  # answers it sent
    gave_up: bool = False  # a late answer did not come within the deadline: no more waits
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def request(self, message: Mapping[str, Any]) -> None:
        """A request to the program: the round its next vote belongs to."""
        self.requests += 1
        observation = message.get("observation")
        if isinstance(observation, Mapping):
            self.asked = round_of(observation)

    def answer(self, action: Mapping[str, Any]) -> None:
        self.answers += 1
        if action.get("type") == "VOTE" and self.asked is not None:
            self.votes[self.asked] = action.get("target")
        self.changed.set()

    async def _until(self, done: Callable[[], bool]) -> bool:
        """Wait (up to the deadline) until ``done()``; whether it came."""
        try:
            async with asyncio.timeout(self.deadline):
                while not done():
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            return False
        return True

    async def vote_of_round(self, key: tuple[Any, bool]) -> Any:
        """The program's vote in round ``key`` (None if it does not come in time)."""
        return self.votes[key] if await self._until(lambda: key in self.votes) else None

    async def late_answers(self) -> None:
        """Until the program has answered its requests (only its first :data:`SLOW_WAITS`)."""
        if self.requests <= SLOW_WAITS and not self.gave_up:
            self.gave_up = not await self._until(lambda: self.answers >= self.requests)


DIRECTORS: dict[str, Director] = {}  # by scenario name, filled by the check while it runs


@dataclass(frozen=True)
class Scenario:
    """One game: a variant and config, the program's role, what the bots steer towards, and
    a fault to inject (``reconnect``: the connection is cut; ``slow``: 1 ms deadlines)."""

    name: str
    variant: str
    config: Mapping[str, Any]
    goal: str = ""
    role: str | None = None  # sports mafia: a seed is searched that deals seat 0 this role
    fault: str | None = None
    deadline_ms: int = 10_000

    def seed(self, game_seed: Callable[[int], int | None] = lambda seed: seed) -> int:
        """The first server seed whose game (``game_seed(seed)``: the server's own derivation
        of its first game's seed) deals seat 0 ``role`` (any seed when none is asked)."""
        if self.role is None:
            return 1
        variant = get_variant(self.variant)
        config = parse_config(variant, self.config)
        for seed in range(1, 10_000):
            dealt = game_seed(seed)
            if dealt is not None and variant.new_game(config, dealt).roles()[USER] == self.role:
                return seed
        raise RuntimeError(f"no seed deals seat 0 the role {self.role}")


def _scenarios() -> tuple[Scenario, ...]:
    """Every variant's check-bot games (``VariantInfo.kit.tables``), in registry order."""
    return tuple(
        Scenario(t.name, variant_id, t.config, t.goal, t.role, t.fault, t.deadline_ms)
        for variant_id in variant_ids()
        for t in get_variant(variant_id).info.kit.tables
    )


SCENARIOS: tuple[Scenario, ...] = _scenarios()


def _options(legal: LegalActions) -> dict[str, Any]:
    return legal.to_wire()


def _targets(legal: LegalActions) -> list[Any]:
    """The targets a target decision offers (wire form), whatever its variant."""
    wire = _options(legal)
    for key in ("target", "vote", "kill", "don_check", "sheriff_check"):
        value = wire.get(key)
        if isinstance(value, list):
            return value
        if isinstance(value, dict):  # per type: the first type's
            first = next(iter(value.values()))
            return list(first) if isinstance(first, list) else []
    return []


class SteeringBot(Bot):
    """Random legal play, steered where the scenario's ``goal`` needs it (module docstring)."""

    name = "steering"

    def __init__(self, seat: int, rng: random.Random, goal: str, director: Director) -> None:
        super().__init__(seat, rng)
        self.goal = goal
        self.director = director

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        steer = _STEERS.get(legal.kind)
        if steer is not None:
            action = steer(self, observation, legal)
            if action is not None:
                try:
                    return legal.parse(action)
                except Exception:  # the steer does not fit this case: play at random
                    pass
        return self._spare(legal)

    def _spare(self, legal: LegalActions) -> Any:
        """A random legal action that does not harm seat 0 (unless the goal wants it)."""
        for _ in range(20):
            action = legal.sample(self.rng)
            data = action.to_dict()
            if data.get("target") != USER or self.goal in ("hunter",):
                return action
        return legal.default(self.rng)

    # -- steers (None: play at random) ---------------------------------------------------

    def wolf_kill(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        target = {"witch": 3, "hunter": USER}.get(self.goal)
        if target is None:
            return None
        return {"type": legal.kind, "target": target}

    def witch(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        return {"type": legal.kind, "potion": "PASS"}

    def nobody(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        return {"type": legal.kind, "target": None}

    def badge_run(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        runs = self.goal in ("voters", "witch") and self.seat in (1, 3)
        return {"type": legal.kind, "run": runs}

    def withdraw(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        return {"type": legal.kind, "withdraw": False}

    def werewolf_vote(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        if self.goal == "badge" and observation.get("sheriff") == USER:
            return {"type": legal.kind, "target": USER}  # the sheriff goes: badge passed
        return None

    def sports_vote(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        if self.goal != "tie" or observation.get("turn") != 0:
            return None
        if "eliminate_all" in _options(legal):
            return {"type": "ELIMINATE_ALL_VOTE", "vote": False}
        targets = _targets(legal)
        voted = self.director.votes.get(round_of(observation))
        if voted not in targets or len(targets) < 2:
            return None
        other = next(t for t in targets if t != voted)
        bots = [p for p in observation["alive_players"] if p != USER]
        # four bots join the program's choice, five the other: two tied at five (9 bot votes)
        return {"type": "VOTE", "target": voted if bots.index(self.seat) < 4 else other}

    def declaration(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        nominable = [t for t in _options(legal).get("nomination", []) if t not in (-1, USER)]
        pick = (self.seat % 9) + 1 if self.goal == "tie" and self.seat in (1, 2) else None
        policy = {str(pick): 1.0} if pick in nominable else {}
        return {"type": "DECLARATION", "declaration": [0] * 10, "nomination_policy": policy}


_STEERS: dict[str, Callable[[SteeringBot, Mapping[str, Any], LegalActions], Any]] = {
    "WOLF_KILL": SteeringBot.wolf_kill,
    "WITCH": SteeringBot.witch,
    "GUARD": SteeringBot.nobody,
    "HUNTER_SHOT": SteeringBot.nobody,
    "BADGE_RUN": SteeringBot.badge_run,
    "BADGE_WITHDRAW": SteeringBot.withdraw,
    "VOTE": SteeringBot.werewolf_vote,
    "VOTING": SteeringBot.sports_vote,
    "DECLARATION": SteeringBot.declaration,
}


class SteeringVoter(BaseParticipant):
    """A steering bot as a participant, each move in a turn of the event loop of its own (so
    the server sends state updates after it). In the day-1 votes of the ``tie`` goal (asked of
    all seats at once) it waits for the program's vote first; in the ``slow`` game for the
    program's late answers (:meth:`Director.late_answers`)."""

    renders_prompts = False

    def __init__(self, bot: SteeringBot, *, slow: bool = False) -> None:
        self.bot = bot
        self.slow = slow
        self.decision_timeout = bot.director.deadline + 5.0  # its waits are not its fault

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        observation, legal = request.observation, request.legal
        director = self.bot.director
        if legal.kind == "VOTING" and observation.get("turn") == 0 and self.bot.goal == "tie":
            await director.vote_of_round(round_of(observation))
        elif self.slow:
            await director.late_answers()
        await asyncio.sleep(0)  # the move comes in a turn of its own, as a remote seat's does
        return self.bot.act(observation, legal)

    def describe(self) -> str:
        return "steering"


def make_steering_bot(context: Any) -> SteeringVoter:
    """Agent kind ``check-steer:SCENARIO`` (registered by the check): a seat's steering bot."""
    scenario = next(s for s in SCENARIOS if s.name == context.arg)
    director = DIRECTORS.setdefault(scenario.name, Director())
    bot = SteeringBot(context.seat, context.rng, scenario.goal, director)
    return SteeringVoter(bot, slow=scenario.fault == "slow")
