"""The rating models behind :class:`RatingModel`: OpenSkill's known first update, both
models ranking a dominant entrant first, and their held-out predictions as probabilities."""

from __future__ import annotations

import math

import pytest

from duskfall.rating.bradley_terry import RatedGame, RatedSeat
from duskfall.rating.holdout import fold_orders, holdout_scores
from duskfall.rating.models import MODELS, OpenSkill, RatedGames, RatingModel
from rating.rating_kit import CoinFlip


def game(deal: int, evil: str, village: str, result: float) -> RatedGame:
    seats = (RatedSeat(evil, "wolf", "evil"), RatedSeat(village, "villager", "village"))
    return RatedGame("block", deal, seats, result)


def test_openskill_gives_plackett_luces_first_update() -> None:
    """One win between two fresh players: OpenSkill 6's Plackett-Luce moves mu from 25 to
    27.6354 and 22.3646 (the library's own answer; ours is its update, vectorised)."""
    skills = OpenSkill().skills(RatedGames([game(0, "A", "B", 1.0)], ["A", "B"]))
    assert math.isclose(skills["A"], 27.635389493140497, rel_tol=1e-12)
    assert math.isclose(skills["B"], 22.364610506859503, rel_tol=1e-12)


def test_every_model_ranks_the_stronger_entrant_first_and_predicts_probabilities() -> None:
    # A wins 4 of 5 on either side against B, over ten deals; C loses to both.
    games = []
    for deal in range(10):
        first, second = ("A", "B") if deal % 2 else ("B", "A")
        won = deal % 5 != 0
        games.append(game(deal, first, second, float(won == (first == "A"))))
        games.append(game(100 + deal, "C", first, 0.0))
    rated = RatedGames(games, ["A", "B", "C"])
    split = fold_orders(games)
    assert split is not None
    trains, tests = split
    names = []
    for model in MODELS:
        assert isinstance(model.name, str)
        names.append(model.name)
        skills = model.skills(rated)
        assert skills["A"] > skills["B"] > skills["C"], model.name
        folds = model.predict(rated, trains, tests)
        assert [len(f) for f in folds] == [len(t) for t in tests]
        assert all(0 < p < 1 for fold in folds for p in fold)
    assert names == ["board", "openskill"]
    assert list(holdout_scores(games, ["A", "B", "C"])) == [*names, "win rates", "side only"]


def test_a_new_model_joins_the_held_out_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    coin: RatingModel = CoinFlip()
    games = [game(d, "A", "B", float(d % 2)) for d in range(10)]
    monkeypatch.setattr("duskfall.rating.holdout.MODELS", (*MODELS, coin))
    scores = holdout_scores(games, ["A", "B"])
    assert math.isclose(scores["coin-flip"].brier, 0.25)
    assert math.isclose(scores["coin-flip"].log_loss, math.log(2))
