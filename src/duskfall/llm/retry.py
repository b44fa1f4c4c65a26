"""Retry policy: exponential backoff with jitter that honours a server's Retry-After."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a :class:`~duskfall.llm.Model` re-sends a failed call.

    ``retries`` re-sends after the first attempt; the n-th waits ``base_delay * 2**n`` seconds
    (capped at ``max_delay``) with up to ``jitter`` of it added at random, or the server's
    ``Retry-After`` if that is longer (still capped). ``format_retries`` re-asks, with the
    validation error as a hint, when a schema-constrained reply does not validate.
    """

    retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 20.0
    jitter: float = 0.25
    format_retries: int = 1
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.retries < 0 or self.format_retries < 0:
            raise ValueError("retries cannot be negative")
        if self.base_delay < 0 or self.max_delay < 0 or self.jitter < 0:
            raise ValueError("delays cannot be negative")

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before re-send number ``attempt`` (0-based)."""
        backoff = self.base_delay * (2**attempt)
        backoff += backoff * self.jitter * self.rng.random()
        if retry_after is not None:
            backoff = max(backoff, retry_after)
        return min(backoff, self.max_delay)
