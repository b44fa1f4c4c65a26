"""A seat played over the network: the participant behind every remote seat of the server.

:class:`RemoteSeat` turns each decision into an ``ACTION_REQUEST`` (phase, ``valid_actions`` from
``legal.to_wire()``, the seat's own observation, a fresh ``request_id`` and ``deadline_ms``) and
waits for the matching ``ACTION_RESPONSE``. The ``action`` object of the response is returned
as the raw reply; the runtime validates it and re-asks on a bad one. The seat checks the answer
itself on arrival only to tell the client at once (``ERROR`` with the seed's message, a
``code`` and the rules' hint) before the re-ask.

The seat knows nothing of sockets: it talks through a :class:`SeatLink` (anything with
``send(message)``), which the server swaps when a client reconnects. A seat whose client is
gone for good, or silent past its deadline under the ``bot`` policy, is played by a stand-in
(the rules' fallback or a built-in bot).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, Event
from duskfall.core.registry import get_variant
from duskfall.core.variant import Decision, LegalActions
from duskfall.protocol.errors import ErrorCode, ProtocolError, error_code
from duskfall.protocol.messages import ActionResponse, error_message
from duskfall.runtime.participant import Participant

DEADLINE_MARGIN = 2.0  # seconds the runtime waits beyond the seat's own deadline


class SeatLink(Protocol):
    """Where a seat's messages go: the current connection of its client."""

    def send(self, message: dict[str, Any] | bytes) -> None:
        """Queue a message, or a frame already encoded (shared by several seats)."""


class Policy(StrEnum):
    """What plays a seat whose client is silent past its deadline or gone."""

    FALLBACK = "fallback"  # the rules' documented default action
    BOT = "bot"  # a built-in bot of the variant


class SeatTimeout(TimeoutError):
    """The client did not answer within its deadline (the runtime applies the fallback)."""


class SeatProtocolError(Exception):
    """The client sent a message that is not a valid answer; the runtime asks again."""


class FallbackPlayer:
    """Plays the rules' fallback: abstain or skip where legal, else a seeded random action."""

    renders_prompts = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any:
        legal: LegalActions = extra["legal"]
        return legal.default(self.rng)

    def describe(self) -> str:
        return "fallback"


@dataclass(slots=True)
class _Pending:
    request_id: int
    legal: LegalActions
    message: dict[str, Any]
    answer: asyncio.Future[Any]


class _Gone:
    """Marker that resolves a pending decision when the client is gone for good."""


_GONE = _Gone()


