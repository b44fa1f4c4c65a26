"""The one redaction function: secrets out of anything printed, logged, indexed or served.

:func:`redact` replaces, in any text (a model spec, a URL, a header dump, an error message):

* the userinfo of URLs (``http://user:KEY@host`` -> ``http://host``);
* the values of ``Authorization``, ``x-api-key`` and ``api-key`` headers, and ``Bearer ...``
  tokens;
* the value of every registered secret, wherever it appears.

Secrets are registered by the layer that knows them: the LLM layer registers API keys (from
the environment and the ``DUSKFALL_LLM_CONFIG`` file) with :func:`register_secret_env` and
:func:`register_secret`; the web app and the server register their admin and seat tokens (the
server forgets a game's seat tokens with :func:`forget_secret` once the game is over).
:func:`redact_value` applies :func:`redact` to every string inside JSON-like data.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping
from typing import Any

MASK = "***"
MIN_SECRET_LENGTH = 4  # shorter values would blank ordinary words

_URL_USERINFO = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s@?#]*@")
_HEADER_VALUE = re.compile(
    r"""(?ix)
    (["']?\b(?:proxy-)?(?:authorization|x-api-key|api[-_]key)["']?\s*[:=]\s*["']?)
    (?:(?:bearer|basic|token)\s+)?
    [^\s"',;}]+
    """
)
# a token has a digit or punctuation in it, so "the bearer of bad news" stays as it is
_BEARER = re.compile(r"(?i)\b(bearer|basic)(\s+)(?=[^\s]*[0-9._~+/=-])[A-Za-z0-9._~+/=:-]{6,}")

_lock = threading.Lock()
_secrets: set[str] = set()
_secret_envs: set[str] = set()
_pattern: re.Pattern[str] | None = None
_pattern_values: frozenset[str] = frozenset()


def register_secret(value: str | None) -> None:
    """Have :func:`redact` replace ``value`` wherever it appears (too short values are ignored)."""
    global _pattern
    if not value or len(value.strip()) < MIN_SECRET_LENGTH:
        return
    with _lock:
        if value not in _secrets:
            _secrets.add(value)
            _pattern = None


def forget_secret(value: str | None) -> None:
    """Stop masking ``value``: a secret whose use has ended (a finished game's seat token), so
    that a long-running server's list of secrets does not grow with every game it plays."""
    global _pattern
    with _lock:
        if value in _secrets:
            _secrets.discard(value)
            _pattern = None


def register_secret_env(*names: str) -> None:
    """Have :func:`redact` replace the values of these environment variables (read each time)."""
    with _lock:
        _secret_envs.update(names)


def forget_secrets() -> None:
    """Drop every registered value and variable name (for tests)."""
    global _pattern
    with _lock:
        _secrets.clear()
        _secret_envs.clear()
        _pattern = None


def _secret_pattern() -> re.Pattern[str] | None:
    """One alternation of every secret value, rebuilt only when the values change."""
    global _pattern, _pattern_values
    with _lock:
        values = set(_secrets)
        for name in _secret_envs:
            value = os.environ.get(name)
            if value and len(value.strip()) >= MIN_SECRET_LENGTH:
                values.add(value)
        if not values:
            return None
        if _pattern is None or _pattern_values != values:
            ordered = sorted(values, key=len, reverse=True)  # longest first: no partial leftovers
            _pattern = re.compile("|".join(re.escape(v) for v in ordered))
            _pattern_values = frozenset(values)
        return _pattern


def redact(text: str) -> str:
    """``text`` with URL credentials, auth header values, bearer tokens and known secrets masked."""
    if not text:
        return text
    pattern = _secret_pattern()
    if pattern is not None:
        text = pattern.sub(MASK, text)
    text = _URL_USERINFO.sub(r"\g<1>", text)
    text = _HEADER_VALUE.sub(rf"\g<1>{MASK}", text)
    return _BEARER.sub(rf"\g<1>\g<2>{MASK}", text)


def redact_value(value: Any) -> Any:
    """``value`` (JSON-like data) with :func:`redact` applied to every string in it.

    Data with nothing to mask comes back as the very same object (no copy, types kept); a
    container holding something masked comes back as a new dict or list.
    """
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        items = [
            (redact(k) if isinstance(k, str) else k, redact_value(v)) for k, v in value.items()
        ]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list | tuple):
        values = [redact_value(v) for v in value]
        if all(v is v0 for v, v0 in zip(values, value, strict=True)):
            return value
        return values
    return value
