"""Handlers (seed 004): settle one sub-phase's pending decisions.

A handler is stateless: it receives the context and the participants at call time. It builds
each seat's prompts from that seat's view only (lazily: bots never pay for prompts), queries
the participants (concurrently, except the kinds the variant asks one seat at a time),
decodes and validates their replies against ``legal(seat)``, re-asks with a hint
(``settings.retries`` times) and then applies the documented fallback (``legal.default``),
recording every refusal, timeout and fallback as an ``admin`` event. It returns which seats
fell back, and which of them *failed* (every attempt raised: no answer at all), so nobody
has to read that back from the events.

Programmatic bots (:class:`duskfall.core.bot.Bot`) are called directly through ``act``: no
task, no timer, no prompts.

A participant's answer is untrusted text (a model may echo the key it was sent, a client may
send anything): its thought (any seat's, a bot's too) and the text in its action are redacted
here, once, before the action reaches the rules and the thought the record, each joined to the
seat's previous text of its kind (the record's :class:`~duskfall.core.redaction.SeatTails`: a
key split over two answers is caught), so no secret enters the state, the events derived from
it, or another seat's prompt.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, Event
from duskfall.core.legal import LegalActions
from duskfall.core.redaction import SeatTails
from duskfall.core.transcript import stateless_prompts
from duskfall.core.variant import Decision, State, Variant
from duskfall.runtime.awaiting import DeadlinePassed
from duskfall.runtime.capped import ERROR_TEXT, capped
from duskfall.runtime.checking import CheckedAnswer, check_answer, raw_of
from duskfall.runtime.parsing import Reply
from duskfall.runtime.participant import DecisionRequest, LazyObservation, Participant, Player
from duskfall.runtime.seen import SeenEvents
from duskfall.runtime.settings import RuntimeSettings

RAW_LOG_LIMIT = 2000


@dataclass
class PhaseContext:
    """What a handler may read: the state (through ``observe``/``legal`` only), and settings."""

    variant: Variant
    state: State
    game_id: str
    decisions: Sequence[Decision]
    rng: random.Random
    settings: RuntimeSettings = field(default_factory=RuntimeSettings)
    seen: SeenEvents | None = None
    tails: SeatTails = field(default_factory=SeatTails)  # the game's, from its record

    def runtime_event(self, kind: str, payload: dict[str, Any], visibility: str = ADMIN) -> Event:
        return Event(kind, payload, visibility, self.state.day, self.state.phase, source="runtime")


@dataclass
class HandlerResult:
    """A legal action for every decision, the events recorded while getting them, and the
    seats whose action is the documented fallback rather than their own answer; ``failures``
    are those of them that failed the decision (every attempt raised), with the last error."""

    actions: dict[int, Any]
    subphase_log: list[Event] = field(default_factory=list)
    fallbacks: set[int] = field(default_factory=set)
    failures: dict[int, str] = field(default_factory=dict)


class Handler(Protocol):
    async def __call__(
        self, context: PhaseContext, participants: Sequence[tuple[int, Player]]
    ) -> HandlerResult: ...


class Answer(NamedTuple):
    """How one seat's decision was settled: its action, given by the seat or the fallback;
    ``error`` is why the seat failed it, when every attempt raised (no answer at all)."""

    action: Any
    by: Literal["agent", "fallback"] = "agent"
    error: str | None = None

    @property
    def fallback(self) -> bool:
        return self.by == "fallback"


def _timeout_for(participant: Participant, settings: RuntimeSettings) -> float:
    own = participant.decision_timeout
    return float(own) if own else settings.decision_timeout


class _SeatAsk:
    """One seat's decision while it is being asked: the steps of :func:`ask_seat`."""

    __slots__ = ("context", "kind", "legal", "log", "observation", "participant", "seat")

    def __init__(
        self,
        context: PhaseContext,
        seat: int,
        player: Player,
        log: list[Event],
        kind: str | None,
        asked: tuple[LegalActions, LazyObservation] | None = None,
    ) -> None:
        state = context.state
        self.context = context
        self.seat = seat
        self.log = log
        self.kind = kind
        if asked is None:
            asked = state.legal(seat), LazyObservation(functools.partial(state.observe, seat))
        self.legal, self.observation = asked
        # a bot is called directly (settle_bot): a deadline could not interrupt it anyway
        self.participant = None if isinstance(player, Bot) else player

    @property
    def timeout(self) -> float:
        if self.participant is None:
            return self.context.settings.decision_timeout
        return _timeout_for(self.participant, self.context.settings)

    @property
    def decision(self) -> Decision:
        return Decision(self.seat, self.kind or self.legal.kind)

    async def call(self, attempt: int, hint: str | None) -> Any:
        """The raw answer to one attempt; TimeoutError past the seat's deadline."""
        assert self.participant is not None
        async with asyncio.timeout(self.timeout):  # no task of its own, unlike wait_for
            return await self._request(self.participant, attempt, hint)

    def _request(self, participant: Participant, attempt: int, hint: str | None) -> Any:
        """The participant's ``decide`` call for this attempt, prompts and request built."""
        return participant.decide(*self.prompts(participant, attempt, hint))

    def prompts(
        self, participant: Participant, attempt: int, hint: str | None
    ) -> tuple[str, str, DecisionRequest]:
        """The system and user prompts and the request of this attempt, as ``decide`` gets
        them (a fork's warm-up builds them again to bring a model seat through its prefix)."""
        context, state = self.context, self.context.state
        system, user = "", ""
        entries: Sequence[Mapping[str, Any]] | None = None
        kit = context.variant.info.prompt_kit
        renders = participant.renders_prompts
        if kit is not None and context.seen is not None:
            if renders or participant.reads_history:
                entries = context.seen.entries(self.seat)
            if renders and not participant.composes_prompts:
                system, user = stateless_prompts(
                    kit, self.observation, self.legal, entries, hint=hint
                )
        elif renders:
            system, user = context.variant.render_prompts(self.observation, self.legal, hint)
        request = DecisionRequest(
            decision=self.decision,
            observation=self.observation,
            legal=self.legal,
            game_id=context.game_id,
            variant=context.variant.id,
            day=state.day,
            phase=state.phase,
            hint=hint,
            attempt=attempt,
            prompt_kit=kit,
            entries=entries,
            emit=self.log.append,
        )
        return system, user, request

    def decode(self, raw: Any) -> Any:
        """The legal action in ``raw`` (its thought recorded); IllegalAction if there is none."""
        reply = check_answer(raw, self.legal)
        action = reply.action
        think = reply.think
        tails, seat = self.context.tails, self.seat
        if self.participant is not None:  # untrusted: secrets out before the rules see it
            as_dict = action.to_dict()
            redacted = tails.redact_value(seat, as_dict, "action")
            action = action if redacted is as_dict else self.legal.parse(redacted)
        if think:  # a thought is redacted here, once (the record takes it as it is)
            think = tails.redact(seat, think, "thought")
            self._record(kinds.THOUGHT, {"seat": self.seat, "text": think})
        return action

    def timed_out(self, error: TimeoutError | None = None) -> str:
        """Record the timeout; the deadline quoted is the one the seat was told, if it says."""
        timeout = error.deadline if isinstance(error, DeadlinePassed) else self.timeout
        self._record(kinds.DECISION_TIMEOUT, {"seat": self.seat, "timeout": timeout})
        return f"no answer within {timeout:g}s"

    def failed(self, attempt: int, exc: Exception) -> str:
        reason = f"participant error: {type(exc).__name__}: {capped(str(exc), ERROR_TEXT)}"
        payload = {"seat": self.seat, "attempt": attempt, "error": reason}
        self._record(kinds.PARTICIPANT_ERROR, payload)
        return reason

    def refused(self, attempt: int, raw: Any, exc: IllegalAction) -> str:
        """Record the refusal; its hint (quoting the answer, so as long as the seat makes it)
        is kept and given back capped."""
        hint = capped(exc.hint, ERROR_TEXT)
        payload = {
            "seat": self.seat,
            "attempt": attempt,
            "raw": _loggable(raw),
            "error": hint,
            "code": exc.code,
        }
        self._record(kinds.INVALID_ACTION, payload)
        return f"{exc.code}: {hint}"

    def fall_back(self, reason: str) -> Any:
        action = self.legal.default(self.context.rng)
        payload = {"seat": self.seat, "reason": reason, "action": action.to_dict()}
        self._record(kinds.FALLBACK, payload)
        return action

    def _record(self, kind: str, payload: dict[str, Any]) -> None:
        self.log.append(self.context.runtime_event(kind, payload))


