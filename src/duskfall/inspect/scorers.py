"""Scorers of a duskfall game sample: win, behaviour metrics, belief calibration.

Each reads the result the solver stored (:func:`duskfall.inspect.game.game_result`). Rates a
game could not measure (no exile vote cast, no belief stated) are NaN, which inspect_ai
leaves out of the metric (counted as unscored) rather than reading as 0.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from duskfall.inspect.game import STORE_KEY
from duskfall.report.columns import BEHAVIOUR as COLUMNS

BEHAVIOUR = tuple(column.key for column in COLUMNS if column.scored)


def _result(state: TaskState) -> dict[str, Any]:
    result = state.store.get(STORE_KEY)
    if not isinstance(result, dict):
        raise RuntimeError("the sample has no duskfall game result (did its game run?)")
    return result


@scorer(metrics=[mean(), stderr()])
def win() -> Scorer:
    """1 when the model's side won the game, 0 when it lost or drew (with several seats: the
    share of them on the winning side)."""

    async def score(state: TaskState, target: Target) -> Score:
        result = _result(state)
        won = result["won"]
        return Score(
            value=sum(won) / len(won) if won else math.nan,
            answer=result["winner"],
            explanation=result["summary"],
            metadata={k: result[k] for k in ("game_id", "model_seats", "roles", "sides")},
        )

    return score


@scorer(metrics={key: [mean()] for key in BEHAVIOUR})
def behaviour() -> Scorer:
    """The model's seats' behaviour metrics (:mod:`duskfall.report.metrics`): the scored
    columns of the registry (:data:`duskfall.report.columns.BEHAVIOUR`)."""

    async def score(state: TaskState, target: Target) -> Score:
        metrics = _result(state)["behaviour"]
        return Score(value={key: float(metrics.get(key, math.nan)) for key in BEHAVIOUR})

    return score


@scorer(metrics=[mean(), stderr()])
def calibration() -> Scorer:
    """Brier score of the model's stated P(evil) of each living player against the deal
    (lower is better; 0.25 is a coin's); NaN when it stated none. Its metadata holds the log
    loss, the beliefs scored and those refused (unreadable or outside [0, 1])."""

    async def score(state: TaskState, target: Target) -> Score:
        result = _result(state)
        brier = result["brier"]
        return Score(
            value=math.nan if brier is None else float(brier),
            metadata={
                "log_loss": result["log_loss"],
                "beliefs": result["beliefs"],
                "beliefs_refused": result["beliefs_refused"],
            },
        )

    return score
