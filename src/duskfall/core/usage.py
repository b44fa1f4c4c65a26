"""Tokens and cost of model calls, and the one fold of ``llm_call`` events into totals.

Every total of model usage (an agent's, a model's, the LLM call report, the game index, the
game master's counters) is a :class:`Usage` sum, read from events by :func:`call_usage`
and folded by :class:`Tally` / :class:`UsageFold`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.event_kinds import LLM_CALL
from duskfall.core.events import Event


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens spent and what they cost. Adds up with ``+`` and ``sum(..., Usage())``.

    ``prompt_tokens`` is the whole input; ``cached_tokens`` the part of it the provider did
    not evaluate again (read from its prompt cache, or kept in llama.cpp's KV cache) and
    ``cache_write_tokens`` the part it stored for later calls (Anthropic bills those apart);
    both are included in ``prompt_tokens``.
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cached_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def uncached_tokens(self) -> int:
        """Prompt tokens the provider had to evaluate."""
        return self.prompt_tokens - self.cached_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cost_usd + other.cost_usd,
            self.cached_tokens + other.cached_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    def __radd__(self, other: object) -> Usage:
        if other == 0:  # lets sum() start from 0
            return self
        if isinstance(other, Usage):
            return other + self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """The fields of an ``llm_call`` payload that record this usage."""
        return {
            "prompt_tokens": self.prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "cache_write_tokens": self.cache_write_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 8),
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Usage:
        """The usage an ``llm_call`` payload records (missing or null fields count 0, so
        calls logged before the cache fields existed read as uncached)."""
        return cls(
            int(payload.get("prompt_tokens") or 0),
            int(payload.get("completion_tokens") or 0),
            float(payload.get("cost_usd") or 0.0),
            int(payload.get("cached_tokens") or 0),
            int(payload.get("cache_write_tokens") or 0),
        )


def call_usage(event: Event) -> Usage | None:
    """The usage of an ``llm_call`` event; None for an event of any other kind."""
    return Usage.from_payload(event.payload) if event.kind == LLM_CALL else None


@dataclass(slots=True)
class Tally:
    """A running count of model calls and the sum of their usage."""

    usage: Usage = field(default_factory=Usage)
    calls: int = 0

    def add(self, usage: Usage) -> None:
        """Count one call that spent ``usage``."""
        self.usage += usage
        self.calls += 1


@dataclass(slots=True)
class UsageFold:
    """The model calls of a game: in total and per seat (``None``: calls made for no seat)."""

    total: Tally = field(default_factory=Tally)
    by_seat: dict[int | None, Tally] = field(default_factory=dict)

    def add(self, event: Event) -> Usage | None:
        """Count ``event`` if it is an ``llm_call``; its usage, or None for other events."""
        usage = call_usage(event)
        if usage is not None:
            self.total.add(usage)
            seat = event.payload.get("seat")
            self.by_seat.setdefault(seat, Tally()).add(usage)
        return usage


def fold_usage(events: Iterable[Event]) -> UsageFold:
    """The :class:`UsageFold` of ``events``."""
    fold = UsageFold()
    for event in events:
        fold.add(event)
    return fold
