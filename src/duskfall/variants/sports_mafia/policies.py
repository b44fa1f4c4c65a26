"""Probabilistic policies for sports mafia (seed 001's policy framework).

Each policy is a probability distribution over one kind of decision. All of them can set
their probabilities, sample a concrete action with a given :class:`random.Random`, round-trip
through ``to_dict``/``from_dict`` (JSON-safe) and be created at random with
``create_random_policy``:

* :class:`ProbabilisticVotingPolicy`: targets of a vote or of a nomination;
* :class:`ProbabilisticNightActionPolicy`: a kill (which may hold ``-1`` = skip) or a check;
* :class:`ProbabilisticDeclarationPolicy`: a distribution over -3..3 for every player;
* :class:`ProbabilisticEliminateAllPolicy`: yes/no on eliminating every tied player;
* :class:`SheriffPolicy`: whether and what to claim as sheriff, consistently across turns.

Sheriff claims are a 10x10 matrix: row ``t`` is the check made in the night of turn ``t``
(so on turn ``T`` rows ``0..T-1`` can be filled), column ``p`` is ``-1`` (black), ``1``
(red) or ``0`` (no claim). A row names at most one player, as a real check does.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, repeat, starmap
from operator import truediv
from typing import Any

from duskfall.variants.sports_mafia.actions import NUM_PLAYERS, SKIP, ZERO_CLAIMS

DECLARATION_VALUES: tuple[int, ...] = (-3, -2, -1, 0, 1, 2, 3)
NIGHT_ACTION_TYPES = ("KILL", "DON_CHECK", "SHERIFF_CHECK")
BLACK_CLAIM, RED_CLAIM = -1, 1
NORMALISED = 1e-9  # weights summing to 1 within this are taken as a distribution already

ClaimMatrix = tuple[tuple[int, ...], ...]


def normalised(weights: Sequence[float]) -> list[float]:
    """Non-negative weights scaled to sum to 1; all-zero weights become uniform.

    Weights that already sum to 1 (up to rounding) are kept as they are, so that a policy
    read back from ``to_dict`` is exactly the policy that was written.
    """
    if min(weights) < 0:
        raise ValueError("probabilities must be non-negative")
    return _scaled(list(weights), sum(weights))


def _scaled(weights: list[float], total: float) -> list[float]:
    """:func:`normalised` of non-negative ``weights`` summing to ``total`` (maybe ``weights``)."""
    if total <= 0:
        return [1.0 / len(weights)] * len(weights)
    if abs(total - 1.0) <= NORMALISED:  # (``_divisor`` inline: this runs 130 times a game)
        return weights
    return list(map(truediv, weights, repeat(total)))


def _divisor(total: float) -> float:
    """What weights summing to ``total`` (> 0) are divided by to normalise them: ``total``,
    or 1.0 if they sum to 1 already within NORMALISED (``w / 1.0 == w``: kept exactly)."""
    return 1.0 if abs(total - 1.0) <= NORMALISED else total


def _draws(count: int, rng: random.Random) -> list[float]:
    """``count`` draws of ``rng.random()`` (called from C: no Python loop)."""
    return list(starmap(rng.random, repeat((), count)))


def normalise(weights: Mapping[int, float]) -> dict[int, float]:
    """:func:`normalised` over the values of a mapping (its keys kept in order)."""
    if not weights:
        return {}
    return dict(zip(weights, normalised(list(weights.values())), strict=True))


def sample_index(probs: Sequence[float], rng: random.Random) -> int:
    """The index drawn from a normalised distribution (one ``rng.random()`` call)."""
    point = rng.random()
    for index, p in enumerate(probs):
        point -= p
        if point < 0:
            return index
    return len(probs) - 1  # rounding left a sliver of probability: the last index


def sample_key(probs: Mapping[int, float], rng: random.Random) -> int:
    """One key drawn from a normalised distribution (one ``rng.random()`` call)."""
    if not probs:
        raise ValueError("cannot sample from an empty distribution")
    return list(probs)[sample_index(list(probs.values()), rng)]


def random_distribution(size: int, rng: random.Random) -> list[float]:
    """A random distribution over ``size`` choices: uniform weights, normalised.

    This is what every ``create_random_policy`` draws, as a flat list: a bot that makes a
    fresh random policy for every decision (seed 001's RandomAgent) uses it directly and skips
    building the policy object (same draws, same floats).
    """
    weights = _draws(size, rng)
    return _scaled(weights, sum(weights))  # random() is never negative: no check needed


def draw_from_random_policy(keys: Sequence[int], rng: random.Random) -> int:
    """One draw from a fresh random policy over distinct ``keys``: ``len(keys) + 1`` draws.

    The same as ``keys[sample_index(random_distribution(len(keys), rng), rng)]``, with each
    probability computed only as far as the draw goes (RandomAgent does this every decision).
    """
    weights = _draws(len(keys), rng)
    total = sum(weights)
    if total <= 0:  # every weight zero: uniform
        return keys[sample_index(_scaled(weights, total), rng)]
    divisor = _divisor(total)
    point = rng.random()
    for key, weight in zip(keys, weights, strict=True):
        point -= weight / divisor  # the probability, as ``_scaled`` computes it
        if point < 0:
            return key
    return keys[-1]  # rounding left a sliver of probability: the last key


def _random_weights(keys: Iterable[int], rng: random.Random) -> dict[int, float]:
    """Uniform random weights (normalised by the policy that receives them)."""
    random_ = rng.random
    return {key: random_() for key in keys}


def declaration_bounds(value_probs: Iterable[Sequence[float]]) -> list[list[float]]:
    """For every player, the upper bounds of the values' intervals (cumulative probabilities).

    The last bound is infinite so that rounding can never step past the last value.
    """
    return [[*accumulate(row[:-1]), math.inf] for row in value_probs]


def random_declaration_bounds(num_players: int, rng: random.Random) -> list[list[float]]:
    """The bounds of ``ProbabilisticDeclarationPolicy.create_random_policy`` (same draws).

    A RandomAgent makes one per game: 70 draws, normalised and accumulated row by row in
    one pass (the same floats as :func:`declaration_bounds` of normalised rows).
    """
    size = len(DECLARATION_VALUES)
    draws = _draws(num_players * size, rng)
    bounds = []
    for start in range(0, len(draws), size):
        weights = draws[start : start + size]
        row = _scaled(weights, sum(weights))
        row[-1] = math.inf  # a fresh list: its last value is never a bound (x + inf == inf)
        bounds.append(list(accumulate(row)))
    return bounds


def sample_declaration(bounds: Sequence[Sequence[float]], rng: random.Random) -> tuple[int, ...]:
    """One value per player from :func:`declaration_bounds`, one ``rng.random()`` each."""
    indices = map(bisect_right, bounds, _draws(len(bounds), rng))  # all in C: no Python loop
    return tuple(map(DECLARATION_VALUES.__getitem__, indices))


def _int_keys(data: Mapping[Any, float]) -> dict[int, float]:
    return {int(k): float(v) for k, v in data.items()}


@dataclass
class ProbabilisticVotingPolicy:
    """Probabilities over vote (or nomination) targets."""

    target_probs: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.target_probs = normalise(self.target_probs)

    def set_probabilities(self, probs: Mapping[int, float]) -> None:
        """Replace the distribution (weights are normalised)."""
        self.target_probs = normalise(probs)

    def sample_vote(self, rng: random.Random) -> int:
        return sample_key(self.target_probs, rng)

    def to_dict(self) -> dict[str, Any]:
        return {"target_probs": {str(t): p for t, p in self.target_probs.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProbabilisticVotingPolicy:
        return cls(_int_keys(data["target_probs"]))

    @classmethod
    def create_random_policy(
        cls, targets: Sequence[int], rng: random.Random
    ) -> ProbabilisticVotingPolicy:
        return cls(_random_weights(targets, rng))


@dataclass
class ProbabilisticNightActionPolicy:
    """Probabilities over the target of a night action; only a ``KILL`` may hold -1 (skip)."""

    action_type: str
    target_probs: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.action_type not in NIGHT_ACTION_TYPES:
            raise ValueError(f"unknown night action {self.action_type!r}")
        self.set_probabilities(self.target_probs)

    def set_probabilities(self, probs: Mapping[int, float]) -> None:
        if SKIP in probs and self.action_type != "KILL":
            raise ValueError(f"{self.action_type} cannot be skipped")
        self.target_probs = normalise(probs)

    def sample_target(self, rng: random.Random) -> int:
        return sample_key(self.target_probs, rng)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action_type": self.action_type,
            "target_probs": {str(t): p for t, p in self.target_probs.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProbabilisticNightActionPolicy:
        return cls(data["action_type"], _int_keys(data["target_probs"]))

    @classmethod
    def create_random_policy(
        cls, action_type: str, targets: Sequence[int], rng: random.Random
    ) -> ProbabilisticNightActionPolicy:
        """Random weights over ``targets``; a kill also gets a random weight on skipping."""
        keys = [SKIP, *targets] if action_type == "KILL" and SKIP not in targets else targets
        return cls(action_type, _random_weights(keys, rng))


@dataclass
class ProbabilisticDeclarationPolicy:
    """For every player, a distribution over the declaration values -3..3."""

    value_probs: list[list[float]]
    _cumulative: list[list[float]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for player, probs in enumerate(self.value_probs):
            self.set_player_probabilities(player, probs)

    @property
    def num_players(self) -> int:
        return len(self.value_probs)

    def set_player_probabilities(self, player: int, probs: Sequence[float]) -> None:
        """Set the distribution over -3..3 (seven weights, normalised) for ``player``."""
        if len(probs) != len(DECLARATION_VALUES):
            raise ValueError("a declaration distribution has 7 weights, for -3..3")
        self.value_probs[player] = normalised(probs)
        self._cumulative = None

    def set_belief(self, player: int, value: int) -> None:
        """Declare ``value`` for ``player`` with certainty."""
        self.set_player_probabilities(player, [float(v == value) for v in DECLARATION_VALUES])

    def sample_declaration(self, rng: random.Random) -> tuple[int, ...]:
        """One value per player, one ``rng.random()`` each."""
        if self._cumulative is None:
            self._cumulative = declaration_bounds(self.value_probs)
        return sample_declaration(self._cumulative, rng)

    def to_dict(self) -> dict[str, Any]:
        return {"value_probs": [list(row) for row in self.value_probs]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProbabilisticDeclarationPolicy:
        return cls([[float(p) for p in row] for row in data["value_probs"]])

    @classmethod
    def create_random_policy(
        cls, num_players: int, rng: random.Random
    ) -> ProbabilisticDeclarationPolicy:
        random_ = rng.random
        return cls([[random_() for _ in DECLARATION_VALUES] for _ in range(num_players)])


@dataclass
class ProbabilisticEliminateAllPolicy:
    """The probability of voting to eliminate every tied player."""

    true_prob: float = 0.5

    def __post_init__(self) -> None:
        self.set_true_probability(self.true_prob)

    def set_true_probability(self, probability: float) -> None:
        if not 0.0 <= probability <= 1.0:
            raise ValueError("a probability lies within 0..1")
        self.true_prob = float(probability)

    def sample_vote(self, rng: random.Random) -> bool:
        return rng.random() < self.true_prob

    def to_dict(self) -> dict[str, Any]:
        return {"true_prob": self.true_prob}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProbabilisticEliminateAllPolicy:
        return cls(float(data["true_prob"]))

    @classmethod
    def create_random_policy(cls, rng: random.Random) -> ProbabilisticEliminateAllPolicy:
        return cls(rng.random())


@dataclass
class SheriffPolicy:
    """Whether and what to claim as sheriff, consistent across turns.

    Once a row of the claim matrix has been revealed it never changes, a claimer never
    stops claiming, and no player is named twice. ``known_checks`` (turn -> (target, value))
    are checks the player really made (a sheriff's); they are revealed truthfully except
    with ``lie_prob``. Rows without a real check are invented: the target is drawn from
    ``target_weights`` over living others (uniform if unset or all zero) and called black with
    ``black_prob``; ``protected`` players (a mafioso's teammates) are always called red.
    Each turn the player starts claiming with ``claim_prob`` (if it has anything to reveal).
    """

    player_id: int
    current_turn: int = 0
    alive_players: tuple[int, ...] = tuple(range(NUM_PLAYERS))
    claim_prob: float = 0.0
    black_prob: float = 0.5
    lie_prob: float = 0.0
    target_weights: dict[int, float] = field(default_factory=dict)
    protected: frozenset[int] = frozenset()
    known_checks: dict[int, tuple[int, int]] = field(default_factory=dict)
    claimed_rows: dict[int, tuple[int, ...]] = field(default_factory=dict)
    decided_turn: int = -1

    def __post_init__(self) -> None:
        for name in ("claim_prob", "black_prob", "lie_prob"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must lie within 0..1")
        self.alive_players = tuple(self.alive_players)
        self.protected = frozenset(self.protected)

    @property
    def claiming(self) -> bool:
        return bool(self.claimed_rows)

    def update_turn(self, turn: int, alive_players: Iterable[int] | None = None) -> None:
        """Move to ``turn`` (never backwards); revealed rows stay as they are."""
        if turn < self.current_turn:
            raise ValueError(f"turn {turn} is before turn {self.current_turn}")
        self.current_turn = turn
        if alive_players is not None:
            self.alive_players = tuple(alive_players)

    def record_check(self, turn: int, target: int, is_black: bool) -> None:
        """Remember a real check (made in the night of ``turn``) to reveal later."""
        self.known_checks[turn] = (target, BLACK_CLAIM if is_black else RED_CLAIM)

    def set_claim_probability(self, probability: float) -> None:
        if not 0.0 <= probability <= 1.0:
            raise ValueError("a probability lies within 0..1")
        self.claim_prob = probability

    def sample_sheriff_claims(self, rng: random.Random) -> ClaimMatrix:
        """The claim matrix for the current turn (decided once per turn, then fixed)."""
        if self.decided_turn != self.current_turn:
            self.decided_turn = self.current_turn
            revealable = min(self.current_turn, NUM_PLAYERS)
            if revealable and (self.claiming or rng.random() < self.claim_prob):
                for turn in range(revealable):
                    if turn not in self.claimed_rows:
                        self.claimed_rows[turn] = self._new_row(turn, rng)
        return self.matrix()

    def claim_now(self, rng: random.Random) -> ClaimMatrix:
        """Start (or go on) claiming this turn, whatever ``claim_prob`` says."""
        self.decided_turn = -1
        saved, self.claim_prob = self.claim_prob, 1.0
        try:
            return self.sample_sheriff_claims(rng)
        finally:
            self.claim_prob = saved

    def matrix(self) -> ClaimMatrix:
        if not self.claimed_rows:
            return ZERO_CLAIMS  # most players never claim: no matrix to build
        zero = (0,) * NUM_PLAYERS
        return tuple(self.claimed_rows.get(t, zero) for t in range(NUM_PLAYERS))

    def named(self) -> set[int]:
        """Players already named in a revealed row."""
        return {p for row in self.claimed_rows.values() for p, v in enumerate(row) if v}

    def _new_row(self, turn: int, rng: random.Random) -> tuple[int, ...]:
        named = self.named()
        known = self.known_checks.get(turn)
        if known is not None and known[0] not in named:
            target, value = known
            if rng.random() < self.lie_prob:
                value = -value
        else:
            reserved = named | {t for t, _ in self.known_checks.values()}
            candidates = [
                p for p in self.alive_players if p != self.player_id and p not in reserved
            ]
            if not candidates:
                return (0,) * NUM_PLAYERS
            preferred = self.target_weights
            if preferred:
                weights = [preferred.get(p, 0.0) for p in candidates]
            else:
                weights = [1.0] * len(candidates)
            target = candidates[sample_index(normalised(weights), rng)]
            black = target not in self.protected and rng.random() < self.black_prob
            value = BLACK_CLAIM if black else RED_CLAIM
        row = [0] * NUM_PLAYERS
        row[target] = value
        return tuple(row)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "current_turn": self.current_turn,
            "alive_players": list(self.alive_players),
            "claim_prob": self.claim_prob,
            "black_prob": self.black_prob,
            "lie_prob": self.lie_prob,
            "target_weights": {str(p): w for p, w in self.target_weights.items()},
            "protected": sorted(self.protected),
            "known_checks": {str(t): list(c) for t, c in self.known_checks.items()},
            "claimed_rows": {str(t): list(r) for t, r in self.claimed_rows.items()},
            "decided_turn": self.decided_turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SheriffPolicy:
        return cls(
            player_id=int(data["player_id"]),
            current_turn=int(data["current_turn"]),
            alive_players=tuple(int(p) for p in data["alive_players"]),
            claim_prob=float(data["claim_prob"]),
            black_prob=float(data["black_prob"]),
            lie_prob=float(data["lie_prob"]),
            target_weights=_int_keys(data.get("target_weights", {})),
            protected=frozenset(int(p) for p in data.get("protected", ())),
            known_checks={
                int(t): (int(c[0]), int(c[1])) for t, c in data.get("known_checks", {}).items()
            },
            claimed_rows={
                int(t): tuple(int(v) for v in r) for t, r in data.get("claimed_rows", {}).items()
            },
            decided_turn=int(data.get("decided_turn", -1)),
        )

    @classmethod
    def create_random_policy(
        cls,
        player_id: int,
        current_turn: int,
        alive_players: Iterable[int],
        rng: random.Random,
        max_claim_prob: float = 0.3,
    ) -> SheriffPolicy:
        """A random claimer: claims with a random daily probability, calls random players."""
        return cls(
            player_id=player_id,
            current_turn=current_turn,
            alive_players=tuple(alive_players),
            claim_prob=rng.random() * max_claim_prob,
            black_prob=rng.random(),
        )
