"""Anthropic's Messages API through the ``anthropic`` SDK (``anthropic:MODEL``).

Schema-constrained output is a forced call of the tool ``answer``, whose input is the reply.
The key comes from ``ANTHROPIC_API_KEY`` or the config file.

Prompt caching (on unless ``[anthropic] prompt_cache = false``): ``cache_control``
breakpoints mark the system prompt, the last message before the new turn and the new turn's
text, so a seat's next call, which extends this conversation, reads all of it from the cache.
The cached prefix runs tools, system, messages, and any change to a tool invalidates it all:
so the tool keeps one input schema (any object) and the decision's JSON schema goes in a last
block of the new turn, after the breakpoints; the model validates the reply against it.
With caching off, the schema is the tool's input schema and nothing is marked.
Usage counts cache reads (``cached_tokens``) and writes (``cache_write_tokens``) inside
``prompt_tokens``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from duskfall.core.errors import MissingDependency
from duskfall.llm.config import LLMConfig, Secret
from duskfall.llm.errors import (
    LLMError,
    ModelSpecError,
    ProviderUnavailable,
    RateLimited,
    TransientError,
)
from duskfall.llm.loops import PerLoop, shared_per_loop
from duskfall.llm.prices import Price
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.providers.http_errors import error_message, key_digest, retry_after
from duskfall.llm.types import Completion, Message, Usage

TOOL = "answer"
EPHEMERAL = {"type": "ephemeral"}
ANY_OBJECT = {"type": "object"}


class AnthropicProvider(Provider):
    """Claude models via the Messages API."""

    name = "anthropic"
    capabilities = Capabilities(schema=True)
    key_env = ("ANTHROPIC_API_KEY",)
    prices: ClassVar[Mapping[str, Price]] = {  # list prices: input, output, cache read, write
        "claude-3-haiku": Price(0.25, 1.25, 0.03, 0.30),
        "claude-3-5-haiku": Price(0.80, 4.00, 0.08, 1.00),
        "claude-haiku-4-5": Price(1.00, 5.00, 0.10, 1.25),
        "claude-3-5-sonnet": Price(3.00, 15.00, 0.30, 3.75),
        "claude-3-7-sonnet": Price(3.00, 15.00, 0.30, 3.75),
        "claude-sonnet-4": Price(3.00, 15.00, 0.30, 3.75),
        "claude-opus-4": Price(15.00, 75.00, 1.50, 18.75),
    }  # USD per 1M tokens at the time of writing: reads a tenth, 5-minute writes 1.25 times
    max_concurrency = 8

    def __init__(
        self,
        model: str,
        *,
        api_key: Secret | None,
        base_url: str | None = None,
        prompt_cache: bool = True,
        context_tokens: int | None = None,
    ):
        try:  # a missing package first: a key is no use without it
            import anthropic
        except ImportError:
            raise MissingDependency("anthropic", "anthropic") from None
        if api_key is None:
            raise ProviderUnavailable(
                "no Anthropic API key: set ANTHROPIC_API_KEY (or api_key under [anthropic] in "
                "the file named by DUSKFALL_LLM_CONFIG)"
            )
        self._sdk = anthropic
        self.model = model
        self.prompt_cache = prompt_cache
        self.context_tokens = context_tokens
        self.base_url = base_url
        self.endpoint = f"anthropic@{base_url or 'api.anthropic.com'}"
        key = api_key.reveal()
        self._clients: PerLoop[Any] = shared_per_loop(
            ("anthropic", base_url or "", key_digest(key)),
            lambda: anthropic.AsyncAnthropic(
                api_key=key, base_url=base_url, max_retries=0, timeout=None
            ),
        )

    @classmethod
    def from_spec(cls, arg: str, config: LLMConfig) -> AnthropicProvider:
        """``anthropic:MODEL``."""
        if not arg:
            raise ModelSpecError(
                "anthropic needs a model name, e.g. anthropic:claude-3-5-haiku-latest"
            )
        return cls(
            arg,
            api_key=config.api_key("anthropic", cls.key_env),
            base_url=config.get("anthropic", "base_url"),
            prompt_cache=bool(config.get("anthropic", "prompt_cache", True)),
            context_tokens=config.context_tokens("anthropic"),
        )

    def __repr__(self) -> str:
        return f"AnthropicProvider({self.model!r})"

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        request: dict[str, Any] = {"model": self.model, "max_tokens": 1024, **options}
        if self.prompt_cache:
            request.update(cached_request(messages, schema))
        else:
            request.update(plain_request(messages, schema))
        response = await self._send(request)
        text = ""
        for block in response.content:
            if getattr(block, "type", "") == "tool_use":
                text = json.dumps(block.input, ensure_ascii=False)
                break
            if getattr(block, "type", "") == "text":
                text += block.text
        return Completion(text, read_usage(response.usage))

    async def _send(self, request: dict[str, Any]) -> Any:
        sdk = self._sdk
        try:
            return await self._clients.get().messages.create(**request)
        except sdk.RateLimitError as exc:
            raise RateLimited("rate limited (429)", retry_after(exc)) from None
        except sdk.AuthenticationError:
            raise ProviderUnavailable(
                "Anthropic rejected the API key; check ANTHROPIC_API_KEY"
            ) from None
        except sdk.NotFoundError:
            raise ProviderUnavailable(f"Anthropic has no model {self.model!r}") from None
        except sdk.APITimeoutError:
            raise TransientError("Anthropic timed out") from None
        except sdk.APIConnectionError:
            raise TransientError("cannot reach the Anthropic API; check the network") from None
        except sdk.APIStatusError as exc:
            if exc.status_code >= 500 or exc.status_code == 529:
                raise TransientError(f"server error {exc.status_code}") from None
            raise LLMError(f"HTTP {exc.status_code}: {error_message(exc)}") from None
        except (sdk.APIResponseValidationError, ValueError) as exc:
            raise TransientError(f"unreadable reply: {type(exc).__name__}") from None


def plain_request(messages: Sequence[Message], schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """System, messages and tool of a request without cache breakpoints."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    request: dict[str, Any] = {"messages": [dict(m) for m in messages if m["role"] != "system"]}
    if system:
        request["system"] = system
    if schema is not None:
        request.update(_tool(dict(schema)))
    return request


