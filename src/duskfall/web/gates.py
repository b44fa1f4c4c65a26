"""Who may do what on the web app, and the lookups every route shares: the running game, its
seat tokens, the admin check, a seat's right to answer or to a view, a view's snapshot.

:class:`Gates` is made once per app and handed to the routers; :meth:`Gates.body_gate` refuses
a request whose route would refuse its token before its body is read (see
:mod:`duskfall.web.guard`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import HTTPException
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.routing import Match
from starlette.types import Scope

from duskfall.web.access import Access, bearer
from duskfall.web.catalog import shown_id
from duskfall.web.feed import PUBLIC_VIEW, GameFeed
from duskfall.web.hosted import HostedGame
from duskfall.web.hub import GameHub

BodyCheck = Callable[[dict[str, Any], str | None], object]


class Gates:
    """The checks and lookups of one app (``access``: its tokens; ``hub``: its games)."""

    def __init__(self, access: Access, hub: GameHub) -> None:
        self.access = access
        self.hub = hub
        # the routes that read a body, and the check of their token (by path parameters)
        self.body_checks: list[tuple[APIRoute, BodyCheck]] = []

    def check_body(self, route: APIRoute, check: BodyCheck) -> None:
        """Check a request to ``route`` with ``check`` before its body is read."""
        self.body_checks.append((route, check))

    def live_game(self, game_id: str) -> HostedGame:
        game = self.hub.live.get(game_id)
        if game is None:
            raise HTTPException(404, f"game {shown_id(game_id)} is not running in this server")
        return game

    def seat_tokens(self, game_id: str) -> dict[int, str]:
        game = self.hub.live.get(game_id)
        return game.seat_tokens if game is not None else {}

    def require_admin(self, authorization: str | None) -> None:
        if not self.access.is_admin(bearer(authorization)):
            raise HTTPException(403, "this needs the admin token printed by 'duskfall web'")

    def admin_game(self, game_id: str, authorization: str | None) -> HostedGame:
        """The live game ``game_id``, for the admin only (403 otherwise, 404 if not running)."""
        self.require_admin(authorization)
        return self.live_game(game_id)

    def check_answer(self, game_id: str, seat: int | str, authorization: str | None) -> HostedGame:
        game = self.live_game(game_id)
        number = seat if isinstance(seat, int) else int(seat) if seat.isdigit() else -1
        if not self.access.may_play(bearer(authorization), number, game.seat_tokens):
            raise HTTPException(403, f"answering for seat {seat} needs that seat's token")
        return game

    def check_view(self, game_id: str, feed: GameFeed, seat: int | None, token: str | None) -> None:
        if seat == PUBLIC_VIEW:
            return  # public events only: anyone may follow them
        if seat is not None and not 0 <= seat < feed.timeline.num_seats:
            raise HTTPException(404, f"no seat {seat}")
        if not self.access.may_view(
            token, seat, protected=feed.protected, seat_tokens=self.seat_tokens(game_id)
        ):
            what = "the god view" if seat is None else f"seat {seat}'s view"
            raise HTTPException(403, f"{what} of this game needs its token")

    def snapshot(self, game_id: str, feed: GameFeed, seat: int | None) -> dict[str, Any]:
        message = feed.snapshot(seat)
        game = self.hub.live.get(game_id)
        message["game"]["live"] = game is not None
        message["request"] = game.open_decision(seat) if game and seat is not None else None
        message["human_seats"] = sorted(game.humans) if game else []
        return message

    def body_gate(self, scope: Scope) -> tuple[int, str] | None:
        """The guard's gate: refuse, before its body is read, a request its route would
        refuse for its token."""
        for route, check in self.body_checks:
            match, child = route.matches(scope)
            if match is not Match.FULL:
                continue
            try:
                check(child["path_params"], Headers(scope=scope).get("authorization"))
            except HTTPException as exc:
                return exc.status_code, str(exc.detail)
            return None
        return None
