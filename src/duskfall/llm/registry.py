"""Model specs (``local``, ``local:PATH.gguf``, ``openai:MODEL[@BASE_URL]``, ``anthropic:MODEL``,
``scripted``) and the providers they name.

Providers are found by name: the built-in ones, those of the ``duskfall.providers``
entry-point group (a package adds one without editing duskfall, as variants do)::

    [project.entry-points."duskfall.providers"]
    my-api = "my_package.provider:MyProvider"      # a duskfall.llm.Provider subclass

and those given by :func:`register_provider`. A provider's module (and its SDK) is imported
only when a spec names it, or when its declared facts are needed (key variables, prices).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import cast

from duskfall.core.redaction import redact, register_secret_env
from duskfall.llm.config import LLMConfig, load_config
from duskfall.llm.errors import ModelSpecError
from duskfall.llm.model import Model
from duskfall.llm.prices import Price
from duskfall.llm.provider import Provider
from duskfall.llm.retry import RetryPolicy

ENTRY_POINT_GROUP = "duskfall.providers"

ProviderFactory = Callable[[str, LLMConfig], Provider]
Target = str | type[Provider] | ProviderFactory

BUILT_IN: dict[str, str] = {
    "local": "duskfall.llm.providers.local:LocalProvider",
    "openai": "duskfall.llm.providers.openai_compat:OpenAIProvider",
    "anthropic": "duskfall.llm.providers.anthropic_api:AnthropicProvider",
    "scripted": "duskfall.llm.providers.scripted:ScriptedProvider",
}
_EXAMPLES = "local, local:/path/model.gguf, openai:gpt-4o-mini, openai:MODEL@URL, anthropic:MODEL"

_REGISTERED: dict[str, Target] = {}
_LOADED: dict[str, type[Provider] | ProviderFactory] = {}


def register_provider(name: str, target: Target) -> None:
    """Add a provider kind: a :class:`Provider` subclass, a factory ``(arg, config) ->
    Provider``, or ``"module:attribute"`` naming either."""
    _REGISTERED[name] = target
    _LOADED.pop(name, None)


def _targets() -> dict[str, Target]:
    found: dict[str, Target] = dict(BUILT_IN)
    found.update({ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)})
    found.update(_REGISTERED)
    return found


def provider_names() -> list[str]:
    """Names of the known provider kinds (the model spec's prefix)."""
    return list(_targets())


def _load(name: str) -> type[Provider] | ProviderFactory:
    loaded = _LOADED.get(name)
    if loaded is not None:
        return loaded
    target = _targets().get(name)
    if target is None:
        raise ModelSpecError(f"unknown model provider {name!r}; examples: {_EXAMPLES}")
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        try:
            target = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise ModelSpecError(
                f"provider {name!r} cannot be loaded from {target}: {exc}"
            ) from None
    assert not isinstance(target, str) and callable(target)
    if isinstance(target, type) and issubclass(target, Provider):
        register_secret_env(*target.key_env)
    _LOADED[name] = target
    return target


def provider_class(name: str) -> type[Provider] | None:
    """The :class:`Provider` subclass registered as ``name`` (None for a bare factory)."""
    target = _load(name)
    return target if isinstance(target, type) and issubclass(target, Provider) else None


def _build(name: str, arg: str, config: LLMConfig) -> Provider:
    target = _load(name)
    if isinstance(target, type) and issubclass(target, Provider):
        return target.from_spec(arg, config)
    factory = cast(ProviderFactory, target)
    return factory(arg, config)


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
    provider = _build(kind, arg.strip(), load_config(config_path))
    return Model(
        provider,
        spec=public_spec(spec),
        retry=retry,
        timeout=timeout or provider.default_timeout,
        concurrency=concurrency,
        fold_system=fold_system,
    )


def key_variables(name: str) -> tuple[str, ...]:
    """The environment variables provider ``name`` reads its API key from (none if unknown)."""
    try:
        cls = provider_class(name)
    except ModelSpecError:
        return ()
    return cls.key_env if cls is not None else ()


def declared_prices(name: str) -> Mapping[str, Price]:
    """The list prices the known providers declare, ``name``'s own winning a clash: a model's
    list price is the same wherever it is served (an OpenAI-compatible endpoint of another
    vendor, say)."""
    prices: dict[str, Price] = {}
    for other in [n for n in BUILT_IN if n != name] + [name]:
        try:
            cls = provider_class(other)
        except ModelSpecError:
            continue
        if cls is not None:
            prices.update(cls.prices)
    return prices


def public_spec(spec: str) -> str:
    """``spec`` as it may be shown: credentials of a base URL and known keys masked."""
    return redact(spec)


def _register_key_variables() -> None:
    """Mask the values of every built-in provider's key variables from the start."""
    for name in BUILT_IN:
        provider_class(name)


_register_key_variables()
