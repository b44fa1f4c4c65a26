"""Awaiting (publish a request, await the matching answer) and answers checked only once."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from duskfall.core.errors import IllegalAction
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config
from duskfall.runtime.awaiting import Awaiting, StaleAnswer
from duskfall.runtime.checking import CheckedAnswer, check_answer, raw_of
from duskfall.runtime.handler import PhaseContext, ask
from duskfall.runtime.participant import BaseParticipant, DecisionRequest

VARIANT = get_variant("sports-mafia")
DECLARATION = {"type": "DECLARATION", "declaration": [0] * 10}


class Board:
    """Records what an Awaiting publishes and closes."""

    def __init__(self) -> None:
        self.closed: list[dict[str, Any]] = []
        self.published: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def publish(self, request: dict[str, Any]) -> None:
        self.published.put_nowait(request)

    async def next(self) -> dict[str, Any]:
        return await self.published.get()


def awaiting(board: Board, **options: Any) -> Awaiting[dict[str, Any]]:
    return Awaiting(board.publish, on_close=board.closed.append, label="seat 2", **options)


async def test_the_answer_naming_the_open_request_settles_it() -> None:
    board = Board()
    requests = awaiting(board)
    task = asyncio.create_task(requests.ask(lambda rid: {"request_id": rid}))
    request = await board.next()
    assert request == {"request_id": 1}
    assert requests.open is not None and requests.pending is requests.open
    with pytest.raises(StaleAnswer, match="decision 7 is closed; the open one is 1") as stale:
        requests.answer(7, "late")
    assert (stale.value.request_id, stale.value.open_id) == (7, 1)
    requests.answer(1, "yes")
    assert requests.open is None and requests.pending is not None  # answered, not yet taken
    with pytest.raises(StaleAnswer, match="seat 2 has no open decision") as gone:
        requests.answer(1, "twice")
    assert gone.value.open_id is None
    assert await task == "yes"
    assert requests.pending is None and board.closed == [request]


async def test_an_answer_without_a_request_id_settles_whatever_is_open() -> None:
    board = Board()
    requests = awaiting(board, request_ids=itertools.count(5))
    task = asyncio.create_task(requests.ask(lambda rid: {"request_id": rid}))
    assert (await board.next())["request_id"] == 5
    assert requests.expect(None).request_id == 5
    requests.answer(None, "ok")
    assert await task == "ok"


async def test_deadline_failure_and_settle() -> None:
    board = Board()
    requests = awaiting(board)
    with pytest.raises(TimeoutError):
        await requests.ask(lambda rid: {"request_id": rid}, deadline=0.01)
    assert (await board.next())["request_id"] == 1
    assert requests.pending is None and len(board.closed) == 1
    assert not requests.fail(RuntimeError("nothing open"))
    assert not requests.settle("nothing open")

    task = asyncio.create_task(requests.ask(lambda rid: {"request_id": rid}))
    await board.next()
    assert requests.fail(RuntimeError("broken"))
    with pytest.raises(RuntimeError, match="broken"):
        await task

    task = asyncio.create_task(requests.ask(lambda rid: {"request_id": rid}))
    assert (await board.next())["request_id"] == 3
    assert requests.settle("gone")
    assert await task == "gone"


async def test_cancelling_the_ask_closes_the_request() -> None:
    board = Board()
    requests = awaiting(board)
    task = asyncio.create_task(requests.ask(lambda rid: {"request_id": rid}))
    await board.next()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert requests.pending is None and len(board.closed) == 1


async def test_an_answer_in_time_cancels_its_deadline_timer() -> None:
    board = Board()
    requests = awaiting(board)
    task = asyncio.create_task(requests.ask(lambda rid: {"request_id": rid}, deadline=60))
    await board.next()
    scheduled = asyncio.get_running_loop()._scheduled  # type: ignore[attr-defined]
    timers = [t for t in scheduled if getattr(t._callback, "__name__", "") == "_expire"]
    assert len(timers) == 1 and not timers[0].cancelled()
    requests.answer(1, "in time")
    assert await task == "in time"
    assert timers[0].cancelled()  # one timer per decision, gone with it


# -- one check per answer ----------------------------------------------------------------------


def context() -> PhaseContext:
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=3)
    return PhaseContext(VARIANT, state, "g", state.pending(), derive_rng(3, "fallback"))


def test_check_answer_decodes_parses_and_keeps_the_thought() -> None:
    legal = context().state.legal(0)
    reply = check_answer({"think": "hm", **DECLARATION}, legal)
    assert reply.action.declaration == (0,) * 10 and reply.think == "hm"
    with pytest.raises(IllegalAction) as refusal:
        check_answer({"type": "VOTE", "target": 1}, legal)
    checked = CheckedAnswer.of({"type": "VOTE", "target": 1}, legal)
    assert checked.reply is None and checked.refusal is not None
    assert checked.refusal.code == refusal.value.code
    with pytest.raises(IllegalAction):
        check_answer(checked, legal)
    assert raw_of(checked) == {"type": "VOTE", "target": 1} and raw_of("3") == "3"


class Counting:
    """Wraps the legal actions of a seat and counts ``parse`` calls."""

    def __init__(self, legal: Any) -> None:
        self.legal = legal
        self.parsed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.legal, name)

    def parse(self, data: Any) -> Any:
        self.parsed += 1
        return self.legal.parse(data)


class CheckingSeat(BaseParticipant):
    """A participant that checks each answer itself on arrival, as the remote seat does."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.legals: list[Counting] = []

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        legal = Counting(request.legal)
        self.legals.append(legal)
        return CheckedAnswer.of(self.answers.pop(0), legal)


async def test_the_runtime_takes_a_checked_answer_as_it_is() -> None:
    ctx = context()
    log: list[Any] = []
    bad = {"type": "VOTE", "target": 1}
    seat = CheckingSeat([bad, {"think": "fine", **DECLARATION}])
    action = await ask(ctx, 0, seat, log)
    assert action.declaration == (0,) * 10
    assert [legal.parsed for legal in seat.legals] == [1, 1]  # each answer parsed once
    assert [e.kind for e in log] == ["invalid_action", "thought"]
    refused = log[0].payload
    assert refused["raw"] == repr(bad) and refused["attempt"] == 0
    expected = CheckedAnswer.of(bad, ctx.state.legal(0)).refusal
    assert expected is not None and refused["code"] == expected.code
