"""``inspect``: a duskfall provider that calls a model through inspect_ai's own model API.

``llm:inspect`` is the model under evaluation (``inspect eval ... --model M``: inspect_ai's
``get_model()`` inside the running sample), so every provider inspect_ai supports plays a seat,
and each call is recorded in the sample's transcript by inspect_ai as well as in the duskfall
log (by :class:`~duskfall.llm.Model`). ``llm:inspect:PROVIDER/MODEL`` names any other inspect
model (an opponent, say).

The decision's JSON schema goes as inspect's ``response_schema`` (structured output where the
provider has it), in the subset inspect's ``JSONSchema`` holds (:func:`inspect_schema`: a
``const`` becomes a one-value ``enum``; array lengths are left out); the reply is validated
against the whole schema by duskfall either way. inspect_ai retries failed
requests itself, so an error it raises is not retried again here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.core.errors import MissingDependency
from duskfall.llm.config import LLMConfig
from duskfall.llm.errors import LLMError
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.types import Completion, Message, Usage

MAX_CONCURRENCY = 256  # inspect_ai holds its own per-model connection limit


def _inspect_model(name: str | None) -> Any:
    try:
        from inspect_ai.model import get_model
    except ImportError:
        raise MissingDependency("inspect-ai", "inspect") from None
    return get_model(name or None)


class InspectProvider(Provider):
    """Chat completions through an inspect_ai ``Model``."""

    name = "inspect"
    capabilities = Capabilities(schema=True, seed=True, ping=True)
    max_concurrency = MAX_CONCURRENCY
    default_timeout = 600.0  # inspect_ai applies its own timeouts and retries

    def __init__(self, model: Any) -> None:
        self.inspect_model = model
        self.model = str(model)
        self.endpoint = f"inspect:{self.model}"

    @classmethod
    def from_spec(cls, arg: str, config: LLMConfig) -> InspectProvider:
        """``inspect`` (the model under evaluation) or ``inspect:PROVIDER/MODEL``."""
        return cls(_inspect_model(arg or None))

    def __repr__(self) -> str:
        return f"InspectProvider({self.model!r})"

    async def ping(self) -> None:
        """inspect_ai checks its model itself; nothing to send before the game."""

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        from inspect_ai.model import (
            ChatMessageAssistant,
            ChatMessageSystem,
            ChatMessageUser,
            GenerateConfig,
            ResponseSchema,
        )
        from inspect_ai.util import JSONSchema

        kinds = {
            "system": ChatMessageSystem,
            "user": ChatMessageUser,
            "assistant": ChatMessageAssistant,
        }
        chat = [kinds[m["role"]](content=m["content"]) for m in messages]
        config: dict[str, Any] = {
            k: options[k] for k in ("max_tokens", "temperature", "seed") if k in options
        }
        if schema is not None:
            config["response_schema"] = ResponseSchema(
                name="reply",
                json_schema=JSONSchema.model_validate(inspect_schema(schema)),
                strict=False,
            )
        try:
            output = await self.inspect_model.generate(chat, config=GenerateConfig(**config))
        except Exception as exc:  # inspect_ai gave up after its own retries
            raise LLMError(f"{self.model}: {type(exc).__name__}: {exc}") from exc
        if output.error:
            raise LLMError(f"{self.model}: {output.error}")
        return Completion(
            output.completion,
            _usage(output.usage),
            output_form="response_schema" if schema is not None else "",
        )


def inspect_schema(schema: Any) -> Any:
    """``schema`` in the words of inspect_ai's ``JSONSchema``: ``const`` as a one-value
    ``enum``, ``oneOf`` as ``anyOf`` (keywords it lacks, such as ``minItems``, drop out)."""
    if isinstance(schema, list):
        return [inspect_schema(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "const":
            out["enum"] = [value]
        elif key == "oneOf":
            out["anyOf"] = inspect_schema(value)
        elif key == "properties" and isinstance(value, Mapping):
            out[key] = {name: inspect_schema(sub) for name, sub in value.items()}
        else:
            out[key] = inspect_schema(value)
    return out


def _usage(usage: Any) -> Usage:
    """duskfall's usage from inspect_ai's (whose ``input_tokens`` leave out cached ones)."""
    if usage is None:
        return Usage()
    read = int(usage.input_tokens_cache_read or 0)
    written = int(usage.input_tokens_cache_write or 0)
    return Usage(
        prompt_tokens=int(usage.input_tokens) + read + written,
        completion_tokens=int(usage.output_tokens),
        cost_usd=float(usage.total_cost or 0.0),
        cached_tokens=read,
        cache_write_tokens=written,
    )
