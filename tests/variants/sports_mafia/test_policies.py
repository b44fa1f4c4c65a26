"""Properties of the probabilistic policy framework (seed 001)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.variants.sports_mafia.actions import NUM_PLAYERS, SKIP
from duskfall.variants.sports_mafia.policies import (
    DECLARATION_VALUES,
    ProbabilisticDeclarationPolicy,
    ProbabilisticEliminateAllPolicy,
    ProbabilisticNightActionPolicy,
    ProbabilisticVotingPolicy,
    SheriffPolicy,
    declaration_bounds,
    draw_from_random_policy,
    random_declaration_bounds,
    random_distribution,
    sample_declaration,
)

seeds = st.integers(0, 2**32 - 1)
players = st.integers(0, NUM_PLAYERS - 1)
targets = st.lists(players, min_size=1, max_size=NUM_PLAYERS, unique=True)
weights = st.floats(0, 1e6, allow_nan=False)


def json_round_trip(data: dict) -> dict:
    return json.loads(json.dumps(data))


@given(st.dictionaries(players, weights, min_size=1), seeds)
def test_voting_policy_is_normalised_and_samples_its_support(probs, seed):
    policy = ProbabilisticVotingPolicy()
    policy.set_probabilities(probs)
    assert sum(policy.target_probs.values()) == pytest.approx(1.0)
    assert all(p >= 0 for p in policy.target_probs.values())
    rng = random.Random(seed)
    support = {t for t, p in policy.target_probs.items() if p > 0}
    assert all(policy.sample_vote(rng) in support for _ in range(20))


@given(targets, seeds)
def test_random_voting_policy_round_trips(options, seed):
    policy = ProbabilisticVotingPolicy.create_random_policy(options, random.Random(seed))
    assert set(policy.target_probs) == set(options)
    assert sum(policy.target_probs.values()) == pytest.approx(1.0)
    assert ProbabilisticVotingPolicy.from_dict(json_round_trip(policy.to_dict())) == policy


@given(st.sampled_from(["KILL", "DON_CHECK", "SHERIFF_CHECK"]), targets, seeds)
def test_night_policy_samples_legal_targets(action_type, options, seed):
    rng = random.Random(seed)
    policy = ProbabilisticNightActionPolicy.create_random_policy(action_type, options, rng)
    allowed = {*options, SKIP} if action_type == "KILL" else set(options)
    assert set(policy.target_probs) == allowed
    assert sum(policy.target_probs.values()) == pytest.approx(1.0)
    assert all(policy.sample_target(rng) in allowed for _ in range(20))
    restored = ProbabilisticNightActionPolicy.from_dict(json_round_trip(policy.to_dict()))
    assert restored == policy


def test_only_a_kill_may_be_skipped():
    ProbabilisticNightActionPolicy("KILL", {SKIP: 1.0})
    with pytest.raises(ValueError):
        ProbabilisticNightActionPolicy("DON_CHECK", {SKIP: 1.0, 3: 1.0})
    with pytest.raises(ValueError):
        ProbabilisticNightActionPolicy("SHOOT", {3: 1.0})


@given(st.integers(1, 12), seeds)
def test_declaration_policy_is_normalised_round_trips_and_samples_in_range(n, seed):
    rng = random.Random(seed)
    policy = ProbabilisticDeclarationPolicy.create_random_policy(n, rng)
    assert all(sum(row) == pytest.approx(1.0) for row in policy.value_probs)
    declaration = policy.sample_declaration(rng)
    assert len(declaration) == n
    assert all(v in DECLARATION_VALUES for v in declaration)
    restored = ProbabilisticDeclarationPolicy.from_dict(json_round_trip(policy.to_dict()))
    assert restored == policy
    assert restored.sample_declaration(random.Random(seed)) == policy.sample_declaration(
        random.Random(seed)
    )


@given(st.lists(st.sampled_from(DECLARATION_VALUES), min_size=10, max_size=10), seeds)
def test_declaration_beliefs_set_with_certainty_are_declared(values, seed):
    policy = ProbabilisticDeclarationPolicy.create_random_policy(10, random.Random(seed))
    for player, value in enumerate(values):
        policy.set_belief(player, value)
    assert policy.sample_declaration(random.Random(seed)) == tuple(values)


@given(st.floats(0, 1), seeds)
def test_eliminate_all_policy(probability, seed):
    policy = ProbabilisticEliminateAllPolicy()
    policy.set_true_probability(probability)
    rng = random.Random(seed)
    votes = {policy.sample_vote(rng) for _ in range(20)}
    if probability == 0:
        assert votes == {False}
    if probability == 1:
        assert votes == {True}
    restored = ProbabilisticEliminateAllPolicy.from_dict(json_round_trip(policy.to_dict()))
    assert restored == policy
    with pytest.raises(ValueError):
        policy.set_true_probability(1.5)


def named_players(matrix) -> list[int]:
    return [p for row in matrix for p, v in enumerate(row) if v]


def check_matrix(matrix, policy: SheriffPolicy) -> None:
    assert len(matrix) == NUM_PLAYERS
    assert all(len(row) == NUM_PLAYERS and set(row) <= {-1, 0, 1} for row in matrix)
    assert all(sum(1 for v in row if v) <= 1 for row in matrix), "a row names one player"
    named = named_players(matrix)
    assert len(named) == len(set(named)), "nobody is checked twice"
    assert policy.player_id not in named
    assert all(not any(row) for row in matrix[policy.current_turn :]), "no future checks"
    assert all(
        matrix[t][p] == 1 for t in range(NUM_PLAYERS) for p in policy.protected if matrix[t][p]
    )


@settings(max_examples=80, deadline=None)
@given(
    players,
    seeds,
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2**16)), min_size=1, max_size=12),
    st.floats(0, 1),
    st.booleans(),
)
def test_sheriff_claims_stay_consistent_across_turns(player, seed, steps, claim_prob, protect):
    rng = random.Random(seed)
    alive = list(range(NUM_PLAYERS))
    policy = SheriffPolicy.create_random_policy(player, 0, alive, rng)
    policy.set_claim_probability(claim_prob)
    if protect:
        policy.protected = frozenset(p for p in range(3) if p != player)
    previous = policy.sample_sheriff_claims(rng)
    for advance, kill_seed in steps:
        victim = alive[kill_seed % len(alive)]
        if victim != player and len(alive) > 3:
            alive.remove(victim)
        policy.update_turn(policy.current_turn + advance, alive)
        matrix = policy.sample_sheriff_claims(rng)
        check_matrix(matrix, policy)
        assert policy.sample_sheriff_claims(rng) == matrix, "one decision per turn"
        for old_row, row in zip(previous, matrix, strict=True):
            if any(old_row):
                assert row == old_row, "a revealed row never changes"
        if any(map(any, previous)):
            assert policy.claiming
        restored = SheriffPolicy.from_dict(json_round_trip(policy.to_dict()))
        assert restored == policy
        previous = matrix


@given(st.dictionaries(st.integers(0, 8), st.tuples(players, st.booleans()), max_size=9), seeds)
def test_a_truthful_sheriff_reveals_its_checks(checks, seed):
    policy = SheriffPolicy(9)
    for turn, (target, is_black) in checks.items():
        if target != 9:
            policy.record_check(turn, target, is_black)
    policy.update_turn(9)
    matrix = policy.claim_now(random.Random(seed))
    revealed: set[int] = set()
    for turn, (target, value) in sorted(policy.known_checks.items()):
        if target not in revealed:
            assert matrix[turn][target] == value
        revealed.add(target)


def test_sheriff_turns_never_go_back():
    policy = SheriffPolicy(0, current_turn=3)
    with pytest.raises(ValueError):
        policy.update_turn(2)
    assert policy.sample_sheriff_claims(random.Random(0)) == ((0,) * NUM_PLAYERS,) * NUM_PLAYERS


# RandomAgent draws from flat lists instead of policy objects: the same draws and floats.


@given(targets, seeds)
def test_flat_random_policy_draws_as_the_policy_object(options, seed):
    rng, flat = random.Random(seed), random.Random(seed)
    policy = ProbabilisticVotingPolicy.create_random_policy(options, rng)
    assert random_distribution(len(options), flat) == list(policy.target_probs.values())
    assert flat.getstate() == rng.getstate()
    rng, flat = random.Random(seed), random.Random(seed)
    expected = ProbabilisticVotingPolicy.create_random_policy(options, rng).sample_vote(rng)
    assert draw_from_random_policy(options, flat) == expected
    assert flat.getstate() == rng.getstate()


@given(st.integers(1, NUM_PLAYERS), seeds)
def test_flat_declaration_policy_draws_as_the_policy_object(n, seed):
    rng, flat = random.Random(seed), random.Random(seed)
    policy = ProbabilisticDeclarationPolicy.create_random_policy(n, rng)
    bounds = random_declaration_bounds(n, flat)
    assert bounds == declaration_bounds(policy.value_probs)
    for _ in range(5):
        assert sample_declaration(bounds, flat) == policy.sample_declaration(rng)
    assert flat.getstate() == rng.getstate()
