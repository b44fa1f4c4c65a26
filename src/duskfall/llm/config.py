"""Where API keys and defaults come from: the environment, or a TOML file the user points to.

Keys are read from the provider's key variables first (``OPENAI_API_KEY``,
``ANTHROPIC_API_KEY``: each provider declares its own, ``Provider.key_env``), then from the
file named by ``DUSKFALL_LLM_CONFIG`` (or passed as ``config_path``)::

    [openai]
    api_key = "sk-..."
    base_url = "https://openrouter.ai/api/v1"   # optional default endpoint

    [anthropic]
    api_key = "sk-ant-..."

    [prices]                       # USD per million tokens: [input, output(, cached input)]
    "openai:my-finetune" = [0.30, 1.20]

A key is held in a :class:`Secret`, whose ``repr`` and ``str`` never show it; every key (the
environment's, the file's) is also registered with :func:`duskfall.core.redaction.redact`, so
its value is masked in any text that is printed, logged, indexed or served.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.redaction import register_secret, register_secret_env
from duskfall.core.user_files import read_user_text
from duskfall.llm.prices import register_price

CONFIG_ENV = "DUSKFALL_LLM_CONFIG"


class Secret:
    """A string that does not print itself."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value
        register_secret(value)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__


@dataclass
class LLMConfig:
    """Per-provider settings (``api_key`` as a :class:`Secret`, ``base_url``...)."""

    providers: dict[str, dict[str, Any]] = field(default_factory=dict)

    def api_key(self, provider: str, env: Sequence[str]) -> Secret | None:
        """The key of ``provider``: from the first of its key variables that is set (``env``:
        the ones the provider declares, ``Provider.key_env``), else from the file's
        ``[provider]`` table."""
        register_secret_env(*env)
        value = next((os.environ[name] for name in env if os.environ.get(name)), None)
        if not value:
            value = self.providers.get(provider, {}).get("api_key")
        return Secret(value) if value else None

    def get(self, provider: str, key: str, default: Any = None) -> Any:
        return self.providers.get(provider, {}).get(key, default)

    def context_tokens(self, provider: str) -> int | None:
        """The context window set for ``provider`` (``context_tokens = N``), or None."""
        value = self.get(provider, "context_tokens")
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"[{provider}] context_tokens must be a positive integer")
        return value


def load_config(path: str | os.PathLike[str] | None = None) -> LLMConfig:
    """Read the config file (``path``, else ``$DUSKFALL_LLM_CONFIG``, else none)."""
    path = path or os.environ.get(CONFIG_ENV)
    if not path:
        return LLMConfig()
    file = Path(path)
    if not file.exists():
        raise ConfigError(f"LLM config file {file} does not exist; fix {CONFIG_ENV}")
    text = read_user_text(file, "LLM config file")  # no FIFO, no /dev/zero, no huge file
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
        reason = "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise ConfigError(f"LLM config file {file} is not valid TOML: {reason}") from None
    prices = data.pop("prices", {})
    if not isinstance(prices, dict):
        raise ConfigError(f"{file}: [prices] must be a table of model = [input, output]")
    for model, price in prices.items():
        numbers = isinstance(price, list) and all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in price
        )
        if not (numbers and 2 <= len(price) <= 4):
            raise ConfigError(
                f"{file}: price of {model!r} must be [input, output] per 1M tokens, "
                "optionally followed by cached input and cache write"
            )
        register_price(model, *(float(value) for value in price))
    providers = {k: v for k, v in data.items() if isinstance(v, dict)}
    for settings in providers.values():
        key = settings.get("api_key")
        if isinstance(key, str):
            register_secret(key)
    return LLMConfig(providers)
