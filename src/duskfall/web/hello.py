"""The first message of a game WebSocket: ``{"type": "hello", "seat": N|null, "token": ...}``.

:func:`parse_hello` takes the raw ASGI message and either returns the :class:`Hello` or raises
:class:`BadHello` with one line for the client; nothing a client sends raises anything else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

EXPECTED = '{"type": "hello", "seat": N or null, "token": "..." or null}'


class BadHello(ValueError):
    """A hello the server cannot use; the message says what was expected."""


@dataclass(frozen=True)
class Hello:
    seat: int | None
    token: str | None


def parse_hello(message: Mapping[str, Any]) -> Hello:
    """The hello in a ``websocket.receive`` message; raises :class:`BadHello`."""
    text = message.get("text")
    if not isinstance(text, str):
        raise BadHello(f"the hello must be a JSON text message: {EXPECTED}")
    try:
        hello = json.loads(text)
    except (ValueError, RecursionError):
        raise BadHello(f"the hello is not valid JSON; send {EXPECTED}") from None
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        raise BadHello(f"the first message must be a hello: {EXPECTED}")
    seat = hello.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadHello("seat must be an integer or null")
    token = hello.get("token")
    if token is not None and not isinstance(token, str):
        raise BadHello("token must be a string or null")
    return Hello(seat, token)
