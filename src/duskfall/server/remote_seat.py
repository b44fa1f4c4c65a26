"""A seat played over the network: the participant behind every remote seat of the server.

:class:`RemoteSeat` turns each decision into an ``ACTION_REQUEST`` (an
:class:`~duskfall.protocol.messages.ActionRequest`: the phase, ``valid_actions`` from
``legal.to_wire()``, the seat's own observation, ``legal_state``, a fresh ``request_id`` and
``deadline_ms``) and waits for the matching ``ACTION_RESPONSE`` (an
:class:`~duskfall.runtime.awaiting.Awaiting` keeps the open request). The answer is checked
once, on arrival: a refusal is told to the client at once (``ERROR`` with the seed's message,
a ``code`` and the rules' hint), and the verdict, a
:class:`~duskfall.runtime.checking.CheckedAnswer`, is what the runtime gets, records and acts
on (it asks again after a refusal, without checking anything a second time).

The seat knows nothing of sockets: it talks through a :class:`SeatLink` (anything with
``send(message)``), which the server swaps when a client reconnects. A seat whose client is
gone for good, or silent past its deadline under the ``bot`` policy, is played by a stand-in
(see :mod:`duskfall.server.stand_in`). A client that let ``bench_after`` decisions in a row
time out is benched: it is told so (``ERROR`` ``stand_in``) and the stand-in plays its seat at
once, without waiting for it, until the client sends anything again.

``strict`` (the default) holds answers to the documented wire form
(:func:`~duskfall.protocol.strict.wire_form_error`, in the one check of
:meth:`~duskfall.runtime.checking.CheckedAnswer.of`: ``bad_format`` otherwise) before the rules
judge them; without it the rules' lenient parsing is all (the reference server's tolerance).
"""

from __future__ import annotations

import functools
import itertools
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, Event
from duskfall.core.legal import LegalActions
from duskfall.core.variant import Variant
from duskfall.protocol.errors import ErrorCode, ProtocolError, error_code
from duskfall.protocol.messages import (
    ActionResponse,
    StateUpdates,
    action_played,
    action_request,
    error_message,
)
from duskfall.protocol.observations import Field, ObservationFrames
from duskfall.runtime.awaiting import Awaiting, DeadlinePassed, StaleAnswer
from duskfall.runtime.capped import capped
from duskfall.runtime.checking import CheckedAnswer
from duskfall.runtime.participant import (
    BaseParticipant,
    DecisionRequest,
    Participant,
    SeatAnswer,
    describe_player,
)
from duskfall.server.seat_events import SeatEvents
from duskfall.server.stand_in import Policy

DEADLINE_MARGIN = 2.0  # seconds the runtime waits beyond the seat's own deadline


class SeatLink(Protocol):
    """Where a seat's messages go: the current connection of its client."""

    def send(self, message: dict[str, Any] | bytes) -> None:
        """Queue a message, or a frame already encoded (shared by several seats)."""


class SeatTimeout(DeadlinePassed):
    """The client did not answer within its deadline (the runtime applies the fallback)."""


class SeatProtocolError(Exception):
    """The client sent a message that is not a valid answer; the runtime asks again."""


def legal_state_of(variant: Variant, legal: LegalActions) -> dict[str, Any] | None:
    """The ``legal_state`` extension of a request: ``legal`` as the variant's wire codec puts it."""
    wire = variant.info.wire
    return wire.legal_state(legal) if wire is not None else None


@dataclass(frozen=True, slots=True)
class _Request:
    """An open decision: the ``ACTION_REQUEST`` frame sent, the observation fields it carries,
    and what its answer is checked against."""

    frame: bytes
    fields: dict[str, Field] | None
    legal: LegalActions


def _publisher(seat: RemoteSeat) -> Callable[[_Request], None]:
    """``seat._publish`` without a reference to ``seat``: the seat and its requests are freed
    together as soon as the game lets them go, not by the cyclic garbage collector."""
    ref = weakref.ref(seat)

    def publish(request: _Request) -> None:
        alive = ref()
        if alive is not None:
            alive._publish(request)

    return publish


