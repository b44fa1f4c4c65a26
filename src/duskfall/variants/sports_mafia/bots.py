"""Built-in sports-mafia bots: ``uniform``, ``random`` (seed 001's RandomAgent), ``heuristic``.

Every bot sees only its observation and its legal actions, draws randomness only from its
own seeded ``rng`` and returns typed actions (no prompt is ever rendered for it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from duskfall.core.bot import Bot
from duskfall.core.legal import LegalActions
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
from duskfall.variants.sports_mafia.heuristic import HeuristicAgent
from duskfall.variants.sports_mafia.legal import DeclarationChoice, TargetChoice
from duskfall.variants.sports_mafia.policies import (
    SheriffPolicy,
    draw_from_random_policy,
    random_declaration_bounds,
    random_distribution,
    sample_declaration,
)

TARGET_ACTIONS: dict[str, type[Vote | Kill | DonCheck | SheriffCheck]] = {
    "VOTE": Vote,
    "KILL": Kill,
    "DON_CHECK": DonCheck,
    "SHERIFF_CHECK": SheriffCheck,
}
# every target action made once (they are immutable): action type -> target -> action
ACTIONS: dict[str, dict[int, Vote | Kill | DonCheck | SheriffCheck]] = {
    kind: {target: cls(target) for target in (SKIP, *range(NUM_PLAYERS))}
    for kind, cls in TARGET_ACTIONS.items()
}


class UniformBot(Bot):
    """Picks a uniformly random legal action (the test kit's baseline)."""

    name = "uniform"

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        return legal.sample(self.rng)


class RandomAgent(Bot):
    """Seed 001's RandomAgent: every decision is a draw from a randomly created policy.

    The declaration policy and the sheriff policy are created once per game (a random
    "temperament" kept across days, so that sheriff claims stay consistent); voting,
    nomination, night and eliminate-all policies are created afresh for every decision over
    the legal choices. Those are kept as flat lists (:func:`random_distribution`) rather than
    policy objects: the same draws and floats, without building an object per decision. The
    agent never reads its observation: it knows the turn by counting its own declarations (a
    living player declares exactly once a day), so a game of random agents never pays for
    building a view.
    """

    name = "random"

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.declarations_made = 0
        # the declaration policy, as its cumulative bounds (see ``declaration_bounds``)
        self.declaration_bounds: list[list[float]] | None = None
        self.sheriff_policy: SheriffPolicy | None = None

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        rng = self.rng
        if isinstance(legal, TargetChoice):
            targets = (SKIP, *legal.targets) if legal.allow_skip else legal.targets
            return ACTIONS[legal.action_type][draw_from_random_policy(targets, rng)]
        if isinstance(legal, DeclarationChoice):
            return self._declare(legal)
        yes_probability = rng.random()  # a random eliminate-all policy, then one draw from it
        return EliminateAllVote(rng.random() < yes_probability)

    def _declare(self, legal: DeclarationChoice) -> Declaration:
        rng = self.rng
        turn = self.declarations_made
        self.declarations_made += 1
        if self.declaration_bounds is None:
            self.declaration_bounds = random_declaration_bounds(NUM_PLAYERS, rng)
        if self.sheriff_policy is None:
            self.sheriff_policy = SheriffPolicy.create_random_policy(
                self.seat, turn, range(NUM_PLAYERS), rng
            )
        self.sheriff_policy.update_turn(turn)
        # the policy sorted by target, as the seed's: SKIP (-1), then the nominable seats, which
        # the rules list in seat order, so no sort is needed
        options = (SKIP, *legal.nominable)
        nomination = tuple(zip(options, random_distribution(len(options), rng), strict=True))
        return Declaration(
            sample_declaration(self.declaration_bounds, rng),
            self.sheriff_policy.sample_sheriff_claims(rng),
            nomination,
        )


BOTS: dict[str, type[Bot]] = {
    "uniform": UniformBot,
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
}


def make_bot(name: str, seat: int, rng: random.Random) -> Bot:
    return BOTS[name](seat, rng)
