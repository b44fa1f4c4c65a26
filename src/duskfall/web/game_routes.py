"""One game over the JSON API: start it (admin), view it, pause, resume or abort it (admin),
its seat links again (admin), and a person's answer for a seat (that seat's token)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from duskfall.core.registry import get_variant
from duskfall.core.rng import parse_seed
from duskfall.gm.config import DEFAULT_CARD
from duskfall.web.access import bearer
from duskfall.web.gates import Gates
from duskfall.web.gm_live import DEFAULT_PLAYER_MODEL, GM_VARIANT, GMRequest
from duskfall.web.hosted import HostedGame
from duskfall.web.human import DEFAULT_HUMAN_TIMEOUT, MAX_HUMAN_TIMEOUT, StaleAnswer
from duskfall.web.live import GameRequest

AuthHeader = Annotated[str | None, Header()]


class StartGame(BaseModel):
    variant: str = "sports-mafia"
    seed: int | str | None = None  # text too: 128-bit seeds do not survive a JavaScript number
    agents: str | None = None
    preset: str | None = None
    human_seats: list[int] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=dict)
    pace: float = Field(0.0, ge=0.0, le=30.0)
    human_timeout: float = Field(DEFAULT_HUMAN_TIMEOUT, ge=10.0, le=MAX_HUMAN_TIMEOUT)


class SeatAnswer(BaseModel):
    request_id: int
    action: Any


def game_request(body: StartGame) -> GameRequest | GMRequest:
    """What the hub starts for a start request (a GM game for the ``gm`` variant)."""
    seed = None if body.seed is None else parse_seed(body.seed)
    if body.variant == GM_VARIANT:
        return GMRequest(
            card=body.preset or DEFAULT_CARD,
            players_model=(body.agents or DEFAULT_PLAYER_MODEL).strip(),
            human_seats=body.human_seats,
            options=body.config,
            seed=seed,
            human_timeout=body.human_timeout,
            pace=body.pace,
        )
    variant = get_variant(body.variant)
    default = "heuristic" if "heuristic" in variant.bots() else "random"
    config = dict(body.config)
    if body.preset:
        config["preset"] = body.preset
    return GameRequest(
        variant=variant.id,
        seed=seed,
        agents=(body.agents or default).strip(),
        human_seats=body.human_seats,
        config=config,
        pace=body.pace,
        human_timeout=body.human_timeout,
    )


def seat_links(game: HostedGame) -> dict[str, dict[str, str]]:
    url = f"/games/{game.game_id}"
    return {
        str(seat): {"token": token, "url": f"{url}?seat={seat}#token={token}"}
        for seat, token in game.seat_tokens.items()
    }


def game_routes(gates: Gates) -> APIRouter:
    """``/api/games`` (start), ``/api/games/{id}`` and its ``seats``, ``pause``, ``resume``,
    ``abort`` and ``seats/{seat}/action``; the routes that read a body register the check of
    their token in ``gates.body_checks``."""
    router = APIRouter()
    hub = gates.hub

    @router.post("/api/games", status_code=201)
    async def start_game(body: StartGame, authorization: AuthHeader = None) -> dict[str, Any]:
        gates.require_admin(authorization)
        game = await hub.start(game_request(body))
        return {
            "game_id": game.game_id,
            "seed": str(game.header.seed),  # the admin's answer; seats see it at the end
            "url": f"/games/{game.game_id}",
            "seats": seat_links(game),
        }

    @router.get("/api/games/{game_id}/seats")
    async def seats(game_id: str, authorization: AuthHeader = None) -> dict[str, Any]:
        return seat_links(gates.admin_game(game_id, authorization))

    @router.post("/api/games/{game_id}/abort")
    async def abort(game_id: str, authorization: AuthHeader = None) -> dict[str, str]:
        game = gates.admin_game(game_id, authorization)
        await game.abort("stopped by the admin")
        return {"status": game.feed.status}

    @router.get("/api/games/{game_id}")
    async def game_view(
        game_id: str,
        seat: Annotated[int | None, Query()] = None,
        authorization: AuthHeader = None,
    ) -> dict[str, Any]:
        feed = hub.feed(game_id)
        gates.check_view(game_id, feed, seat, bearer(authorization))
        return gates.snapshot(game_id, feed, seat)

    @router.post("/api/games/{game_id}/pause")
    async def pause(game_id: str, authorization: AuthHeader = None) -> dict[str, str]:
        game = gates.admin_game(game_id, authorization)
        game.pause()
        return {"status": game.feed.status}

    @router.post("/api/games/{game_id}/resume")
    async def resume(game_id: str, authorization: AuthHeader = None) -> dict[str, str]:
        game = gates.admin_game(game_id, authorization)
        game.resume()
        return {"status": game.feed.status}

    @router.post("/api/games/{game_id}/seats/{seat}/action")
    async def answer(
        game_id: str, seat: int, body: SeatAnswer, authorization: AuthHeader = None
    ) -> dict[str, str]:
        game = gates.check_answer(game_id, seat, authorization)
        try:
            game.humans[seat].answer(body.request_id, body.action)
        except StaleAnswer as exc:
            raise HTTPException(409, str(exc)) from None
        return {"status": "accepted"}

    for route in router.routes:  # the two that read a body: their token is checked first
        if isinstance(route, APIRoute) and route.name == "start_game":
            gates.check_body(route, lambda params, auth: gates.require_admin(auth))
        elif isinstance(route, APIRoute) and route.name == "answer":
            gates.check_body(
                route, lambda p, auth: gates.check_answer(p["game_id"], p["seat"], auth)
            )
    return router
