"""LLM calls as game events, and the usage they add up to per seat and per game.

A caller hands :meth:`Model.complete <duskfall.llm.Model.complete>` a :class:`CallRecord`
(where events go, and the labels of the call), and the model records the call itself, replied
or failed, as one ``admin`` event of kind ``llm_call`` (see :func:`llm_call_event`): the
prompt, the reply, tokens (``cached_tokens``: prompt tokens the provider read from its cache),
cost, latency (``queue_s`` of it waiting for a turn at the endpoint), retries, the sampling
options sent (``sampling``: ``max_tokens``, ``temperature``, ``seed``) and the structured-output
form the provider used (``output_form``) (never a key: the spec, the error and the retry
reasons pass through :func:`duskfall.core.redaction.redact`). :func:`usage_by_seat`,
:func:`game_usage` and :func:`call_report` read them back from any log, together with the
runtime's re-asks and fallbacks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import ADMIN, Event
from duskfall.core.redaction import redact
from duskfall.core.usage import Tally, UsageFold, fold_usage
from duskfall.llm.errors import LLMError
from duskfall.llm.types import CallOptions, Completion, Message, Usage

LLM_CALL = kinds.LLM_CALL

Emit = Callable[[Event], None]


def llm_call_event(
    *,
    seat: int | None,
    model: str,
    messages: Sequence[Message],
    completion: Completion | None = None,
    error: str | None = None,
    usage: Usage | None = None,
    errors: Sequence[str] = (),
    latency_s: float = 0.0,
    day: int = 0,
    phase: str = "",
    source: str = "llm",
    options: CallOptions | None = None,
    **fields: Any,
) -> Event:
    """The ``admin`` record of one model call (a reply, or the ``error`` that ended it).

    Secrets in the model spec, the error and the retry reasons are masked (:func:`redact`).
    """
    if completion is not None:
        usage, errors, latency_s = completion.usage, completion.errors, completion.latency_s
    usage = usage or Usage()
    payload: dict[str, Any] = {
        "seat": seat,
        "model": redact(model),
        "messages": [dict(m) for m in messages],
        "reply": completion.text if completion is not None else None,
        **usage.to_dict(),
        "latency_s": round(latency_s, 4),
        "retries": len(errors),
        "retry_reasons": [redact(reason) for reason in errors],
    }
    if completion is not None:
        payload["queue_s"] = round(completion.queue_s, 4)
        if completion.output_form:
            payload["output_form"] = completion.output_form
    sampling = options.to_dict() if options is not None else {}
    if sampling:
        payload["sampling"] = sampling
    payload.update(fields)
    if error is not None:
        payload["error"] = redact(error)
    return Event(LLM_CALL, payload, ADMIN, day, phase, source=source)


@dataclass(frozen=True)
class CallRecord:
    """How a model records one call: ``emit`` takes its ``llm_call`` event.

    ``seat``, ``day`` and ``phase`` place the call in the game; ``fields`` are added to the
    payload after the standard ones (``decision``, ``stage``, ``role``...: the caller's labels,
    which the record's redaction does not search, see
    :data:`~duskfall.core.event_kinds.TEXT_FIELDS`); ``source`` is the event's source.
    ``tally``, if given, also counts the call and adds up its usage (an agent's running total).
    """

    emit: Emit
    seat: int | None = None
    day: int = 0
    phase: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)
    source: str = "llm"
    tally: Tally | None = None

    def replied(
        self,
        model: str,
        messages: Sequence[Message],
        completion: Completion,
        options: CallOptions | None = None,
    ) -> None:
        """Record a call that got ``completion`` (``options``: the sampling options sent)."""
        event = llm_call_event(
            completion=completion, options=options, **self._labels(model, messages)
        )
        self._record(completion.usage, event)

    def failed(
        self,
        model: str,
        messages: Sequence[Message],
        error: LLMError,
        latency_s: float,
        options: CallOptions | None = None,
    ) -> None:
        """Record a call that ended with ``error`` (what it cost, why each attempt failed)."""
        event = llm_call_event(
            error=str(error),
            usage=error.usage,
            errors=error.errors,
            latency_s=latency_s,
            options=options,
            **self._labels(model, messages),
        )
        self._record(error.usage, event)

    def _labels(self, model: str, messages: Sequence[Message]) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "model": model,
            "messages": messages,
            "day": self.day,
            "phase": self.phase,
            "source": self.source,
            **self.fields,
        }

    def _record(self, usage: Usage, event: Event) -> None:
        if self.tally is not None:
            self.tally.add(usage)
        self.emit(event)


def usage_by_seat(events: Iterable[Event]) -> dict[int | None, Usage]:
    """Tokens and cost per seat (``None``: calls made for no seat, e.g. a game master)."""
    return {seat: tally.usage for seat, tally in fold_usage(events).by_seat.items()}


def game_usage(events: Iterable[Event]) -> tuple[Usage, int]:
    """Total usage of a game's model calls, and how many calls there were."""
    total = fold_usage(events).total
    return total.usage, total.calls


@dataclass
class CallReport:
    """What a game's LLM players cost and how often the runtime had to step in."""

    calls: int = 0
    usage: Usage = field(default_factory=Usage)
    retries: int = 0
    failed_calls: int = 0
    invalid_replies: int = 0
    participant_errors: int = 0
    timeouts: int = 0
    fallbacks: int = 0
    call_timeouts: int = 0
    queued_timeouts: int = 0
    cancelled_calls: int = 0
    queue_s: float = 0.0
    beliefs_asked: int = 0
    beliefs_refused: int = 0
    by_seat: dict[int | None, Usage] = field(default_factory=dict)
    retry_reasons: Counter[str] = field(default_factory=Counter)
    output_forms: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            **self.usage.to_dict(),
            "total_tokens": self.usage.total_tokens,
            "retries": self.retries,
            "failed_calls": self.failed_calls,
            "invalid_replies": self.invalid_replies,
            "participant_errors": self.participant_errors,
            "timeouts": self.timeouts,
            "fallbacks": self.fallbacks,
            "call_timeouts": self.call_timeouts,
            "queued_timeouts": self.queued_timeouts,
            "cancelled_calls": self.cancelled_calls,
            "queue_s": round(self.queue_s, 3),
            "beliefs_asked": self.beliefs_asked,
            "beliefs_refused": self.beliefs_refused,
            "output_forms": dict(self.output_forms),
        }