class RemoteSeat:
    """The participant of one seat played by a remote client (see the module docstring)."""

    renders_prompts = False

    def __init__(
        self,
        seat: int,
        *,
        game_id: str,
        deadline: float,
        stand_in: Callable[[], Participant],
        timeout_policy: Policy = Policy.FALLBACK,
        is_alive: Callable[[], bool] = lambda: True,
        request_ids: itertools.count[int] | None = None,
    ) -> None:
        self.seat = seat
        self.game_id = game_id
        self.deadline = deadline
        self.decision_timeout = deadline + DEADLINE_MARGIN
        self.timeout_policy = timeout_policy
        self.is_alive = is_alive
        self.name: str | None = None
        self.token: str | None = None
        self._make_stand_in = stand_in
        self._stand_in: Participant | None = None
        self._gone = False
        self._link: SeatLink | None = None
        self._pending: _Pending | None = None
        self._reported: bool = False
        self._ids = request_ids or itertools.count(1)

    # -- connection side -----------------------------------------------------------------

    @property
    def link(self) -> SeatLink | None:
        return self._link

    @property
    def waiting(self) -> bool:
        """Whether a decision of this seat is waiting for its client."""
        return self._pending is not None

    @property
    def gone(self) -> bool:
        """The client left for good; a stand-in plays this seat."""
        return self._gone

    def attach(self, link: SeatLink) -> None:
        """Route the seat to ``link``; an open request is sent again (a reconnect)."""
        self._link = link
        if self._pending is not None:
            link.send(self._pending.message)

    def detach(self) -> None:
        self._link = None

    def abandon(self) -> None:
        """The client is gone for good: the stand-in plays from now on, starting now."""
        self._link = None
        self._gone = True
        if self._pending is not None and not self._pending.answer.done():
            self._pending.answer.set_result(_GONE)

    def send(self, message: dict[str, Any] | bytes) -> None:
        if self._link is not None:
            self._link.send(message)

    def _error(self, code: ErrorCode, detail: str, request_id: int | None = None) -> None:
        self.send(error_message(code, detail, request_id=request_id, game_id=self.game_id))

    def on_response(self, response: ActionResponse) -> None:
        """An ``ACTION_RESPONSE`` from the client: the answer, or an ERROR saying why not."""
        pending = self._pending
        if pending is None or pending.answer.done():
            if not self.is_alive():
                self._error(ErrorCode.PLAYER_DEAD, "you are out of the game; nothing to answer")
            elif response.request_id is not None:
                self._error(
                    ErrorCode.STALE_REQUEST,
                    f"request {response.request_id} is no longer open",
                    response.request_id,
                )
            else:
                self._error(ErrorCode.NOT_YOUR_TURN, "no decision of yours is open")
            return
        if response.request_id is not None and response.request_id != pending.request_id:
            self._error(
                ErrorCode.STALE_REQUEST,
                f"request {response.request_id} is no longer open; "
                f"the open one is {pending.request_id}",
                response.request_id,
            )
            return
        try:
            pending.legal.parse(response.action)
        except IllegalAction as exc:
            self._error(error_code(exc.code), exc.hint, pending.request_id)
            self._reported = True
        pending.answer.set_result(response.action)

    def on_protocol_error(self, error: ProtocolError) -> None:
        """A frame that is not a valid message: ERROR now; an open decision is asked again."""
        pending = self._pending
        request_id = pending.request_id if pending else None
        self._error(error.code, error.detail, request_id)
        if pending is not None and not pending.answer.done():
            pending.answer.set_exception(SeatProtocolError(f"{error.code}: {error.detail}"))

    # -- runtime side --------------------------------------------------------------------

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any:
        if self._gone:
            return await self._play_stand_in(system_prompt, user_prompt, extra, "disconnected")
        hint: str | None = extra.get("hint")
        if hint and not self._reported:
            self._error(ErrorCode.INVALID_ACTION, hint)
        self._reported = False
        legal: LegalActions = extra["legal"]
        decision: Decision = extra["decision"]
        observation: Mapping[str, Any] = extra["observation"]
        request_id = next(self._ids)
        message = {
            "type": "ACTION_REQUEST",
            "player_id": self.seat,
            "phase": decision.kind,
            "valid_actions": legal.to_wire(),
            "observation": _plain(observation),
            "request_id": request_id,
            "deadline_ms": int(self.deadline * 1000),
            "game_id": self.game_id,
        }
        wire = get_variant(extra["variant"]).info.wire
        legal_state = wire.legal_state(legal) if wire is not None else None
        if legal_state is not None:
            message["legal_state"] = legal_state
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending = _Pending(request_id, legal, message, answer)
        self.send(message)
        try:
            result = await asyncio.wait_for(answer, self.deadline)
        except TimeoutError:
            if self.timeout_policy is Policy.BOT:
                return await self._play_stand_in(system_prompt, user_prompt, extra, "timeout")
            raise SeatTimeout(f"no answer within {self.deadline:g}s") from None
        finally:
            self._pending = None
        if isinstance(result, _Gone):
            return await self._play_stand_in(system_prompt, user_prompt, extra, "disconnected")
        return result

    async def _play_stand_in(
        self, system_prompt: str, user_prompt: str, extra: dict[str, Any], reason: str
    ) -> Any:
        if self._stand_in is None:
            self._stand_in = self._make_stand_in()
        stand_in = self._stand_in
        emit = extra.get("emit")
        if callable(emit):
            emit(
                Event(
                    "seat_stand_in",
                    {"seat": self.seat, "reason": reason, "by": _describe(stand_in)},
                    ADMIN,
                    source="runtime",
                )
            )
        return await stand_in.decide(system_prompt, user_prompt, **extra)

    def describe(self) -> str:
        return f"remote:{self.name}" if self.name else "remote"


def _describe(participant: Participant) -> str:
    describe = getattr(participant, "describe", None)
    return str(describe()) if callable(describe) else type(participant).__name__


def _plain(observation: Mapping[str, Any]) -> Any:
    to_dict = getattr(observation, "to_dict", None)
    return to_dict() if callable(to_dict) else dict(observation)
