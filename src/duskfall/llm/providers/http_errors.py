"""Helpers shared by the HTTP providers: reading SDK errors, telling keys apart."""

from __future__ import annotations

import hashlib
from typing import Any


def key_digest(key: str) -> str:
    """A short digest that tells keys apart without holding them (for cache keys)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def retry_after(exc: Any) -> float | None:
    """Seconds from the ``Retry-After`` header of an SDK error's response, if any."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def error_message(exc: Any, limit: int = 200) -> str:
    """The most useful line of an SDK error (the server's message where it sent one)."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error")
        detail = inner.get("message") if isinstance(inner, dict) else inner
        detail = detail or body.get("message") or body.get("detail")
        if detail:
            return str(detail)[:limit]
    return str(getattr(exc, "message", exc))[:limit]
