"""The rating models behind one protocol: each fits skills to rated games and predicts the
games it did not see; :data:`MODELS` lists them, and everything that compares ratings (the
held-out scores of :mod:`duskfall.rating.holdout`, and through them every report format)
iterates it.

* ``board``: the board's Bradley-Terry model of deception and detection
  (:mod:`duskfall.rating.bradley_terry`), fitted to all games at once;
* ``openskill``: OpenSkill's Plackett-Luce updates, game by game in order
  (:mod:`duskfall.rating.openskill`).

A model sees the games through :class:`RatedGames`, which builds what several parts share
once (the Bradley-Terry design, the two-team arrays) and may carry OpenSkill's fold ratings
already rated in the board's vectorised pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from duskfall.rating.bradley_terry import Design, RatedGame, anchored, sigmoid
from duskfall.rating.openskill import padded
from duskfall.rating.openskill_batch import TwoTeamGames, predict_evil, rate_sequences

Folds = list[list[int]]
"""Game numbers (into :attr:`RatedGames.games`) of each fold."""
Rated = tuple[NDArray[np.float64], NDArray[np.float64]]  # mu, sigma: per fold, per entrant


@dataclass
class RatedGames:
    """Rated games and their entrants (the tournament's, then anyone else seated), with what
    the models share built once, on first use."""

    games: Sequence[RatedGame]
    entrants: Sequence[str]
    role_effects: bool = False
    design_given: Design | None = field(default=None, repr=False)
    teams_given: TwoTeamGames | None = field(default=None, repr=False)
    openskill_folds: Rated | None = field(default=None, repr=False)
    """OpenSkill's (mu, sigma) after each fold's training games, if already rated."""

    @cached_property
    def design(self) -> Design:
        if self.design_given is not None:
            return self.design_given
        return Design(self.games, self.entrants, role_effects=self.role_effects)

    @cached_property
    def teams(self) -> TwoTeamGames:
        if self.teams_given is not None:
            return self.teams_given
        seated = (s.entrant for g in self.games for s in g.seats)
        return TwoTeamGames(self.games, list(dict.fromkeys([*self.entrants, *seated])))


class RatingModel(Protocol):
    """A rating model: a name (its key in the held-out scores and in every report), a point
    skill per entrant, and P(evil wins) of held-out games."""

    name: str

    def skills(self, rated: RatedGames) -> dict[str, float]:
        """Each entrant's point skill fitted to every game (higher is better)."""
        ...

    def predict(self, rated: RatedGames, trains: Folds, tests: Folds) -> list[list[float]]:
        """For each fold, P(evil wins) of its ``tests`` games fitted on its ``trains``."""
        ...


class BradleyTerry:
    """The board's model: overall skill is the mean of deception and detection, anchored to
    the field's mean."""

    name = "board"

    def skills(self, rated: RatedGames) -> dict[str, float]:
        design = rated.design
        fitted = anchored(design.params, design.fit())
        return {e: fitted.overall(e) for e in design.params.entrants}

    def predict(self, rated: RatedGames, trains: Folds, tests: Folds) -> list[list[float]]:
        """One design of all the games, the held-out ones weighted 0 (a parameter they alone
        inform stays at the prior's 0, as it would unseen), each fold's fit started from the
        previous one's (the folds share most of their games)."""
        design = rated.design
        out = []
        start = None
        for train, test in zip(trains, tests, strict=True):
            weights = np.zeros(len(design.games))
            weights[train] = 1.0
            theta = design.fit(weights, start=start)
            start = theta
            rows = design.rows[design.row_of_game[test]]
            out.append([float(p) for p in sigmoid(rows @ theta)])
        return out


class OpenSkill:
    """OpenSkill's ``mu``, rating the games in order, and its own prediction of the evil team
    winning."""

    name = "openskill"

    def skills(self, rated: RatedGames) -> dict[str, float]:
        teams = rated.teams
        mu, _, seen = rate_sequences(teams, padded([list(range(len(rated.games)))]))
        return {n: float(mu[0, i]) for i, n in enumerate(teams.entrants) if seen[0, i]}

    def predict(self, rated: RatedGames, trains: Folds, tests: Folds) -> list[list[float]]:
        teams = rated.teams
        folds = rated.openskill_folds
        mu, sigma = folds if folds is not None else rate_sequences(teams, padded(trains))[:2]
        return [
            [float(p) for p in predict_evil(teams, np.asarray(test, dtype=np.int64), m, s)]
            for test, m, s in zip(tests, mu, sigma, strict=True)
        ]


MODELS: tuple[RatingModel, ...] = (BradleyTerry(), OpenSkill())
"""Every rating model, in the order the reports show them."""
