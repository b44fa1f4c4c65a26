"""Anthropic's Messages API through the ``anthropic`` SDK (``anthropic:MODEL``).

Schema-constrained output is a forced tool call whose input schema is the JSON schema; the
tool's input is the reply. The key comes from ``ANTHROPIC_API_KEY`` or the config file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

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
from duskfall.llm.providers.http_errors import error_message, key_digest, retry_after
from duskfall.llm.types import Completion, Message, Usage

TOOL = "answer"


class AnthropicProvider:
    """Claude models via the Messages API."""

    name = "anthropic"
    supports_schema = True
    max_concurrency = 8
    default_timeout = 60.0

    def __init__(self, model: str, *, api_key: Secret | None, base_url: str | None = None):
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
        self.base_url = base_url
        self.endpoint = f"anthropic@{base_url or 'api.anthropic.com'}"
        key = api_key.reveal()
        self._clients: PerLoop[Any] = shared_per_loop(
            ("anthropic", base_url or "", key_digest(key)),
            lambda: anthropic.AsyncAnthropic(
                api_key=key, base_url=base_url, max_retries=0, timeout=None
            ),
        )

    def __repr__(self) -> str:
        return f"AnthropicProvider({self.model!r})"

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        turns = [dict(m) for m in messages if m["role"] != "system"]
        request: dict[str, Any] = {"model": self.model, "max_tokens": 1024, **options}
        request["messages"] = turns
        if system:
            request["system"] = system
        if schema is not None:
            request["tools"] = [
                {"name": TOOL, "description": "Give your answer.", "input_schema": dict(schema)}
            ]
            request["tool_choice"] = {"type": "tool", "name": TOOL}
        response = await self._send(request)
        text = ""
        for block in response.content:
            if getattr(block, "type", "") == "tool_use":
                text = json.dumps(block.input, ensure_ascii=False)
                break
            if getattr(block, "type", "") == "text":
                text += block.text
        usage = response.usage
        return Completion(text, Usage(usage.input_tokens or 0, usage.output_tokens or 0))

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


def from_spec(arg: str, config: LLMConfig) -> AnthropicProvider:
    """``anthropic:MODEL``."""
    if not arg:
        raise ModelSpecError("anthropic needs a model name, e.g. anthropic:claude-3-5-haiku-latest")
    return AnthropicProvider(
        arg, api_key=config.api_key("anthropic"), base_url=config.get("anthropic", "base_url")
    )
