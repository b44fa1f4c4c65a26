"""Provider kinds, found by name: the built-in ones, those of the ``duskfall.providers``
entry-point group, and those given by :func:`register_provider`; with the facts their classes
declare (key variables, list prices). A provider's module (and its SDK) is imported only when
it is named, or when those facts are needed. Building a model from a spec is
:mod:`duskfall.llm.registry`'s.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points

from duskfall.core.redaction import register_secret_env
from duskfall.llm.config import LLMConfig
from duskfall.llm.errors import ModelSpecError
from duskfall.llm.prices import Price
from duskfall.llm.provider import Provider

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


def _register_key_variables() -> None:
    """Mask the values of every built-in provider's key variables from the start."""
    for name in BUILT_IN:
        provider_class(name)


_register_key_variables()
