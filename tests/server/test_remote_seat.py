"""The remote seat without sockets: one check per answer, one ERROR per refusal, frame shapes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config
from duskfall.protocol.framing import FrameDecoder
from duskfall.protocol.messages import ActionRequest, ActionResponse
from duskfall.runtime.handler import PhaseContext, ask
from duskfall.runtime.settings import RuntimeSettings
from duskfall.server.broadcast import WireObserver
from duskfall.server.remote_seat import RemoteSeat
from duskfall.server.stand_in import FallbackPlayer

VARIANT = get_variant("sports-mafia")
DECLARATION = {"type": "DECLARATION", "declaration": [0] * 10}
REQUEST_KEYS = ["type", "player_id", "phase", "valid_actions", "observation", "request_id"]
REQUEST_KEYS += ["deadline_ms", "game_id"]


class Link:
    """A seat's link that answers each ACTION_REQUEST with the next scripted action."""

    def __init__(self, seat: RemoteSeat, answers: list[dict[str, Any]]) -> None:
        self.seat = seat
        self.answers = answers
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | bytes) -> None:
        if isinstance(message, bytes):  # an encoded frame (requests, state updates)
            (payload,) = FrameDecoder().feed(message)
            message = json.loads(payload)
        self.sent.append(message)
        if message["type"] == "ACTION_REQUEST" and message["valid_actions"] and self.answers:
            response = ActionResponse(action=self.answers.pop(0), request_id=message["request_id"])
            asyncio.get_running_loop().call_soon(self.seat.on_response, response)


def table(retries: int = 2) -> PhaseContext:
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=3)
    return PhaseContext(
        VARIANT,
        state,
        "g-1",
        state.pending(),
        derive_rng(3, "fallback"),
        RuntimeSettings(retries=retries),
    )


def remote_seat(seat: int = 0) -> RemoteSeat:
    return RemoteSeat(
        seat,
        variant=VARIANT,
        game_id="g-1",
        deadline=5.0,
        stand_in=lambda: FallbackPlayer(derive_rng(3, "stand-in")),
    )


def counting_parse(monkeypatch: Any, legal: Any) -> list[Any]:
    """Count the calls of ``parse`` on the legal-actions class of ``legal``."""
    calls: list[Any] = []
    cls = type(legal)
    parse: Callable[[Any, Any], Any] = cls.parse

    def counted(self: Any, data: Any) -> Any:
        calls.append(data)
        return parse(self, data)

    monkeypatch.setattr(cls, "parse", counted)
    return calls


async def test_a_refused_answer_is_checked_once_and_told_once(monkeypatch: Any) -> None:
    context = table()
    seat = remote_seat()
    bad = {"type": "VOTE", "target": 1}
    link = Link(seat, [bad, DECLARATION])
    seat.attach(link)
    parsed = counting_parse(monkeypatch, context.state.legal(0))
    log: list[Event] = []
    action = await ask(context, 0, seat, log)
    assert action.declaration == (0,) * 10
    assert len(parsed) == 2  # each answer parsed once
    assert [m["type"] for m in link.sent] == ["ACTION_REQUEST", "ERROR", "ACTION_REQUEST"]
    first, error, again = link.sent
    assert error["request_id"] == first["request_id"] and error["code"] == "invalid_action"
    assert error["message"] == "Invalid action" and "DECLARATION" in error["detail"]
    assert again["request_id"] == first["request_id"] + 1
    answers = [e for e in log if e.kind == "remote_answer"]
    log = [e for e in log if e.kind != "remote_answer"]
    assert [e.kind for e in log] == ["invalid_action"]
    assert [a.payload["answered"] for a in answers] == [True, True]  # each answer's time
    assert all(a.payload["seat"] == 0 and a.payload["latency_s"] >= 0 for a in answers)
    assert log[0].payload["raw"] == repr(bad) and log[0].payload["error"] == error["detail"]
    assert not seat.waiting


async def test_after_the_retries_the_fallback_and_no_extra_error() -> None:
    context = table(retries=1)
    seat = remote_seat()
    link = Link(seat, [{"type": "VOTE", "target": 1}] * 2)
    seat.attach(link)
    log: list[Event] = []
    await ask(context, 0, seat, log)
    kinds = [m["type"] for m in link.sent]
    assert kinds == ["ACTION_REQUEST", "ERROR", "ACTION_REQUEST", "ERROR"]
    kinds_logged = [e.kind for e in log if e.kind != "remote_answer"]
    assert kinds_logged == ["invalid_action", "invalid_action", "fallback"]


async def test_request_and_state_update_frames() -> None:
    context = table()
    seat = remote_seat()
    link = Link(seat, [DECLARATION])
    seat.attach(link)
    await ask(context, 0, seat, [])
    request = link.sent[0]
    assert list(request)[: len(REQUEST_KEYS)] == REQUEST_KEYS
    assert list(request)[len(REQUEST_KEYS) :] in ([], ["legal_state"])
    legal = context.state.legal(0)
    assert request["valid_actions"] == legal.to_wire()
    assert request["phase"] == "DECLARATION" and request["deadline_ms"] == 5000
    assert request == ActionRequest.model_validate(request).to_wire()

    other = remote_seat(1)
    other_link = Link(other, [])
    other.attach(other_link)
    observer = WireObserver(context.state, {0: seat, 1: other}, "g-1")
    observer.on_event(Event("action", {"seat": 0}, source="runtime"))
    await asyncio.sleep(0)  # the state updates go out once the step's actions are in
    update = other_link.sent[0]
    keys = ["type", "player_id", "phase", "valid_actions", "observation", "game_id"]
    assert list(update) == keys
    assert update["valid_actions"] == {} and update["player_id"] == 1
    assert update["observation"] == context.state.observe(1)
    assert len(link.sent) == 1  # seat 0 acted: no state update for it
