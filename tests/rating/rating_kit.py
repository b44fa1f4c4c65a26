"""Helpers of the rating tests: a toy rating model that predicts a coin flip."""

from __future__ import annotations

from duskfall.rating.models import RatedGames


class CoinFlip:
    """A :class:`~duskfall.rating.models.RatingModel` with no skill: every entrant 0, every
    held-out game an even chance."""

    name = "coin-flip"

    def skills(self, rated: RatedGames) -> dict[str, float]:
        return dict.fromkeys(rated.entrants, 0.0)

    def predict(
        self, rated: RatedGames, trains: list[list[int]], tests: list[list[int]]
    ) -> list[list[float]]:
        return [[0.5] * len(test) for test in tests]
