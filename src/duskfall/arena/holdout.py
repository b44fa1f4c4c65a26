"""Which rating predicts? Held-out prediction of game outcomes, k folds by deal.

The deals are split into ``folds`` groups (seeded); each group's games are predicted by each
rating fitted on the other groups' games, and every held-out game is scored: log loss (natural
log, probabilities clipped to [1e-6, 1 - 1e-6]) and Brier score of P(evil wins) against the
result (a draw is 0.5). Lower is better; a coin scores 0.693 and 0.25.

* ``board``: the board's model (:mod:`duskfall.arena.skill_model`);
* ``openskill``: OpenSkill's own prediction of the evil team winning, after rating the
  training games in order;
* ``win rates``: each entrant's win rate on the side it holds (add-one smoothed), the evil
  side's and the village side's averaged (seats weighted);
* ``side only``: each block's share of evil wins, whoever plays (the floor any rating must
  beat to have learnt anything about the entrants).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from duskfall.arena.ratings import openskill_model, openskill_predict, openskill_table
from duskfall.arena.skill_model import EVIL, Design, RatedGame

CLIP = 1e-6
FOLDS = 5

Predictor = Callable[[Sequence[RatedGame], Sequence[RatedGame]], Sequence[float]]


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


def _board(entrants: Sequence[str], role_effects: bool) -> Predictor:
    def predict(train: Sequence[RatedGame], test: Sequence[RatedGame]) -> Sequence[float]:
        design = Design(train, entrants, role_effects=role_effects)
        return list(design.predict(design.fit(), test))

    return predict


def _openskill(train: Sequence[RatedGame], test: Sequence[RatedGame]) -> Sequence[float]:
    model = openskill_model()
    return openskill_predict(openskill_table(train, model), test, model)


def _win_rates(train: Sequence[RatedGame], test: Sequence[RatedGame]) -> Sequence[float]:
    tally: defaultdict[tuple[str, str], list[float]] = defaultdict(lambda: [1.0, 2.0])
    for game in train:
        for entrant, side in {(s.entrant, s.side) for s in game.seats}:
            won = game.result if side == EVIL else 1 - game.result
            tally[entrant, side][0] += won
            tally[entrant, side][1] += 1
    out = []
    for game in test:
        evil = [s.entrant for s in game.seats if s.side == EVIL]
        village = [s.entrant for s in game.seats if s.side != EVIL]
        evil_wins = np.mean([tally[e, EVIL][0] / tally[e, EVIL][1] for e in evil])
        village_wins = np.mean([tally[e, "village"][0] / tally[e, "village"][1] for e in village])
        out.append(float((evil_wins + 1 - village_wins) / 2))
    return out


def _side_only(train: Sequence[RatedGame], test: Sequence[RatedGame]) -> Sequence[float]:
    totals: defaultdict[str, list[float]] = defaultdict(lambda: [1.0, 2.0])
    for game in train:
        totals[game.block][0] += game.result
        totals[game.block][1] += 1
    return [totals[g.block][0] / totals[g.block][1] for g in test]


def holdout_scores(
    games: Sequence[RatedGame],
    entrants: Sequence[str],
    *,
    role_effects: bool = False,
    folds: int = FOLDS,
    seed: int = 0,
) -> dict[str, Score]:
    """Each rating's held-out score over every game (empty with fewer deals than folds)."""
    deals = sorted({g.deal for g in games})
    if len(deals) < folds or folds < 2:
        return {}
    random.Random(seed).shuffle(deals)
    fold_of = {deal: i % folds for i, deal in enumerate(deals)}
    predictors: dict[str, Predictor] = {
        "board": _board(entrants, role_effects),
        "openskill": _openskill,
        "win rates": _win_rates,
        "side only": _side_only,
    }
    predicted: dict[str, list[float]] = {name: [] for name in predictors}
    held: list[RatedGame] = []
    for fold in range(folds):
        train = [g for g in games if fold_of[g.deal] != fold]
        test = [g for g in games if fold_of[g.deal] == fold]
        held.extend(test)
        for name, predict in predictors.items():
            predicted[name].extend(predict(train, test))
    return {name: _score(values, held) for name, values in predicted.items()}
