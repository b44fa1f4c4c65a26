"""Plain values of the LLM layer: messages, call options, requests, usage
(:mod:`duskfall.core.usage`) and completions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict

from duskfall.core.errors import ConfigError
from duskfall.core.usage import Usage

Role = Literal["system", "user", "assistant"]


class Message(TypedDict):
    """One chat message: ``{"role": "system" | "user" | "assistant", "content": str}``."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's reply.

    ``text`` is the reply (for schema-constrained calls: the JSON text of the answer);
    ``usage`` sums every attempt of the call; ``retries`` counts the re-sends, and
    ``errors`` says why each one happened; ``latency_s`` is the wall time of the whole call,
    ``queue_s`` the part of it spent waiting for a turn at the endpoint (in duskfall's queue,
    where no timeout runs). ``output_form`` is how the provider constrained the reply
    (``json_schema``, ``json_object``, ``prompt``, ``grammar``, ``tool``; empty when the call
    had no schema). ``answer`` is the JSON object of a schema call's reply, parsed once by the
    model (``text`` is its JSON text), or None (no schema, or no object in the reply).
    """

    text: str
    usage: Usage = field(default_factory=Usage)
    retries: int = 0
    errors: tuple[str, ...] = ()
    latency_s: float = 0.0
    model: str = ""
    output_form: str = ""
    queue_s: float = 0.0
    answer: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class CallOptions:
    """Sampling options of one model call; those left ``None`` are the provider's defaults.

    ``top_k``, ``top_p``, ``min_p`` and ``repeat_penalty`` are llama.cpp's sampler settings
    (llama-cpp-python's server, llama.cpp's, the embedded model): servers differ in their
    defaults (llama-cpp-python's server penalises repeats, 1.1, where its library does not),
    so a recipe can pin them. OpenAI's own API takes only ``top_p`` of them.
    A bad value raises one clear :class:`~duskfall.core.errors.ConfigError`.
    """

    max_tokens: int | None = None
    temperature: float | None = None
    seed: int | None = None
    top_k: int | None = None
    top_p: float | None = None
    min_p: float | None = None
    repeat_penalty: float | None = None

    def __post_init__(self) -> None:
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ConfigError(f"max_tokens must be at least 1, not {self.max_tokens}")
        if self.temperature is not None and self.temperature < 0:
            raise ConfigError(f"temperature cannot be negative, not {self.temperature:g}")
        if self.top_k is not None and self.top_k < 0:
            raise ConfigError(f"top_k cannot be negative, not {self.top_k}")
        for name in ("top_p", "min_p"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 1:
                raise ConfigError(f"{name} must be between 0 and 1, not {value:g}")
        if self.repeat_penalty is not None and self.repeat_penalty <= 0:
            raise ConfigError(f"repeat_penalty must be positive, not {self.repeat_penalty:g}")

    def to_dict(self) -> dict[str, Any]:
        """The options that are set, as the keyword arguments a provider takes."""
        values = {option.name: getattr(self, option.name) for option in fields(self)}
        return {name: value for name, value in values.items() if value is not None}


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
