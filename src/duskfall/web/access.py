"""Who may see and do what.

* The admin token (printed when the server starts) opens every view and the controls: starting
  games, pausing and resuming them.
* A seat played in the browser has its own token, given when the seat is created; it opens
  that seat's view only.
* Games with a person or a remote client at a seat keep the god view and every seat view
  behind those tokens, so that a player never sees another seat's secrets. Games played by
  bots and models alone can be watched by anyone who can reach the server.

Tokens are compared in constant time, and registered with
:func:`~duskfall.core.redaction.register_secret` so that no page, log or console line shows one.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from duskfall.core.redaction import register_secret


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header (None without one)."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def new_token() -> str:
    """A fresh secret token (registered for redaction)."""
    token = secrets.token_urlsafe(24)
    register_secret(token)
    return token


def token_matches(given: str | None, expected: str | None) -> bool:
    if not given or not expected:
        return False
    return secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


@dataclass(frozen=True)
class Access:
    """The access rules, given the server's admin token."""

    admin_token: str = field(default_factory=new_token, repr=False)

    def __post_init__(self) -> None:
        register_secret(self.admin_token)

    def is_admin(self, token: str | None) -> bool:
        return token_matches(token, self.admin_token)

    def may_view(
        self,
        token: str | None,
        seat: int | None,
        *,
        protected: bool,
        seat_tokens: Mapping[int, str],
    ) -> bool:
        """Whether ``token`` opens the view of ``seat`` (None: the god view) of a game."""
        if self.is_admin(token):
            return True
        if seat is not None and seat in seat_tokens:
            return token_matches(token, seat_tokens[seat])
        return not protected

    def may_play(self, token: str | None, seat: int, seat_tokens: Mapping[int, str]) -> bool:
        """Only the seat's own token answers its decisions."""
        return token_matches(token, seat_tokens.get(seat))