class _Gone:
    """Marker that settles an open decision when the client is gone for good."""


_GONE = _Gone()


class RemoteSeat(BaseParticipant):
    """The participant of one seat played by a remote client (see the module docstring)."""

    renders_prompts = False

    def __init__(
        self,
        seat: int,
        *,
        variant: Variant,
        game_id: str,
        deadline: float,
        stand_in: Callable[[], Participant],
        timeout_policy: Policy = Policy.FALLBACK,
        is_alive: Callable[[], bool] = lambda: True,
        request_ids: itertools.count[int] | None = None,
        strict: bool = True,
        bench_after: int = 2,
        frames: ObservationFrames | None = None,
    ) -> None:
        self.seat = seat
        self.variant = variant
        self.game_id = game_id
        self.deadline = deadline
        self.decision_timeout = deadline + DEADLINE_MARGIN
        self.timeout_policy = timeout_policy
        self.is_alive = is_alive
        self.name: str | None = None
        self.token: str | None = None
        self.strict = strict
        self.bench_after = bench_after
        self.timeouts = 0  # decisions in a row the client let time out
        self.frames = frames or ObservationFrames()  # shared by the seats of one game
        self.state_updates: StateUpdates = "full"  # what the client asked for in its HELLO
        # The observation fields the client was last sent in full (None: unknown), the base
        # of its state updates when it asked for changes only.
        self.shown: dict[str, Field] | None = None
        self._make_stand_in = stand_in
        self._stand_in: Participant | None = None
        self._gone = False
        self._link: SeatLink | None = None
        self._requests: Awaiting[_Request] = Awaiting(
            _publisher(self), request_ids=request_ids, label=f"seat {seat}"
        )
        self.events = SeatEvents()  # its GAME_EVENTs, numbered (seq), kept for a reconnect
        # The request of the decision being settled (id, kind) and whether its deadline passed:
        # when the action played for it is not the client's, the client is told which it was.
        self._asked: tuple[int, str] | None = None
        self._missed_deadline = False
        # State updates sent that no answer has come for yet: a client written from the seed's
        # text may answer them, and such an answer must not be taken for, or use up the re-asks
        # of, the decision open when it arrives. Whether the client answers them is learnt: an
        # answer without a request id while no decision is open, after a state update.
        self._updates_unanswered = 0
        self._answers_updates = False

    # -- connection side -----------------------------------------------------------------

    @property
    def link(self) -> SeatLink | None:
        return self._link

    @property
    def waiting(self) -> bool:
        """Whether a decision of this seat is waiting for its client."""
        return self._requests.pending is not None

    @property
    def benched(self) -> bool:
        """Silent ``bench_after`` times in a row: the stand-in plays until the client is back."""
        return 0 < self.bench_after <= self.timeouts

    def heard_from(self) -> None:
        """The client sent something: it is back in its seat (if it was benched)."""
        self.timeouts = 0

    @property
    def gone(self) -> bool:
        """The client left for good; a stand-in plays this seat."""
        return self._gone

    def attach(self, link: SeatLink, last_seq: int | None = None) -> None:
        """Route the seat to ``link``; on a reconnect the events it missed (after ``last_seq``,
        or since it left) and the open request are sent again. The new connection gets full
        state updates until its HELLO asks otherwise."""
        self._link = link
        self.heard_from()
        self._updates_unanswered = 0
        self.state_updates = "full"
        self.shown = None
        for frame in self.events.missed(last_seq):
            link.send(frame)
        pending = self._requests.pending
        if pending is not None:
            self._publish(pending.request)

    def detach(self) -> None:
        self._link = None

    def abandon(self) -> None:
        """The client is gone for good: the stand-in plays from now on, starting now."""
        self._link = None
        self._gone = True
        self._requests.settle(_GONE)

    def game_over(self, alive: bool) -> None:
        """The game ended: whether the seat is alive no longer changes; the callable that
        asked the game is let go (it referred back to the room, holding the game in a cycle)."""
        self.is_alive = functools.partial(bool, alive)

    def send(self, message: dict[str, Any] | bytes) -> None:
        if self._link is not None:
            self._link.send(message)

    def send_state_update(self, frame: dict[str, Any] | bytes) -> None:
        """Send a state update (a request with empty ``valid_actions``, never to be answered)."""
        if self._link is not None:
            self._link.send(frame)
            self._updates_unanswered += 1

    def send_event(self, body: bytes) -> None:
        """Number a ``GAME_EVENT`` (its :func:`~duskfall.server.seat_events.event_body`) and
        send it if connected; it is kept either way, for a reconnect."""
        frame = self.events.add(body, connected=self._link is not None)
        if self._link is not None:
            self._link.send(frame)

    def action_played(self, action: dict[str, Any], by: str) -> None:
        """The seat's decision was applied (``by``: ``agent`` or ``fallback``): if it was not
        the client's answer, tell the client which request that settled and what was played."""
        asked, missed = self._asked, self._missed_deadline
        self._asked, self._missed_deadline = None, False
        if asked is None or not (missed or by == "fallback"):
            return
        request_id, kind = asked
        player = "fallback" if by == "fallback" else describe_player(self._stand_in or self)
        self.send(
            action_played(
                "TIMEOUT" if missed else "FALLBACK",
                request_id,
                kind,
                action,
                by=player,
                deadline_ms=int(self.deadline * 1000) if missed else None,
                game_id=self.game_id,
            )
        )

    def _publish(self, request: _Request) -> None:
        if self._link is not None:
            self._link.send(request.frame)
            self.shown = request.fields

    def _error(self, code: ErrorCode, detail: str, request_id: int | None = None) -> None:
        self.send(error_message(code, detail, request_id=request_id, game_id=self.game_id))

    def on_response(self, response: ActionResponse) -> None:
        """An ``ACTION_RESPONSE`` from the client: the answer, or an ERROR saying why not."""
        self.heard_from()
        try:
            pending = self._requests.expect(response.request_id)
        except StaleAnswer as stale:
            if response.request_id is None and self._updates_unanswered > 0:
                self._updates_unanswered -= 1
                self._answers_updates = True
            self._refuse_stale(stale)
            return
        to_update = response.request_id is None and self._updates_unanswered > 0
        if to_update:
            self._updates_unanswered -= 1
        answer = self._check(response.action, pending.request.legal)
        if answer.refusal is not None:  # its hint may quote the answer: kept short
            refusal = IllegalAction(capped(answer.refusal.hint), answer.refusal.code)
            answer = CheckedAnswer(answer.raw, refusal=refusal)
        if to_update and (self._answers_updates or answer.refusal is not None):
            # the answer to a state update sent before this request (answers come in the order
            # the client was sent what it answers): not taken, and no re-ask used up
            why = f"{answer.refusal.hint}; " if answer.refusal is not None else ""
            self._error(
                ErrorCode.NOT_YOUR_TURN,
                f"not taken: {why}this answers a state update (those are not answered); "
                f"request {pending.request_id} stays open",
                pending.request_id,
            )
            return
        if answer.refusal is not None:
            refusal = answer.refusal
            self._error(error_code(refusal.code), refusal.hint, pending.request_id)
        pending.answer.set_result(answer)

    def _check(self, action: dict[str, Any], legal: LegalActions) -> CheckedAnswer:
        return CheckedAnswer.of(action, legal, wire_form=self.strict)

    def _refuse_stale(self, stale: StaleAnswer) -> None:
        if stale.open_id is not None:
            self._error(
                ErrorCode.STALE_REQUEST,
                f"request {stale.request_id} is no longer open; the open one is {stale.open_id}",
                stale.request_id,
            )
        elif not self.is_alive():
            self._error(ErrorCode.PLAYER_DEAD, "you are out of the game; nothing to answer")
        elif stale.request_id is not None:
            self._error(
                ErrorCode.STALE_REQUEST,
                f"request {stale.request_id} is no longer open",
                stale.request_id,
            )
        else:
            self._error(ErrorCode.NOT_YOUR_TURN, "no decision of yours is open")

    def on_protocol_error(self, error: ProtocolError) -> None:
        """A frame that is not a valid message: ERROR now; an open decision is asked again."""
        self.heard_from()
        pending = self._requests.pending
        detail = capped(error.detail)  # it may quote the frame: a client decides how long
        self._error(error.code, detail, pending.request_id if pending else None)
        self._requests.fail(SeatProtocolError(f"{error.code}: {detail}"))

    # -- runtime side --------------------------------------------------------------------

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer:
        """The client's checked answer (a refusal was already told to it), or a stand-in's."""
        self._asked, self._missed_deadline = None, False
        if self._gone:
            return await self._play_stand_in(system_prompt, user_prompt, request, "disconnected")
        if self.benched:
            return await self._play_stand_in(system_prompt, user_prompt, request, "benched")
        legal, decision, observation = request.legal, request.decision, request.observation

        def framed(request_id: int) -> _Request:
            self._asked = (request_id, decision.kind)
            seen = plain_observation(observation)
            message = action_request(
                self.seat,
                decision.kind,
                legal.to_wire(),
                seen,
                request_id=request_id,
                deadline_ms=int(self.deadline * 1000),
                game_id=self.game_id,
                legal_state=legal_state_of(self.variant, legal),
            )
            fields = self.frames.fields(seen, self.frames.unchanged)
            return _Request(self.frames.frame(message, fields), fields, legal)

        asked_at = time.monotonic()
        try:
            answer = await self._requests.ask(framed, self.deadline)
        except TimeoutError:
            self._record_answer(request, asked_at, answered=False)
            self._timed_out()
            self._missed_deadline = True
            self._answers_updates = False  # a late answer is not an answer to a state update
            self._updates_unanswered = 0
            if self.timeout_policy is Policy.BOT:
                return await self._play_stand_in(system_prompt, user_prompt, request, "timeout")
            raise SeatTimeout(self.deadline) from None
        if isinstance(answer, _Gone):
            return await self._play_stand_in(system_prompt, user_prompt, request, "disconnected")
        self._record_answer(request, asked_at, answered=True)
        return answer

    def _record_answer(self, request: DecisionRequest, asked_at: float, *, answered: bool) -> None:
        """The ``remote_answer`` record of one request: how long the client took (the board's
        latency of a remote entrant), or that it let the deadline pass."""
        seconds = time.monotonic() - asked_at
        payload = {
            "seat": self.seat,
            "decision": request.decision.kind,
            "latency_s": round(seconds, 4),
            "answered": answered,
        }
        request.emit(Event(kinds.REMOTE_ANSWER, payload, ADMIN, source="runtime"))

    def _timed_out(self) -> None:
        self.timeouts += 1
        if self.benched and self.timeouts == self.bench_after:
            self._error(
                ErrorCode.STAND_IN,
                f"no answer to {self.timeouts} requests in a row: a stand-in plays your seat "
                "until you send a message again (any ACTION_RESPONSE or a HELLO)",
            )

    async def _play_stand_in(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest, reason: str
    ) -> Any:
        if self._stand_in is None:
            self._stand_in = self._make_stand_in()
        stand_in = self._stand_in
        request.emit(
            Event(
                kinds.SEAT_STAND_IN,
                {"seat": self.seat, "reason": reason, "by": describe_player(stand_in)},
                ADMIN,
                source="runtime",
            )
        )
        return await stand_in.decide(system_prompt, user_prompt, request)

    def describe(self) -> str:
        return f"remote:{self.name}" if self.name else "remote"


def plain_observation(observation: Mapping[str, Any]) -> dict[str, Any]:
    """The observation as a plain dict (what goes on the wire)."""
    to_dict = getattr(observation, "to_dict", None)
    return dict(to_dict()) if callable(to_dict) else dict(observation)
