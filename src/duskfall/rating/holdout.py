"""Which rating predicts? Held-out prediction of game outcomes, k folds by deal.

The deals are split into ``folds`` groups (seeded); each group's games are predicted by each
rating fitted on the other groups' games, and every held-out game is scored: log loss (natural
log, probabilities clipped to [1e-6, 1 - 1e-6]) and Brier score of P(evil wins) against the
result (a draw is 0.5). Lower is better; a coin scores 0.693 and 0.25.

* every rating model of :data:`duskfall.rating.models.MODELS` (``board``: the board's
  Bradley-Terry model; ``openskill``: OpenSkill's own prediction of the evil team winning,
  after rating the training games in order), by its ``predict``;
* ``win rates``: each entrant's win rate on the side it holds (add-one smoothed), the evil
  side's and the village side's averaged (seats weighted);
* ``side only``: each block's share of evil wins, whoever plays (the floor any rating must
  beat to have learnt anything about the entrants).
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from duskfall.rating.bradley_terry import Design, RatedGame
from duskfall.rating.models import MODELS, Rated, RatedGames
from duskfall.rating.openskill_batch import TwoTeamGames

CLIP = 1e-6
FOLDS = 5

Predictor = Callable[[Sequence[RatedGame], Sequence[RatedGame]], Sequence[float]]
FoldPredictor = Callable[[list[list[int]], list[list[int]]], list[list[float]]]
"""Every fold's predictions at once, from each fold's (train, test) game numbers."""


@dataclass(frozen=True)
class Score:
    log_loss: float
    brier: float
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "log_loss": round(self.log_loss, 5),
            "brier": round(self.brier, 5),
            "games": self.games,
        }


def _score(predicted: Sequence[float], games: Sequence[RatedGame]) -> Score:
    p = np.clip(np.asarray(predicted, dtype=np.float64), CLIP, 1 - CLIP)
    y = np.asarray([g.result for g in games], dtype=np.float64)
    loss = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return Score(float(loss.mean()), float(((p - y) ** 2).mean()), len(games))


def _win_rates(teams: TwoTeamGames) -> FoldPredictor:
    """Each entrant's win rate on the side it holds (add-one smoothed: a win and a loss
    before any game), each side's seats weighted, the evil side's and the village's
    averaged."""
    held = (teams.seats > 0).astype(np.float64)  # (2, games, entrants)
    won = np.stack([teams.result, 1 - teams.result])[:, :, None] * held

    def predict(trains: list[list[int]], tests: list[list[int]]) -> list[list[float]]:
        out = []
        for train, test in zip(trains, tests, strict=True):
            rate = (1 + won[:, train].sum(axis=1)) / (2 + held[:, train].sum(axis=1))  # (2, k)
            seats = teams.seats[:, test]  # (2, G, k)
            side = (seats * rate[:, None, :]).sum(axis=2) / seats.sum(axis=2)
            out.append([float(p) for p in (side[0] + 1 - side[1]) / 2])
        return out

    return predict


def _one_by_one(games: Sequence[RatedGame], predictor: Predictor) -> FoldPredictor:
    def predict(trains: list[list[int]], tests: list[list[int]]) -> list[list[float]]:
        return [
            list(predictor([games[i] for i in train], [games[i] for i in test]))
            for train, test in zip(trains, tests, strict=True)
        ]

    return predict


def _side_only(train: Sequence[RatedGame], test: Sequence[RatedGame]) -> Sequence[float]:
    totals: defaultdict[str, list[float]] = defaultdict(lambda: [1.0, 2.0])
    for game in train:
        totals[game.block][0] += game.result
        totals[game.block][1] += 1
    return [totals[g.block][0] / totals[g.block][1] for g in test]


def fold_orders(
    games: Sequence[RatedGame], folds: int = FOLDS, seed: int = 0
) -> tuple[list[list[int]], list[list[int]]] | None:
    """Each fold's training and held-out games (numbers into ``games``), the deals dealt to
    the folds by the seed; None with fewer deals than folds."""
    deals = sorted({g.deal for g in games})
    if len(deals) < folds or folds < 2:
        return None
    random.Random(seed).shuffle(deals)
    fold_of = {deal: i % folds for i, deal in enumerate(deals)}
    trains = [[i for i, g in enumerate(games) if fold_of[g.deal] != f] for f in range(folds)]
    tests = [[i for i, g in enumerate(games) if fold_of[g.deal] == f] for f in range(folds)]
    return trains, tests


def game_entrants(games: Sequence[RatedGame], entrants: Sequence[str]) -> list[str]:
    """The entrants, then anyone else seated in the games."""
    return list(dict.fromkeys([*entrants, *(s.entrant for g in games for s in g.seats)]))


def holdout_scores(
    games: Sequence[RatedGame],
    entrants: Sequence[str],
    *,
    role_effects: bool = False,
    folds: int = FOLDS,
    seed: int = 0,
    design: Design | None = None,
    teams: TwoTeamGames | None = None,
    openskill: Rated | None = None,
) -> dict[str, Score]:
    """Each rating's held-out score over every game (empty with fewer deals than folds).
    Built already by the board, if given: ``design`` (its design of these games), ``teams``
    (the games' teams) and ``openskill`` (OpenSkill's ratings after each fold's training
    games, :func:`fold_orders`' order)."""
    split = fold_orders(games, folds, seed)
    if split is None:
        return {}
    trains, tests = split
    rated = RatedGames(
        games,
        game_entrants(games, entrants),
        role_effects,
        design_given=design,
        teams_given=teams,
        openskill_folds=openskill,
    )
    if design is None:  # the design's entrants are the tournament's alone
        rated.design_given = Design(games, entrants, role_effects=role_effects)
    predictors: dict[str, FoldPredictor] = {
        model.name: functools.partial(model.predict, rated) for model in MODELS
    }
    predictors["win rates"] = _win_rates(rated.teams)
    predictors["side only"] = _one_by_one(games, _side_only)
    held = [games[i] for test in tests for i in test]
    return {
        name: _score([p for fold in predict(trains, tests) for p in fold], held)
        for name, predict in predictors.items()
    }