def decision_prompts(
    context: PhaseContext,
    seat: int,
    participant: Participant,
    kind: str | None,
    attempt: int,
    hint: str | None,
) -> tuple[str, str, DecisionRequest]:
    """What :func:`ask_seat` hands ``participant``'s ``decide`` at ``attempt`` (with the
    ``hint`` of the refusal before it): system prompt, user prompt and request."""
    return _SeatAsk(context, seat, participant, [], kind).prompts(participant, attempt, hint)


async def ask_seat(
    context: PhaseContext,
    seat: int,
    participant: Player,
    log: list[Event],
    kind: str | None = None,
) -> Answer:
    """Ask one seat until it gives a legal action, re-asking with a hint; else fall back.

    Refusals, failures, the timeout and the fallback are recorded in ``log``. A bot is
    settled synchronously (:func:`settle_bot`).
    """
    if isinstance(participant, Bot):
        return settle_bot(context, seat, participant, log, kind)
    asking = _SeatAsk(context, seat, participant, log, kind)
    hint: str | None = None
    reason = "no answer"
    failed = True  # until the seat answers (or times out, as a person may)
    for attempt in range(context.settings.retries + 1):
        try:
            raw = await asking.call(attempt, hint)
        except TimeoutError as exc:
            reason, failed = asking.timed_out(exc), False
            break
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # one failure does not stop the game (the scheduler counts)
            reason, hint = asking.failed(attempt, exc), None
            continue
        try:
            return Answer(asking.decode(raw))
        except IllegalAction as exc:
            reason, failed = asking.refused(attempt, raw, exc), False
            hint = capped(exc.hint, ERROR_TEXT)
    return Answer(asking.fall_back(reason), "fallback", reason if failed else None)


