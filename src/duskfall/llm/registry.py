"""Model specs: ``local``, ``local:PATH.gguf``, ``openai:MODEL[@BASE_URL]``, ``anthropic:MODEL``,
``scripted``. Provider modules (and their SDKs) are imported only when a spec names them.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable

from duskfall.core.redaction import redact
from duskfall.llm.config import LLMConfig, load_config
from duskfall.llm.errors import ModelSpecError
from duskfall.llm.model import Model
from duskfall.llm.provider import Provider
from duskfall.llm.retry import RetryPolicy

ProviderFactory = Callable[[str, LLMConfig], Provider]

_PROVIDERS: dict[str, str | ProviderFactory] = {
    "local": "duskfall.llm.providers.local:from_spec",
    "openai": "duskfall.llm.providers.openai_compat:from_spec",
    "anthropic": "duskfall.llm.providers.anthropic_api:from_spec",
    "scripted": "duskfall.llm.providers.scripted:from_spec",
}
_EXAMPLES = "local, local:/path/model.gguf, openai:gpt-4o-mini, openai:MODEL@URL, anthropic:MODEL"


def register_provider(name: str, factory: str | ProviderFactory) -> None:
    """Add a provider kind; ``factory(arg, config) -> Provider`` or ``"module:callable"``."""
    _PROVIDERS[name] = factory


def provider_names() -> list[str]:
    return list(_PROVIDERS)


def get_model(
    spec: str = "local",
    *,
    config_path: str | os.PathLike[str] | None = None,
    retry: RetryPolicy | None = None,
    timeout: float | None = None,
    concurrency: int | None = None,
    fold_system: bool = False,
) -> Model:
    """Build the :class:`Model` named by ``spec``; a bad spec raises one clear ModelSpecError.

    ``fold_system`` sends the system prompt as part of the first user turn (for servers whose
    chat template has no system role).
    """
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    factory = _PROVIDERS.get(kind)
    if factory is None:
        raise ModelSpecError(f"unknown model provider {kind!r} in {spec!r}; examples: {_EXAMPLES}")
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        _PROVIDERS[kind] = factory
    assert callable(factory)
    provider = factory(arg.strip(), load_config(config_path))
    default_timeout = float(getattr(provider, "default_timeout", 60.0))
    return Model(
        provider,
        spec=public_spec(spec),
        retry=retry,
        timeout=timeout or default_timeout,
        concurrency=concurrency,
        fold_system=fold_system,
    )


def public_spec(spec: str) -> str:
    """``spec`` as it may be shown: credentials of a base URL and known keys masked."""
    return redact(spec)