def cached_request(messages: Sequence[Message], schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """System, messages and tool of a request with cache breakpoints (at most 3 of the 4
    allowed): the system prompt, the last message before the new turn, the new turn's text.
    A schema goes after them, in the new turn, and the tool takes any object."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    turns: list[dict[str, Any]] = [
        {"role": m["role"], "content": [{"type": "text", "text": m["content"]}]}
        for m in messages
        if m["role"] != "system"
    ]
    for turn in turns[-2:]:
        turn["content"][-1]["cache_control"] = EPHEMERAL
    request: dict[str, Any] = {"messages": turns}
    if system:
        request["system"] = [{"type": "text", "text": system, "cache_control": EPHEMERAL}]
    if schema is not None:
        note = {"type": "text", "text": schema_note(schema)}
        if turns and turns[-1]["role"] == "user":
            turns[-1]["content"].append(note)
        else:
            turns.append({"role": "user", "content": [note]})
        request.update(_tool(ANY_OBJECT))
    return request


def schema_note(schema: Mapping[str, Any]) -> str:
    return f"Call the {TOOL} tool; its input must match this JSON schema: " + json.dumps(
        schema, separators=(",", ":")
    )


def _tool(input_schema: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "tools": [
            {"name": TOOL, "description": "Give your answer.", "input_schema": dict(input_schema)}
        ],
        "tool_choice": {"type": "tool", "name": TOOL},
    }


def read_usage(usage: Any) -> Usage:
    """Tokens of a reply: Anthropic's ``input_tokens`` leaves out the cached ones, which
    ``prompt_tokens`` includes."""
    read = getattr(usage, "cache_read_input_tokens", None) or 0
    written = getattr(usage, "cache_creation_input_tokens", None) or 0
    fresh = getattr(usage, "input_tokens", None) or 0
    return Usage(
        fresh + read + written,
        getattr(usage, "output_tokens", None) or 0,
        cached_tokens=read,
        cache_write_tokens=written,
    )