_RUNTIME_COUNTS = {
    kinds.INVALID_ACTION: "invalid_replies",
    kinds.PARTICIPANT_ERROR: "participant_errors",
    kinds.DECISION_TIMEOUT: "timeouts",
    kinds.FALLBACK: "fallbacks",
}


def call_report(events: Iterable[Event]) -> CallReport:
    """Summarise the LLM calls, retries, re-asks, timeouts, fallbacks and beliefs recorded in
    ``events``.

    ``call_timeouts`` counts every attempt that got no reply in time (``queued_timeouts``: those
    that timed out with other calls in flight, re-sent without counting as failures; a call
    abandoned by its caller counts in ``cancelled_calls``); ``timeouts`` counts decisions whose
    deadline passed. ``beliefs_refused`` counts stated beliefs that were unreadable or outside
    [0, 1] (kept in the log, not scored).
    """
    report = CallReport()
    fold = UsageFold()
    for event in events:
        if fold.add(event) is not None:
            payload = event.payload
            reasons = payload.get("retry_reasons", [])
            report.retries += len(reasons)
            report.retry_reasons.update(_reason_kind(r) for r in reasons)
            report.failed_calls += "error" in payload
            error = str(payload.get("error") or "")
            report.cancelled_calls += error.startswith("cancelled")
            timed_out = [r for r in reasons if _timed_out(r)]
            # a call given up on records its attempts' reasons too; only a whole-call limit
            # or a cancellation adds one of its own
            report.call_timeouts += len(timed_out) + error.startswith(_WHOLE_CALL_TIMEOUTS)
            report.queued_timeouts += sum(r.startswith("queued") for r in timed_out)
            report.queue_s += float(payload.get("queue_s") or 0.0)
            if payload.get("output_form"):
                report.output_forms[str(payload["output_form"])] += 1
        elif event.kind == kinds.BELIEFS:
            report.beliefs_asked += 1
            report.beliefs_refused += "refused" in event.payload
        elif event.kind in _RUNTIME_COUNTS and event.source == "runtime":
            name = _RUNTIME_COUNTS[event.kind]
            setattr(report, name, getattr(report, name) + 1)
    report.calls, report.usage = fold.total.calls, fold.total.usage
    report.by_seat = {seat: tally.usage for seat, tally in fold.by_seat.items()}
    return report


_WHOLE_CALL_TIMEOUTS = ("no reply within", "cancelled")


def _timed_out(reason: str) -> bool:
    """Whether a recorded reason or error says an attempt got no reply in time."""
    return "no reply within" in reason or reason.startswith("cancelled")


def _reason_kind(reason: str) -> str:
    """``'server error 500: ...'`` -> ``'server error 500'``."""
    return reason.split(":", 1)[0].strip()
