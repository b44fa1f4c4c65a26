"""A secret in disguise, as an echoing model or a hostile client would say it: the forms that
redaction must mask (:mod:`duskfall.core.disguise`), shared by the tests and the hardening
probes.

:data:`DISGUISES` maps a name to how a key is said in that form; :func:`split_echo` is an echo
form of :class:`~duskfall.testing.stub_server.StubServer` that says the first half of the key in
one reply and the second half in the seat's next reply (it reads the seat's last reply in the
request's conversation).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from typing import Any

SAID = "my header is "
"""What every disguised form starts with: a log that holds it recorded the model's words."""


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


DISGUISES: dict[str, Callable[[str], str]] = {
    "base64": lambda key: base64.b64encode(key.encode()).decode(),
    "hex": lambda key: key.encode().hex(),
    "percent": lambda key: "".join(f"%{byte:02X}" for byte in key.encode()),
    "html entities": lambda key: "".join(f"&#{ord(c)};" for c in key),
    "upper case": str.upper,
    "reversed": lambda key: key[::-1],
    "spaced": " ".join,
    "full-width": _full_width,
    "zero-width-joined": "\u200b".join,
    "soft-hyphen-joined": "\u00ad".join,
    "bidi-joined": "\u2067".join,
    "without its sk- prefix": lambda key: key.removeprefix("sk-"),
    "dotted": ".".join,
}


def disguised(key: str) -> dict[str, str]:
    """Each form's text for ``key``."""
    return {name: form(key) for name, form in DISGUISES.items()}


def halves(key: str) -> tuple[str, str]:
    """The two halves of ``key`` a split echo says (each shorter than a matched run)."""
    middle = len(key) // 2
    return key[:middle], key[middle:]


def split_echo(key: str, request: Mapping[str, Any]) -> str:
    """The first half of ``key``, or the second if the seat's last reply said the first."""
    first, second = halves(key)
    replies = [m for m in request.get("messages") or [] if m.get("role") == "assistant"]
    last = str(replies[-1].get("content", "")) if replies else ""
    return f"{second} is the rest" if last.endswith(first) or f'{first}"' in last else SAID + first


def form_echoes() -> tuple[Callable[[str, Mapping[str, Any]], str], ...]:
    """Echo forms of :class:`~duskfall.testing.stub_server.StubServer`: each disguise in turn."""
    return tuple(_echo(form) for form in DISGUISES.values())


def _echo(form: Callable[[str], str]) -> Callable[[str, Mapping[str, Any]], str]:
    return lambda key, request: SAID + form(key)
