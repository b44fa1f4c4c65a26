"""The board's model against planted truth: synthetic outcomes from known deception and detection
skills and side advantages, fitted back; intervals that hold their points and their truth."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.rating.bradley_terry import RatedGame, RatedSeat, anchored
from duskfall.rating.fit import fit_games, pair_differences
from duskfall.rating.holdout import holdout_scores
from duskfall.rating.intervals import critical
from duskfall.rating.sequential import boundaries, conditional_power, plan_looks, spent
from duskfall.report.board import build_board

NAMES = ["a", "b", "c", "d"]
DECEPTION = {"a": 1.0, "b": 0.2, "c": -0.3, "d": -0.9}
DETECTION = {"a": -0.5, "b": 0.8, "c": 0.1, "d": -0.4}
SIDE = {"ww": 0.6, "sm": -0.4}


def _seats(evil: str, village: str, wolves: int = 3, others: int = 6) -> tuple[RatedSeat, ...]:
    return tuple(
        [RatedSeat(evil, "Werewolf", "evil")] * wolves
        + [RatedSeat(village, "Seer", "village")]
        + [RatedSeat(village, "Villager", "village")] * (others - 1)
    )


def planted(deals: int, seed: int, names: list[str] = NAMES) -> list[RatedGame]:
    """A duplicate-style tournament: every deal played once per entrant, each evil once, and
    outcomes drawn from the model with the planted skills (a deal effect shared by its games)."""
    rng = random.Random(seed)
    games = []
    k = len(names)
    for deal in range(deals):
        block = "ww" if deal % 2 else "sm"
        offset = 1 + deal % (k - 1)
        luck = rng.gauss(0, 0.5)  # the deal favours one side for all its games
        for j in range(k):
            evil, village = names[j], names[(j + offset) % k]
            logit = SIDE[block] + luck + DECEPTION[evil] - DETECTION[village]
            result = float(rng.random() < 1 / (1 + math.exp(-logit)))
            games.append(RatedGame(block, deal, _seats(evil, village), result))
    return games


def test_the_fit_recovers_planted_skills_and_side_advantages() -> None:
    games = planted(deals=3000, seed=1)
    fit = fit_games(games, NAMES, bootstrap=0)
    skills = anchored(fit.params, fit.theta)
    mean_d = np.mean(list(DECEPTION.values()))
    mean_t = np.mean(list(DETECTION.values()))
    for name in NAMES:  # the deal luck attenuates logistic coefficients a little (~3%)
        assert skills.deception[name] == pytest.approx(DECEPTION[name] - mean_d, abs=0.12)
        assert skills.detection[name] == pytest.approx(DETECTION[name] - mean_t, abs=0.12)
    for block, value in SIDE.items():
        assert skills.side_advantage[block] == pytest.approx(value + mean_d - mean_t, abs=0.12)


@pytest.mark.slow
def test_the_intervals_of_pairwise_differences_cover_the_planted_ones() -> None:
    truth = {
        (a, b): (DECEPTION[a] + DETECTION[a] - DECEPTION[b] - DETECTION[b]) / 2
        for i, a in enumerate(NAMES)
        for b in NAMES[i + 1 :]
    }
    covered = []
    for seed in range(30):
        fit = fit_games(planted(deals=60, seed=100 + seed), NAMES, bootstrap=100, seed=seed)
        q = critical(0.95, fit.deals)
        for pair, (difference, se) in pair_differences(fit).items():
            covered.append(abs(difference - truth[pair]) <= q * se * 1.0)
    share = sum(covered) / len(covered)
    print(f"coverage of 95% intervals over {len(covered)} planted differences: {share:.1%}")
    assert 0.88 <= share <= 0.995


def test_the_reference_entrant_anchors_the_scale_without_changing_a_prediction() -> None:
    games = planted(deals=200, seed=3)
    by_mean = fit_games(games, NAMES, bootstrap=0)
    by_ref = fit_games(games, NAMES, reference="c", bootstrap=0)
    ref = anchored(by_ref.params, by_ref.theta, "c")
    assert ref.deception["c"] == 0 and ref.detection["c"] == 0
    mean = anchored(by_mean.params, by_mean.theta)
    assert ref.overall("a") - ref.overall("b") == pytest.approx(
        mean.overall("a") - mean.overall("b")
    )
    assert np.allclose(
        by_ref.design.predict(by_ref.theta, games), by_mean.design.predict(by_mean.theta, games)
    )


def test_two_entrants_that_only_meet_each_other_get_no_separate_skills() -> None:
    rng = random.Random(0)
    games = [
        RatedGame("ww", deal, _seats(*pair), float(rng.random() < 0.6))
        for deal in range(40)
        for pair in (("a", "b"), ("b", "a"))
    ]
    board = build_board(games, {"a": "x", "b": "y"}, bootstrap=30, holdout=False)
    assert all(not e.sides_identified and math.isnan(e.deception.point) for e in board.entrants)
    assert all(e.overall.known for e in board.entrants)
    three = build_board(
        planted(20, 1, ["a", "b", "c"]), {"a": "x", "b": "y", "c": "z"}, bootstrap=30, holdout=False
    )
    assert all(e.sides_identified and e.deception.known for e in three.entrants)


def test_draws_count_half_and_win_rates_are_per_side_and_role() -> None:
    games = [RatedGame("ww", d, _seats("a", "b"), 0.5) for d in range(10)]
    games += [RatedGame("ww", 10 + d, _seats("b", "a"), 1.0) for d in range(10)]
    board = build_board(games, {"a": "x", "b": "y"}, bootstrap=0, holdout=False)
    a = board.entrant("a")
    assert a.win_rates["evil"].wins == 5 and a.win_rates["evil"].games == 10
    assert a.win_rates["village"].wins == 0 and a.win_rates["Seer"].games == 10
    assert board.draws == 10


def test_mixed_seats_give_no_tautological_overall_win_rate() -> None:
    seats = (RatedSeat("a", "Werewolf", "evil"), RatedSeat("a", "Seer", "village"))
    seats += (RatedSeat("b", "Werewolf", "evil"), RatedSeat("b", "Villager", "village"))
    games = [RatedGame("ww", d, seats, float(d % 2)) for d in range(10)]
    board = build_board(games, {"a": "x", "b": "y"}, bootstrap=0, holdout=False)
    assert "all" not in board.entrant("a").win_rates and "evil" in board.entrant("a").win_rates


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 12))
def test_every_interval_holds_its_point(seed: int, deals: int) -> None:
    games = planted(deals, seed, ["a", "b", "c"])
    board = build_board(
        games, {"a": "x", "b": "y", "c": "z"}, bootstrap=20, seed=seed, holdout=False
    )
    estimates = [e.overall for e in board.entrants] + [e.elo for e in board.entrants]
    estimates += [p.overall for p in board.pairs] + [p.a_beats_b for p in board.pairs]
    for entrant in board.entrants:
        if entrant.openskill is not None and not math.isnan(entrant.openskill.low):
            assert entrant.openskill.low <= entrant.openskill.mu <= entrant.openskill.high
    for e in estimates:
        assert not e.known or e.low <= e.point <= e.high


def test_held_out_scores_rank_a_real_model_above_the_side_alone() -> None:
    scores = holdout_scores(planted(deals=300, seed=5), NAMES)
    assert set(scores) == {"board", "openskill", "win rates", "side only"}
    assert scores["board"].log_loss < scores["side only"].log_loss
    assert scores["board"].brier < 0.25 and scores["board"].games == 1200


def test_alpha_spending_boundaries_keep_the_chance_of_ever_crossing_at_five_percent() -> None:
    fractions = tuple((k + 1) / 8 for k in range(8))
    c = np.asarray(boundaries(fractions))
    assert c[-1] == pytest.approx(2.104, abs=0.005) and list(c) == sorted(c, reverse=True)
    rng = np.random.default_rng(0)
    steps = rng.normal(size=(200_000, 8)) * np.sqrt(np.diff((0.0, *fractions)))
    z = np.cumsum(steps, axis=1) / np.sqrt(fractions)
    crossed = np.abs(z) >= c
    assert crossed.any(axis=1).mean() == pytest.approx(0.05, abs=0.003)
    assert crossed[:, :4].any(axis=1).mean() == pytest.approx(spent(0.5), abs=0.002)
    assert boundaries((1.0,))[0] == pytest.approx(1.95996, abs=1e-4)


def test_looks_fall_at_the_ends_of_deals_and_conditional_power_behaves() -> None:
    plan = plan_looks([5] * 40, 8)
    assert plan.games == (25, 50, 75, 100, 125, 150, 175, 200) and plan.cap == 200
    assert conditional_power(0.0, 0.75, 2.1) < 0.05  # nothing seen by three quarters
    assert conditional_power(0.0, 0.125, 2.1) > 0.5  # too early to give up
    assert conditional_power(0.0, 0.5, 2.1, optimism=0.0) < 0.05  # the current trend alone
    assert conditional_power(3.0, 0.5, 2.1) > 0.9


def test_role_effects_are_reported_and_shrunk_towards_the_side_skill() -> None:
    games = planted(deals=150, seed=9)
    plain = build_board(games, {n: n for n in NAMES}, bootstrap=20, holdout=False)
    roles = build_board(
        games, {n: n for n in NAMES}, role_effects=True, bootstrap=20, holdout=False
    )
    a = roles.entrant("a")
    assert set(a.roles) == {
        "ww:Werewolf",
        "ww:Seer",
        "ww:Villager",
        "sm:Werewolf",
        "sm:Seer",
        "sm:Villager",
    }
    assert all(abs(e.point) < 0.5 and e.known for e in a.roles.values())  # none planted
    for name in NAMES:
        assert roles.entrant(name).overall.point == pytest.approx(
            plain.entrant(name).overall.point, abs=0.15
        )
    assert not plain.entrant("a").roles
