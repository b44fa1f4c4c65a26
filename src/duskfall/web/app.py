"""The FastAPI application: pages, the JSON API and the game WebSocket.

HTTP API (tokens go in ``Authorization: Bearer TOKEN``):

* ``GET /api/games``: live and finished games; ``POST /api/games``: start one (admin);
* ``GET /api/games/{id}?seat=N``: a view of a game (``seat`` omitted: the god view);
* ``POST /api/games/{id}/pause`` and ``/resume`` (admin);
* ``POST /api/games/{id}/seats/{seat}/action``: a human seat's answer (the seat's token);
* ``WS /api/games/{id}/ws``: send ``{"type": "hello", "seat": N|null, "token": ...}``, then
  receive a ``snapshot`` and, as the game goes on, ``event``, ``status`` and ``decision``
  messages for that view only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.datastructures import Headers
from starlette.routing import Match
from starlette.types import Scope

from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.rng import parse_seed
from duskfall.core.variant import parse_config
from duskfall.store.index import UnknownGame
from duskfall.web.access import Access
from duskfall.web.catalog import Catalog
from duskfall.web.feed import GameFeed
from duskfall.web.guard import DEFAULT_MAX_BODY, Guard, HostAllowList
from duskfall.web.hello import BadHello, parse_hello
from duskfall.web.hub import GameHub
from duskfall.web.human import StaleAnswer
from duskfall.web.live import GameRequest, LiveGame
from duskfall.web.tournaments import tournament_routes

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HELLO_TIMEOUT = 10.0


@dataclass
class WebSettings:
    """Where games are found and written, the admin token, the host names served beside
    loopback and the cap on request bodies (see :mod:`duskfall.web.guard`)."""

    games_dir: Path = Path("games")
    db: Path | None = None
    access: Access = field(default_factory=Access)
    allow_hosts: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY


class StartGame(BaseModel):
    variant: str = "sports-mafia"
    seed: int | str | None = None  # text too: 128-bit seeds do not survive a JavaScript number
    agents: str | None = None
    human_seats: list[int] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=dict)
    pace: float = Field(0.0, ge=0.0, le=30.0)


class SeatAnswer(BaseModel):
    request_id: int
    action: Any


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


AuthHeader = Annotated[str | None, Header()]


def variant_catalog() -> list[dict[str, Any]]:
    """The variants a game can be started with, their bots and their seat count."""
    out = []
    for vid in variant_ids():
        try:
            variant = get_variant(vid)
            bots = list(variant.bots())
            seats = variant.new_game(parse_config(variant, {}), 0).num_seats
        except Exception:  # a variant that does not load here is not offered
            continue
        default = "heuristic" if "heuristic" in bots else "random"
        out.append(
            {"id": vid, "name": variant.name, "bots": bots, "agents": default, "seats": seats}
        )
    return out


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web application over the games in ``settings``."""
    settings = settings or WebSettings()
    access = settings.access
    hub = GameHub(Catalog(settings.db, settings.games_dir))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await hub.close()

    app = FastAPI(title="duskfall", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(tournament_routes(settings.db))

    @app.exception_handler(DuskfallError)
    async def user_error(request: Any, exc: DuskfallError) -> JSONResponse:
        status = 404 if isinstance(exc, UnknownGame | LogCorrupt) else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    def live_game(game_id: str) -> LiveGame:
        game = hub.live.get(game_id)
        if game is None:
            raise HTTPException(404, f"game {game_id} is not running in this server")
        return game

    def seat_tokens(game_id: str) -> dict[int, str]:
        game = hub.live.get(game_id)
        return game.seat_tokens if game is not None else {}

    def require_admin(authorization: str | None) -> None:
        if not access.is_admin(_bearer(authorization)):
            raise HTTPException(403, "this needs the admin token printed by 'duskfall web'")

    def check_answer(game_id: str, seat: int | str, authorization: str | None) -> LiveGame:
        game = live_game(game_id)
        number = seat if isinstance(seat, int) else int(seat) if seat.isdigit() else -1
        if not access.may_play(_bearer(authorization), number, game.seat_tokens):
            raise HTTPException(403, f"answering for seat {seat} needs that seat's token")
        return game

    # the routes that read a body, and the check of their token they make first
    body_checks: dict[str, Callable[[dict[str, Any], str | None], object]] = {
        "start_game": lambda params, auth: require_admin(auth),
        "answer": lambda params, auth: check_answer(params["game_id"], params["seat"], auth),
    }

    def body_gate(scope: Scope) -> tuple[int, str] | None:
        """Refuse, before its body is read, a request its route would refuse for its token."""
        for route in app.router.routes:
            match, child = route.matches(scope)
            if match is not Match.FULL:
                continue
            check = body_checks.get(getattr(route, "name", ""))
            try:
                if check is not None:
                    check(child["path_params"], Headers(scope=scope).get("authorization"))
            except HTTPException as exc:
                return exc.status_code, str(exc.detail)
            return None
        return None

    app.add_middleware(
        Guard,
        hosts=HostAllowList.of(settings.allow_hosts),
        max_body=settings.max_body,
        gate=body_gate,
    )

    def check_view(game_id: str, feed: GameFeed, seat: int | None, token: str | None) -> None:
        if seat is not None and not 0 <= seat < feed.timeline.num_seats:
            raise HTTPException(404, f"no seat {seat}")
        if not access.may_view(
            token, seat, protected=feed.protected, seat_tokens=seat_tokens(game_id)
        ):
            what = "the god view" if seat is None else f"seat {seat}'s view"
            raise HTTPException(403, f"{what} of this game needs its token")

    def snapshot(game_id: str, feed: GameFeed, seat: int | None) -> dict[str, Any]:
        message = feed.snapshot(seat)
        game = hub.live.get(game_id)
        message["game"]["live"] = game is not None
        message["request"] = game.open_decision(seat) if game and seat is not None else None
        message["human_seats"] = sorted(game.humans) if game else []
        return message

    @app.get("/", include_in_schema=False)
    async def index_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/api/session")
    async def session(authorization: AuthHeader = None) -> dict[str, Any]:
        return {"admin": access.is_admin(_bearer(authorization))}

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return variant_catalog()

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return hub.list_games()

    @app.post("/api/games", status_code=201)
    async def start_game(body: StartGame, authorization: AuthHeader = None) -> dict[str, Any]:
        require_admin(authorization)
        variant = get_variant(body.variant)
        default = "heuristic" if "heuristic" in variant.bots() else "random"
        request = GameRequest(
            variant=variant.id,
            seed=None if body.seed is None else parse_seed(body.seed),
            agents=(body.agents or default).strip(),
            human_seats=body.human_seats,
            config=body.config,
            pace=body.pace,
        )
        game = await hub.start(request)
        url = f"/games/{game.game_id}"
        return {
            "game_id": game.game_id,
            "seed": str(game.game.header.seed),  # the admin's answer; seats see it at the end
            "url": url,
            "seats": {
                str(seat): {"token": token, "url": f"{url}?seat={seat}#token={token}"}
                for seat, token in game.seat_tokens.items()
            },
        }

    @app.get("/api/games/{game_id}")
    async def game_view(
        game_id: str,
        seat: Annotated[int | None, Query()] = None,
        authorization: AuthHeader = None,
    ) -> dict[str, Any]:
        feed = hub.feed(game_id)
        check_view(game_id, feed, seat, _bearer(authorization))
        return snapshot(game_id, feed, seat)

    @app.post("/api/games/{game_id}/pause")
    async def pause(game_id: str, authorization: AuthHeader = None) -> dict[str, str]:
        require_admin(authorization)
        game = live_game(game_id)
        game.pause()
        return {"status": game.feed.status}

    @app.post("/api/games/{game_id}/resume")
    async def resume(game_id: str, authorization: AuthHeader = None) -> dict[str, str]:
        require_admin(authorization)
        game = live_game(game_id)
        game.resume()
        return {"status": game.feed.status}

    @app.post("/api/games/{game_id}/seats/{seat}/action")
    async def answer(
        game_id: str, seat: int, body: SeatAnswer, authorization: AuthHeader = None
    ) -> dict[str, str]:
        game = check_answer(game_id, seat, authorization)
        try:
            game.humans[seat].answer(body.request_id, body.action)
        except StaleAnswer as exc:
            raise HTTPException(409, str(exc)) from None
        return {"status": "accepted"}

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await _refuse(websocket, f"no hello within {HELLO_TIMEOUT:g} s")
            return
        if message["type"] == "websocket.disconnect":
            return
        try:
            hello = parse_hello(message)
            seat = hello.seat
            feed = hub.feed(game_id)
            check_view(game_id, feed, seat, hello.token)
        except (BadHello, HTTPException, DuskfallError) as exc:
            await _refuse(websocket, exc.detail if isinstance(exc, HTTPException) else str(exc))
            return
        subscriber = feed.subscribe(seat)
        hub.follow(game_id)
        try:
            await websocket.send_json(snapshot(game_id, feed, seat))
            await _pump(websocket, subscriber.queue)
        finally:
            feed.unsubscribe(subscriber)

    return app


async def _refuse(websocket: WebSocket, message: str) -> None:
    """Tell the client why in an ``error`` message, then close the socket (1008)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=1008)


async def _pump(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Send queued messages until the page goes away; the page sends nothing after its
    hello, so a message from it is refused and closes the socket."""
    reader = asyncio.create_task(websocket.receive())
    try:
        while not reader.done():
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            await websocket.send_json(getter.result())
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            if (await reader)["type"] == "websocket.receive":
                await _refuse(websocket, "nothing is expected after the hello")
