"""Model specs (``local``, ``local:PATH.gguf``, ``openai:MODEL[@BASE_URL]``, ``anthropic:MODEL``,
``scripted``) and the providers they name.

Providers are found by name: the built-in ones, those of the ``duskfall.providers``
entry-point group (a package adds one without editing duskfall, as variants do)::

    [project.entry-points."duskfall.providers"]
    my-api = "my_package.provider:MyProvider"      # a duskfall.llm.Provider subclass

and those given by :func:`~duskfall.llm.provider_kinds.register_provider`
(:mod:`duskfall.llm.provider_kinds` finds them). A provider's module (and its SDK) is imported
only when a spec names it, or when its declared facts are needed (key variables, prices).
"""

from __future__ import annotations

import os
from typing import cast

from duskfall.core.redaction import redact
from duskfall.llm.config import LLMConfig, load_config
from duskfall.llm.model import Model
from duskfall.llm.provider import Provider
from duskfall.llm.provider_kinds import ProviderFactory, _load
from duskfall.llm.retry import RetryPolicy


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


def public_spec(spec: str) -> str:
    """``spec`` as it may be shown: credentials of a base URL and known keys masked."""
    return redact(spec)
