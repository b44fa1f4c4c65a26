"""Seed 001's probabilistic policies with tunable parameters: the sports-mafia bot a policy
search tunes (``VariantInfo.learning.tunable``).

Seed 001's RandomAgent draws a fresh random policy object for every decision (a voting
policy, a night-action policy, a declaration policy, an eliminate-all policy, a sheriff
policy). :class:`SearchedAgent` builds the *same policy objects* from a few parameters
instead: each target's weight is ``exp(w . f(target))`` over seven public or private facts
``f`` (how the others declared it, sheriff claims about it, nominated, votes it received, it
claims sheriff, this seat's check of it, teammate), with one ``w`` per decision (vote,
nomination, night action, declaration, where the declared value is ``round(3 tanh(w . f))``),
a skip weight for nominations and kills, the eliminate-all probability, and the sheriff
policy's claim and "call black" probabilities (a real sheriff reveals its checks; a mafioso
invents rows, calling its teammates red). One parameter set per side: :data:`SIZE` numbers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from duskfall.core.bot import Bot
from duskfall.core.learning import BotFactory, Tunable
from duskfall.variants.sports_mafia.actions import (
    NUM_PLAYERS,
    SKIP,
    Declaration,
    DonCheck,
    EliminateAllVote,
    Kill,
    SheriffCheck,
    Vote,
)
from duskfall.variants.sports_mafia.legal import DeclarationChoice, TargetChoice
from duskfall.variants.sports_mafia.policies import (
    ProbabilisticDeclarationPolicy,
    ProbabilisticEliminateAllPolicy,
    ProbabilisticNightActionPolicy,
    ProbabilisticVotingPolicy,
    SheriffPolicy,
)

FACTS = 7
BLOCKS = ("VOTE", "NOMINATE", "NIGHT", "DECLARE")
SCALARS = ("NOMINATE_SKIP", "KILL_SKIP", "ELIMINATE_ALL", "CLAIM", "CALL_BLACK")
PER_SIDE = len(BLOCKS) * FACTS + len(SCALARS)
SIZE = 2 * PER_SIDE
BLACK_ROLES = ("MAFIA", "DON")


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


@dataclass(frozen=True)
class SearchedParams:
    theta: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.theta) != SIZE:
            raise ValueError(f"seed-001 parameters are {SIZE} numbers, not {len(self.theta)}")

    def side(self, black: bool) -> tuple[dict[str, tuple[float, ...]], dict[str, float]]:
        start = PER_SIDE if black else 0
        theta = self.theta[start : start + PER_SIDE]
        blocks = {b: theta[k * FACTS : (k + 1) * FACTS] for k, b in enumerate(BLOCKS)}
        scalars = dict(zip(SCALARS, theta[len(BLOCKS) * FACTS :], strict=True))
        return blocks, scalars


def fact_table(obs: Mapping[str, Any], seat: int) -> list[tuple[float, ...]]:
    """The seven facts of every seat, as this seat sees them (one pass over the observation)."""
    players = obs["players"]
    private = obs["private_info"]
    declared = [0.0] * NUM_PLAYERS
    claims = [0] * NUM_PLAYERS
    claiming = [0.0] * NUM_PLAYERS
    for p in players:
        who = p["player_id"]
        if who != seat:
            for q, v in enumerate(p["declarations"]):
                if q != who:
                    declared[q] += v
        for row in p["sheriff_claims"]:
            if any(row):
                claiming[who] = 1.0
                for q, v in enumerate(row):
                    claims[q] += v
    votes = [0] * NUM_PLAYERS
    for record in obs["vote_history"]:
        for target in record["votes"].values():
            if not isinstance(target, bool) and 0 <= target < NUM_PLAYERS:
                votes[target] += 1
    checks = private.get("sheriff_checks", {})
    dons = private.get("don_checks", {})
    mates = set(private.get("mafia_team", ()))
    nominated = set(obs["nominated_players"])
    table: list[tuple[float, ...]] = []
    for q in range(NUM_PLAYERS):
        result = checks.get(str(q))
        check = (-1.0 if result == "BLACK" else 1.0) if result is not None else 0.0
        if dons.get(str(q)):
            check = 1.0
        table.append(
            (
                declared[q] / (3 * (NUM_PLAYERS - 2)),
                float(max(-1, min(1, claims[q]))),
                1.0 if q in nominated else 0.0,
                votes[q] / NUM_PLAYERS,
                claiming[q],
                check,
                1.0 if q in mates else 0.0,
            )
        )
    return table


def _exp(x: float) -> float:
    return math.exp(max(-30.0, min(30.0, x)))


def _score(w: Sequence[float], facts: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, facts, strict=True))


class SearchedAgent(Bot):
    """Seed 001's policy objects, parameterised (see the module docstring)."""

    name = "searched"

    def __init__(self, seat: int, rng: random.Random, params: SearchedParams) -> None:
        super().__init__(seat, rng)
        self.params = params
        self.sheriff: SheriffPolicy | None = None

    def _weights(
        self, facts: Sequence[tuple[float, ...]], block: tuple[float, ...], targets: Sequence[int]
    ) -> dict[int, float]:
        return {t: _exp(_score(block, facts[t])) for t in targets}

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any:
        black = observation["role"] in BLACK_ROLES
        blocks, scalars = self.params.side(black)
        rng = self.rng
        if isinstance(legal, TargetChoice):
            weights = self._weights(
                fact_table(observation, self.seat),
                blocks["VOTE" if legal.action_type == "VOTE" else "NIGHT"],
                legal.targets,
            )
            if legal.action_type == "VOTE":
                target = ProbabilisticVotingPolicy(weights).sample_vote(rng)
                return Vote(target)
            if legal.allow_skip:
                weights[SKIP] = _exp(scalars["KILL_SKIP"])
            night = ProbabilisticNightActionPolicy(legal.action_type, weights)
            target = night.sample_target(rng)
            kind = {"KILL": Kill, "DON_CHECK": DonCheck, "SHERIFF_CHECK": SheriffCheck}[
                legal.action_type
            ]
            return kind(target)
        if isinstance(legal, DeclarationChoice):
            return self._declare(observation, legal, blocks, scalars)
        policy = ProbabilisticEliminateAllPolicy()
        policy.set_true_probability(_sigmoid(scalars["ELIMINATE_ALL"]))
        return EliminateAllVote(policy.sample_vote(rng))

    def _declare(
        self,
        obs: Mapping[str, Any],
        legal: DeclarationChoice,
        blocks: Mapping[str, tuple[float, ...]],
        scalars: Mapping[str, float],
    ) -> Declaration:
        rng = self.rng
        facts = fact_table(obs, self.seat)
        declaration = ProbabilisticDeclarationPolicy.create_random_policy(NUM_PLAYERS, rng)
        for player in range(NUM_PLAYERS):
            value = (
                3
                if player == self.seat
                else round(3 * math.tanh(_score(blocks["DECLARE"], facts[player])))
            )
            declaration.set_belief(player, value)
        nominations = self._weights(facts, blocks["NOMINATE"], legal.nominable)
        nominations[SKIP] = _exp(scalars["NOMINATE_SKIP"])
        nominee = ProbabilisticVotingPolicy(nominations).sample_vote(rng)
        return Declaration(
            declaration.sample_declaration(rng),
            self._claims(obs, scalars),
            ((nominee, 1.0),) if nominee != SKIP else (),
        )

    def _claims(
        self, obs: Mapping[str, Any], scalars: Mapping[str, float]
    ) -> tuple[tuple[int, ...], ...]:
        private = obs["private_info"]
        role = obs["role"]
        if self.sheriff is None:
            self.sheriff = SheriffPolicy(
                self.seat,
                claim_prob=_sigmoid(scalars["CLAIM"]) if role != "CITIZEN" else 0.0,
                black_prob=_sigmoid(scalars["CALL_BLACK"]),
                protected=frozenset(private.get("mafia_team", ())),
            )
        turn = obs["turn"]
        self.sheriff.update_turn(turn, obs["alive_players"])
        if role == "SHERIFF":
            for night, (target, result) in enumerate(private.get("sheriff_checks", {}).items()):
                self.sheriff.record_check(night, int(target), result == "BLACK")
        return self.sheriff.sample_sheriff_claims(self.rng)


KIND = "seed001-params"


def searched_bot(theta: Sequence[float]) -> BotFactory:
    """The bot factory of the parameters ``theta`` (:data:`SIZE` numbers)."""
    params = SearchedParams(tuple(float(x) for x in theta))
    return lambda seat, rng: SearchedAgent(seat, rng, params)


TUNABLE = Tunable(KIND, SIZE, searched_bot)
