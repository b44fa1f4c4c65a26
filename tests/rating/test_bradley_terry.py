"""The board's Bradley-Terry fit: a fixture whose answer is known in closed form, and the
analytic gradient of the penalised likelihood against finite differences (as choix tests
its likelihoods)."""

from __future__ import annotations

import math
import random

import numpy as np
from scipy.optimize import brentq

from duskfall.rating.bradley_terry import (
    SKILL_PRIOR_SD,
    Design,
    RatedGame,
    RatedSeat,
    anchored,
)


def one_on_one(deal: int, evil: str, village: str, result: float) -> RatedGame:
    seats = (RatedSeat(evil, "wolf", "evil"), RatedSeat(village, "villager", "village"))
    return RatedGame("block", deal, seats, result)


# A as the evil side wins 3 of 4 against B; B as the evil side wins 1 of 4 against A.
FIXTURE = [one_on_one(i, "A", "B", float(i < 3)) for i in range(4)] + [
    one_on_one(4 + i, "B", "A", float(i < 1)) for i in range(4)
]


def test_the_fixture_fits_its_closed_form() -> None:
    """The posterior mode satisfies theta = prior_cov X^T r, with r = wins - n p per design
    row. Here the two rows are mirror images (h = 0, r2 = -r1), so the logit z of A's row
    solves z = (sd_h^2 + 2 sd_s^2 - sd_h^2) r = 2 sd_s^2 (3 - 4 sigmoid(z)), and A's overall
    skill, anchored to the field's mean, is z / 2."""
    k = 2 * SKILL_PRIOR_SD**2
    z = brentq(lambda z: z - k * (3 - 4 / (1 + math.exp(-z))), -10, 10, xtol=1e-14)
    design = Design(FIXTURE, ["A", "B"])
    skills = anchored(design.params, design.fit())
    assert math.isclose(skills.overall("A"), z / 2, abs_tol=1e-9)
    assert math.isclose(skills.overall("B"), -z / 2, abs_tol=1e-9)
    assert math.isclose(skills.deception["A"], skills.detection["A"], abs_tol=1e-9)
    assert abs(skills.side_advantage["block"]) < 1e-9


def random_games(rng: random.Random, count: int) -> list[RatedGame]:
    names = ["A", "B", "C", "D"]
    games = []
    for deal in range(count):
        evil = rng.sample(names, rng.choice([1, 2]))
        village = [rng.choice(names) for _ in range(rng.choice([2, 3]))]
        seats = tuple(
            [RatedSeat(e, "wolf", "evil") for e in evil]
            + [RatedSeat(v, rng.choice(["seer", "villager"]), "village") for v in village]
        )
        block = rng.choice(["x", "y"])
        games.append(RatedGame(block, deal, seats, rng.choice([0.0, 0.5, 1.0])))
    return games


def test_the_gradient_is_the_likelihoods_by_finite_differences() -> None:
    rng = random.Random(7)
    for role_effects in (False, True):
        design = Design(random_games(rng, 40), ["A", "B", "C", "D"], role_effects=role_effects)
        weights = np.asarray([rng.choice([0.0, 1.0, 2.0]) for _ in design.games])
        theta = np.asarray([rng.gauss(0, 1) for _ in range(design.params.size)])
        analytic = design.gradient(theta, weights)
        step = 1e-6
        numeric = np.asarray(
            [
                (
                    design.log_posterior(theta + step * unit, weights)
                    - design.log_posterior(theta - step * unit, weights)
                )
                / (2 * step)
                for unit in np.eye(design.params.size)
            ]
        )
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-6)


def test_the_fit_is_where_the_gradient_vanishes_and_the_likelihood_peaks() -> None:
    design = Design(random_games(random.Random(3), 60), ["A", "B", "C", "D"], role_effects=True)
    theta = design.fit()
    assert float(np.max(np.abs(design.gradient(theta)))) < 1e-8
    best = design.log_posterior(theta)
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert design.log_posterior(theta + 0.01 * rng.standard_normal(theta.shape)) < best
