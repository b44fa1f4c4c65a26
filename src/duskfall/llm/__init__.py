"""The LLM layer: a :class:`Model` (retries, concurrency limit, timeouts, usage and cost) over
providers resolved lazily from a spec string by :func:`get_model`.

>>> model = get_model("scripted")
>>> # reply = await model.complete([{"role": "user", "content": "hi"}], options=CallOptions())
"""

from duskfall.llm.calls import CallRecord
from duskfall.llm.config import LLMConfig, Secret, load_config
from duskfall.llm.errors import (
    CallTimeout,
    LLMError,
    ModelSpecError,
    ProviderUnavailable,
    RateLimited,
    ScriptExhausted,
    TransientError,
)
from duskfall.llm.model import Model, RetriesExhausted
from duskfall.llm.prices import Price, register_price
from duskfall.llm.pricing import price_of
from duskfall.llm.provider import Provider
from duskfall.llm.provider_kinds import provider_names, register_provider
from duskfall.llm.providers.scripted import ScriptedProvider
from duskfall.llm.registry import get_model
from duskfall.llm.retry import RetryPolicy
from duskfall.llm.types import CallOptions, Completion, Message, Request, Usage

__all__ = [
    "CallOptions",
    "CallRecord",
    "CallTimeout",
    "Completion",
    "LLMConfig",
    "LLMError",
    "Message",
    "Model",
    "ModelSpecError",
    "Price",
    "Provider",
    "ProviderUnavailable",
    "RateLimited",
    "Request",
    "RetriesExhausted",
    "RetryPolicy",
    "ScriptExhausted",
    "ScriptedProvider",
    "Secret",
    "TransientError",
    "Usage",
    "get_model",
    "load_config",
    "price_of",
    "provider_names",
    "register_price",
    "register_provider",
]