def settle_bot(
    context: PhaseContext,
    seat: int,
    bot: Bot,
    log: list[Event],
    kind: str | None = None,
) -> Answer:
    """:func:`ask_seat` for a bot, without a coroutine: ``act`` until legal, else fall back.

    The same steps and records as for a participant (a bot gets no hint: it has no prompt),
    so a game plays and logs the same whichever way its bots are called. A bot's first
    answer, when it is a legal typed action (nearly always), is taken with nothing else
    built; otherwise the answer is judged and recorded by the full steps.
    """
    state = context.state
    asked = state.legal(seat), LazyObservation(functools.partial(state.observe, seat))
    first = _attempt(bot, asked)
    if not isinstance(first, _NOT_A_TYPED_ACTION):
        try:
            return Answer(asked[0].parse(first))
        except IllegalAction:
            pass  # refused and recorded below
    asking = _SeatAsk(context, seat, bot, log, kind, asked)
    reason = "no answer"
    for attempt in range(context.settings.retries + 1):
        raw = first if attempt == 0 else _attempt(bot, asked)
        if isinstance(raw, _Raised):
            if isinstance(raw.error, TimeoutError):
                reason = asking.timed_out()
                break
            reason = asking.failed(attempt, raw.error)
            continue
        try:
            return Answer(asking.decode(raw))
        except IllegalAction as exc:
            reason = asking.refused(attempt, raw, exc)
    return Answer(asking.fall_back(reason), "fallback")


class _Raised(NamedTuple):
    """What a bot's ``act`` raised instead of answering."""

    error: Exception


_NOT_A_TYPED_ACTION = (str, dict, Reply, CheckedAnswer, _Raised)  # answers that need decoding


def _attempt(bot: Bot, asked: tuple[LegalActions, LazyObservation]) -> Any:
    """The bot's answer, or what it raised (a bot's failure must not stop the game)."""
    legal, observation = asked
    try:
        return bot.act(observation, legal)
    except Exception as exc:
        return _Raised(exc)


async def ask(
    context: PhaseContext,
    seat: int,
    participant: Player,
    log: list[Event],
    kind: str | None = None,
) -> Any:
    """The action of :func:`ask_seat` (whether it is the fallback shows in ``log``)."""
    return (await ask_seat(context, seat, participant, log, kind)).action


def _loggable(answer: Any) -> Any:
    raw = raw_of(answer)
    if isinstance(raw, str):
        return raw if len(raw) <= RAW_LOG_LIMIT else raw[:RAW_LOG_LIMIT] + "..."
    to_dict = getattr(raw, "to_dict", None)
    return to_dict() if callable(to_dict) else repr(raw)[:RAW_LOG_LIMIT]


class AskHandler:
    """The default handler: ask every pending seat, each until legal or fallback.

    Seats are asked concurrently, except for the decision kinds the variant declares
    sequential (``info.sequential_kinds``, e.g. speeches), which are asked one seat at a time.
    """

    async def __call__(
        self, context: PhaseContext, participants: Sequence[tuple[int, Player]]
    ) -> HandlerResult:
        kind_of = {decision.seat: decision.kind for decision in context.decisions}
        logs: list[list[Event]] = [[] for _ in participants]

        def asking(i: int) -> Coroutine[Any, Any, Answer]:
            seat, player = participants[i]
            return ask_seat(context, seat, player, logs[i], kind_of.get(seat))

        if self._one_at_a_time(context, participants):
            answers = [await asking(i) for i in range(len(participants))]
        else:
            answers = await asyncio.gather(*(asking(i) for i in range(len(participants))))
        answered = list(zip((seat for seat, _ in participants), answers, strict=True))
        return HandlerResult(
            {seat: answer.action for seat, answer in answered},
            [event for log in logs for event in log],
            fallbacks={seat for seat, answer in answered if answer.fallback},
            failures={seat: answer.error for seat, answer in answered if answer.error},
        )

    @staticmethod
    def _one_at_a_time(context: PhaseContext, participants: Sequence[tuple[int, Player]]) -> bool:
        """Whether to ask in seat order: one seat, a sequential kind, or bots that never
        suspend (for which asking in order is what gathering would do)."""
        if len(participants) <= 1 or all(isinstance(p, Bot) for _, p in participants):
            return True
        sequential = context.variant.info.sequential_kinds
        return any(decision.kind in sequential for decision in context.decisions)
