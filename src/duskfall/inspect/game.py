"""One game as one inspect_ai sample: the solver that plays it and the result it stores.

The model under evaluation holds the sample's seats (``llm:inspect``: inspect_ai's model API,
so its transcript shows every prompt and reply); the other seats are the ``opponents`` agent.
The game is logged and indexed like any duskfall game (the log's header names the inspect
task, sample and epoch); its result goes to the sample's store for the scorers
(:mod:`duskfall.inspect.scorers`), its seat's conversation to the sample's messages. A game
that was aborted, or whose model seats got no reply to any call, fails its sample
(:func:`check_played`): its scores would be the fallbacks', not the model's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.outcome import Termination
from duskfall.core.rng import derive_rng
from duskfall.core.sides import side_of
from duskfall.llm.calls import call_report
from duskfall.report.calibration import Calibration, add_log
from duskfall.report.metrics import SeatMetrics, seat_metrics, total
from duskfall.session import GameSetup, new_game_id, prepare_game
from duskfall.store.log import read_log
from duskfall.store.paths import use_db
from duskfall.store.replay import new_state_for

MODEL_AGENT = "llm:inspect"
STORE_KEY = "duskfall"
MODEL_NAME = "model"  # the name the model's seats are scored under


@dataclass(frozen=True)
class GamePlan:
    """What every game of a task shares."""

    variant: str
    config: Mapping[str, Any]
    opponents: str
    seats: str
    seed: int | None
    agent_options: Mapping[str, Any]
    log_dir: Path
    task: str


def seats_spec(seats: str, game: int, num_seats: int, opponents: str) -> str:
    """The agent spec of game ``game``: the model at ``seats``, ``opponents`` elsewhere.

    ``seats`` is ``rotate`` (game ``i`` gives the model seat ``i mod N``, so over games it
    plays every seat and role), ``all``, seat numbers (``0`` or ``0,3``), or a team or role of
    the variant (``werewolf``, ``seer``: the agent spec's keys).
    """
    if seats == "rotate":
        return f"{game % num_seats}={MODEL_AGENT},default={opponents}"
    if seats == "all":
        return MODEL_AGENT
    keys = [key.strip() for key in seats.split(",") if key.strip()]
    if not keys:
        raise ConfigError("seats must be rotate, all, seat numbers or a team or role")
    return ",".join(f"{key}={MODEL_AGENT}" for key in keys) + f",default={opponents}"


def game_seed(base: int | None, game: int, epoch: int) -> int | None:
    """Game ``game``'s seed in ``epoch``: drawn from the task's ``seed`` by a keyed hash (None:
    a secret one drawn by duskfall)."""
    if base is None:
        return None
    return derive_rng(base, f"inspect:game:{game}:epoch:{epoch}").getrandbits(63)


@solver
def play_game(plan: GamePlan) -> Solver:
    """Play the sample's game with the model under evaluation at its seats."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        game_number = int(state.metadata["game"])
        game_id = new_game_id(plan.variant)
        setup = GameSetup(
            variant=plan.variant,
            game_id=game_id,
            log_path=plan.log_dir / f"{game_id}.jsonl",
            config=dict(plan.config),
            seed=game_seed(plan.seed, game_number, state.epoch),
            agents=seats_spec(
                plan.seats, game_number, int(state.metadata["num_seats"]), plan.opponents
            ),
            agent_options=dict(plan.agent_options),
            header_extra={
                "inspect": {"task": plan.task, "sample": state.sample_id, "epoch": state.epoch}
            },
        )
        game = prepare_game(setup)
        await game.run()
        result = game_result(game.log_path, game.agents)
        state.store.set(STORE_KEY, result)
        check_played(result)
        state.messages = conversation(result["conversation"])
        state.output = ModelOutput.from_content(str(get_model()), result["summary"])
        return state

    return solve


def game_result(log_path: Path | None, agents: Sequence[str]) -> dict[str, Any]:
    """What the scorers read of a finished game: who won, the model's seats and their
    metrics, calibration and the call report (all plain JSON)."""
    if log_path is None:
        raise ConfigError("an inspect game needs its log")
    log = read_log(log_path)
    model_seats = [seat for seat, agent in enumerate(agents) if agent.startswith(MODEL_AGENT)]
    variant, state = new_state_for(log)
    sides = {seat: side_of(variant, state.team_of(seat)) for seat in state.roles()}
    roles = state.roles()
    outcome = log.outcome
    winner_side = side_of(variant, outcome.winner) if outcome and outcome.winner else None
    metrics: SeatMetrics = total(m for seat, m in seat_metrics(log).items() if seat in model_seats)
    calibration = Calibration()
    add_log(calibration, log, [MODEL_NAME if s in model_seats else "" for s in sorted(roles)])
    score = calibration.overall.get(MODEL_NAME)
    calls = [
        e for e in log.events if e.kind == kinds.LLM_CALL and e.payload.get("seat") in model_seats
    ]
    answered = [
        c for c in calls if c.payload.get("decision") != "beliefs" and c.payload.get("reply")
    ]
    errors = sorted({str(c.payload["error"])[:200] for c in calls if "error" in c.payload})
    last = answered[-1] if answered else None
    won = [winner_side is not None and sides[s] == winner_side for s in model_seats]
    seats_text = ", ".join(f"seat {s} ({roles[s]}, {sides[s]})" for s in model_seats)
    summary = (
        f"{outcome.winner if outcome and outcome.winner else 'nobody'} won "
        f"({outcome.termination if outcome else 'unfinished'}); the model held {seats_text}: "
        + ("won" if all(won) else "lost" if not any(won) else f"{sum(won)} of {len(won)} won")
    )
    return {
        "game_id": log.header.game_id,
        "log_path": str(log_path),
        "winner": outcome.winner if outcome else None,
        "termination": outcome.termination.value if outcome else None,
        "reason": outcome.reason if outcome else "",
        "errors": errors[:3],
        "model_seats": model_seats,
        "roles": [roles[s] for s in model_seats],
        "sides": [sides[s] for s in model_seats],
        "won": won,
        "behaviour": {k: _number(v) for k, v in metrics.summary().items()},
        "brier": score.brier if score else None,
        "log_loss": score.log_loss if score else None,
        "beliefs": score.n if score else 0,
        "beliefs_refused": calibration.refused.get(MODEL_NAME, 0),
        "calls": call_report(calls).to_dict(),
        "conversation": (
            [*last.payload["messages"], {"role": "assistant", "content": last.payload["reply"]}]
            if last is not None
            else []
        ),
        "summary": summary,
    }


class GameNotPlayed(DuskfallError):
    """A sample's game says nothing of the model: it did not end, or every call failed."""


def check_played(result: Mapping[str, Any]) -> None:
    """Raise :class:`GameNotPlayed` (the sample fails, and with it the task) when the game
    did not end with a winner or a limit, or when the model's seats got no reply at all:
    the scores would measure the fallbacks, not the model. (A model that replies but never
    legally is scored: its legal answers and fallbacks say so.)"""
    where = f"game {result['game_id']} ({result['log_path']})"
    if result["termination"] in (None, Termination.ABORTED.value):
        reason = result.get("reason") or "it did not finish"
        raise GameNotPlayed(f"{where} was aborted: {reason}")
    calls = result["calls"]
    if calls["calls"] == 0 or calls["failed_calls"] >= calls["calls"]:
        errors = "; ".join(result.get("errors", [])) or "no call was made"
        raise GameNotPlayed(
            f"{where}: every one of the model's {calls['calls']} calls failed ({errors})"
        )


def _number(value: Any) -> float:
    """A metric as a float (NaN where nothing was counted: inspect leaves it unscored)."""
    return math.nan if value is None else float(value)


def conversation(messages: Sequence[Mapping[str, str]]) -> list[ChatMessage]:
    """A duskfall chat as inspect_ai messages."""
    kinds_of = {"system": ChatMessageSystem, "user": ChatMessageUser,
                "assistant": ChatMessageAssistant}  # fmt: skip
    return [kinds_of[m["role"]](content=m["content"]) for m in messages]


def use_index(db: str | None) -> None:
    """The game index the task's games go to (None: duskfall's default)."""
    if db is not None:
        use_db(Path(db))
