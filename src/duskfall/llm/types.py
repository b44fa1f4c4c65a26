"""Plain values of the LLM layer: messages, requests, usage and completions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

Role = Literal["system", "user", "assistant"]


class Message(TypedDict):
    """One chat message: ``{"role": "system" | "user" | "assistant", "content": str}``."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens spent and what they cost. Adds up with ``+`` and ``sum(..., Usage())``."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cost_usd + other.cost_usd,
        )

    def __radd__(self, other: object) -> Usage:
        if other == 0:  # lets sum() start from 0
            return self
        if isinstance(other, Usage):
            return other + self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 8),
        }


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's reply.

    ``text`` is the reply (for schema-constrained calls: the JSON text of the answer);
    ``usage`` sums every attempt of the call; ``retries`` counts the re-sends, and
    ``errors`` says why each one happened; ``latency_s`` is the wall time of the whole call.
    """

    text: str
    usage: Usage = field(default_factory=Usage)
    retries: int = 0
    errors: tuple[str, ...] = ()
    latency_s: float = 0.0
    model: str = ""


@dataclass(frozen=True, slots=True)
class Request:
    """What a provider is asked: the messages, an optional JSON schema, and options."""

    messages: Sequence[Message]
    schema: Mapping[str, Any] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def system(self) -> str:
        return "\n\n".join(m["content"] for m in self.messages if m["role"] == "system")

    @property
    def last_user(self) -> str:
        return next((m["content"] for m in reversed(self.messages) if m["role"] == "user"), "")


def approx_tokens(text: str) -> int:
    """A provider-independent token estimate (about four characters a token)."""
    return max(1, (len(text) + 3) // 4) if text else 0
