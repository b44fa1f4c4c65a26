"""LLM calls as game events, and the usage they add up to per seat and per game.

Participants record each model call with :func:`llm_call_event` through ``extra["emit"]``:
an ``admin`` event of kind ``llm_call`` and source ``llm`` holding the prompt, the reply,
tokens, cost, latency and retries (never a key: specs are stripped of credentials).
:func:`usage_by_seat`, :func:`game_usage` and :func:`call_report` read them back from any
log, together with the runtime's re-asks and fallbacks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.events import ADMIN, Event
from duskfall.llm.types import Completion, Message, Usage

LLM_CALL = "llm_call"


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
    **fields: Any,
) -> Event:
    """The ``admin`` record of one model call (a reply, or the ``error`` that ended it)."""
    if completion is not None:
        usage, errors, latency_s = completion.usage, completion.errors, completion.latency_s
    usage = usage or Usage()
    payload: dict[str, Any] = {
        "seat": seat,
        "model": model,
        "messages": [dict(m) for m in messages],
        "reply": completion.text if completion is not None else None,
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cost_usd": round(usage.cost_usd, 8),
        "latency_s": round(latency_s, 4),
        "retries": len(errors),
        "retry_reasons": list(errors),
        **fields,
    }
    if error is not None:
        payload["error"] = error
    return Event(LLM_CALL, payload, ADMIN, day, phase, source="llm")


def _usage_of(event: Event) -> Usage:
    p = event.payload
    return Usage(
        int(p.get("prompt_tokens", 0)),
        int(p.get("completion_tokens", 0)),
        float(p.get("cost_usd", 0.0)),
    )


def usage_by_seat(events: Iterable[Event]) -> dict[int | None, Usage]:
    """Tokens and cost per seat (``None``: calls made for no seat, e.g. a game master)."""
    totals: dict[int | None, Usage] = {}
    for event in events:
        if event.kind == LLM_CALL:
            seat = event.payload.get("seat")
            totals[seat] = totals.get(seat, Usage()) + _usage_of(event)
    return totals


def game_usage(events: Iterable[Event]) -> tuple[Usage, int]:
    """Total usage of a game's model calls, and how many calls there were."""
    total, calls = Usage(), 0
    for event in events:
        if event.kind == LLM_CALL:
            total += _usage_of(event)
            calls += 1
    return total, calls


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
    by_seat: dict[int | None, Usage] = field(default_factory=dict)
    retry_reasons: Counter[str] = field(default_factory=Counter)

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
        }


_RUNTIME_COUNTS = {
    "invalid_action": "invalid_replies",
    "participant_error": "participant_errors",
    "decision_timeout": "timeouts",
    "fallback": "fallbacks",
}


def call_report(events: Iterable[Event]) -> CallReport:
    """Summarise the LLM calls, retries, re-asks and fallbacks recorded in ``events``."""
    report = CallReport()
    for event in events:
        if event.kind == LLM_CALL:
            usage = _usage_of(event)
            seat = event.payload.get("seat")
            report.calls += 1
            report.usage += usage
            report.by_seat[seat] = report.by_seat.get(seat, Usage()) + usage
            reasons = event.payload.get("retry_reasons", [])
            report.retries += len(reasons)
            report.retry_reasons.update(_reason_kind(r) for r in reasons)
            report.failed_calls += "error" in event.payload
        elif event.kind in _RUNTIME_COUNTS and event.source == "runtime":
            name = _RUNTIME_COUNTS[event.kind]
            setattr(report, name, getattr(report, name) + 1)
    return report


def _reason_kind(reason: str) -> str:
    """``'server error 500: ...'`` -> ``'server error 500'``."""
    return reason.split(":", 1)[0].strip()
