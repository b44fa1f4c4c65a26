"""The FastAPI application: pages, the JSON API and the game WebSocket.

HTTP API (tokens go in ``Authorization: Bearer TOKEN``):

* ``GET /api/games``: live and finished games; ``POST /api/games``: start one (admin); a
  GM game is ``variant`` ``gm``, the card its ``preset``, the players' model spec its
  ``agents``, GM settings (``language``, ``gm_model``...) its ``config``;
* ``GET /api/games/{id}?seat=N``: a view of a game (``seat`` omitted: the god view);
* ``GET /api/games/{id}?seat=-1``: the public view (public events only; the roles once the
  game has ended), open to everyone, also for games with people;
* ``POST /api/games/{id}/pause``, ``/resume`` and ``/abort`` (admin; abort ends the game as
  aborted, recorded in its log); ``GET /api/games/{id}/seats``: the seat links again (admin);
* ``GET /api/stats``: win rates with 95% intervals, lengths, tokens and cost over the index;
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
from dataclasses import asdict, dataclass, field
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
from duskfall.gm.config import DEFAULT_CARD
from duskfall.store.index import LISTED_STATUSES, UnknownGame
from duskfall.store.search import GameQuery
from duskfall.web.access import Access, bearer
from duskfall.web.catalog import Catalog, shown_id
from duskfall.web.feed import PUBLIC_VIEW, GameFeed
from duskfall.web.gm_live import (
    DEFAULT_PLAYER_MODEL,
    GM_VARIANT,
    OPTIONS_HELP,
    GMRequest,
    card_seats,
)
from duskfall.web.guard import DEFAULT_MAX_BODY, Guard, HostAllowList
from duskfall.web.hello import BadHello, parse_hello
from duskfall.web.hosted import HostedGame
from duskfall.web.hub import GameHub
from duskfall.web.human import DEFAULT_HUMAN_TIMEOUT, MAX_HUMAN_TIMEOUT, StaleAnswer
from duskfall.web.lab import lab_routes
from duskfall.web.live import GameRequest
from duskfall.web.stats import statistics
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
    preset: str | None = None
    human_seats: list[int] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=dict)
    pace: float = Field(0.0, ge=0.0, le=30.0)
    human_timeout: float = Field(DEFAULT_HUMAN_TIMEOUT, ge=10.0, le=MAX_HUMAN_TIMEOUT)


class SeatAnswer(BaseModel):
    request_id: int
    action: Any


AuthHeader = Annotated[str | None, Header()]


MODEL_AGENTS = ("llm:local", "cognitive:local")


def _seat_count(variant: Any, config: dict[str, Any]) -> int:
    return int(variant.new_game(parse_config(variant, config), 0).num_seats)


def variant_catalog() -> list[dict[str, Any]]:
    """The variants a game can be started with: their agents (bots, then model agents), their
    presets and the seats of each (``""``: the variant's default set-up)."""
    out = []
    for vid in variant_ids():
        try:
            variant = get_variant(vid)
            bots = list(variant.bots())
            presets = {"": _seat_count(variant, {})}
            for name in variant.info.presets:
                presets[name] = _seat_count(variant, {"preset": name})
        except Exception:  # a variant that does not load here is not offered
            continue
        default = "heuristic" if "heuristic" in bots else "random"
        out.append(
            {
                "id": vid,
                "name": variant.name,
                "bots": bots,
                "agent_choices": [*bots, *MODEL_AGENTS],
                "teams": list(variant.teams),
                "agents": default,
                "seats": presets[""],
                "presets": presets,
            }
        )
    return [*out, gm_catalog_entry()]


def gm_catalog_entry() -> dict[str, Any]:
    """GM games: the card is the preset, the agents are the players' model spec, and the
    options are GM settings (``language``, ``gm_model``, ``max_steps``...)."""
    cards = card_seats()
    return {
        "id": GM_VARIANT,
        "name": "Game master (an LLM referees a rule card)",
        "bots": [],
        "agent_choices": ["local", "scripted", "openai:MODEL", "anthropic:MODEL"],
        "teams": [],
        "agents": DEFAULT_PLAYER_MODEL,
        "seats": next(iter(cards.values())),
        "presets": cards,
        "options_help": OPTIONS_HELP,
    }


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
    app.include_router(tournament_routes(settings.db))  # first: it serves /static/report.css
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(DuskfallError)
    async def user_error(request: Any, exc: DuskfallError) -> JSONResponse:
        status = 404 if isinstance(exc, UnknownGame | LogCorrupt) else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    def live_game(game_id: str) -> HostedGame:
        game = hub.live.get(game_id)
        if game is None:
            raise HTTPException(404, f"game {shown_id(game_id)} is not running in this server")
        return game

    def seat_tokens(game_id: str) -> dict[int, str]:
        game = hub.live.get(game_id)
        return game.seat_tokens if game is not None else {}

    def require_admin(authorization: str | None) -> None:
        if not access.is_admin(bearer(authorization)):
            raise HTTPException(403, "this needs the admin token printed by 'duskfall web'")

    def check_answer(game_id: str, seat: int | str, authorization: str | None) -> HostedGame:
        game = live_game(game_id)
        number = seat if isinstance(seat, int) else int(seat) if seat.isdigit() else -1
        if not access.may_play(bearer(authorization), number, game.seat_tokens):
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
        if seat == PUBLIC_VIEW:
            return  # public events only: anyone may follow them
        if seat is not None and not 0 <= seat < feed.timeline.num_seats:
            raise HTTPException(404, f"no seat {seat}")
        if not access.may_view(
            token, seat, protected=feed.protected, seat_tokens=seat_tokens(game_id)
        ):
            what = "the god view" if seat is None else f"seat {seat}'s view"
            raise HTTPException(403, f"{what} of this game needs its token")

    app.include_router(lab_routes(hub, check_view, settings.db))

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

    @app.get("/stats", include_in_schema=False)
    async def stats_page() -> FileResponse:
        return FileResponse(STATIC / "stats.html")

    @app.get("/api/stats")
    async def stats() -> dict[str, Any]:
        return await asyncio.to_thread(statistics, settings.db)

    @app.get("/api/session")
    async def session(authorization: AuthHeader = None) -> dict[str, Any]:
        return {"admin": access.is_admin(bearer(authorization))}

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return variant_catalog()

    @app.get("/api/games")
    async def games(
        variant: str | None = None,
        status: str | None = None,
        agent: str | None = None,
        tournament: str | None = None,
        source: str | None = None,
        q: str | None = None,
        sort: str = "started_at",
        order: str = "desc",
        limit: int = 50,
        offset: int = 0,
    ) -> dict[str, Any]:
        """A page of the game list: filtered, sorted and paged by the server (a bad
        parameter: 400 with one line saying what is wrong)."""
        if order not in ("asc", "desc"):
            raise HTTPException(400, f"order is asc or desc, not {order!r}")
        query = GameQuery(variant, status, agent, tournament, source, q, sort,  # type: ignore[arg-type]
                          order == "desc", limit, offset)  # fmt: skip
        query.check()
        page = await hub.page(query)
        return {
            "games": page.games,
            "total": page.total,
            "offset": offset,
            "limit": limit,
            "sort": sort,
            "order": order,
            "facets": {"statuses": list(LISTED_STATUSES), **asdict(page.facets)},
        }

    @app.post("/api/games", status_code=201)
    async def start_game(body: StartGame, authorization: AuthHeader = None) -> dict[str, Any]:
        require_admin(authorization)
        game = await hub.start(game_request(body))
        return {
            "game_id": game.game_id,
            "seed": str(game.header.seed),  # the admin's answer; seats see it at the end
            "url": f"/games/{game.game_id}",
            "seats": seat_links(game),
        }

    def game_request(body: StartGame) -> GameRequest | GMRequest:
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

    @app.get("/api/games/{game_id}/seats")
    async def seats(game_id: str, authorization: AuthHeader = None) -> dict[str, Any]:
        require_admin(authorization)
        return seat_links(live_game(game_id))

    @app.post("/api/games/{game_id}/abort")
    async def abort(game_id: str, authorization: AuthHeader = None) -> dict[str, str]:
        require_admin(authorization)
        game = live_game(game_id)
        await game.abort("stopped by the admin")
        return {"status": game.feed.status}

    @app.get("/api/games/{game_id}")
    async def game_view(
        game_id: str,
        seat: Annotated[int | None, Query()] = None,
        authorization: AuthHeader = None,
    ) -> dict[str, Any]:
        feed = hub.feed(game_id)
        check_view(game_id, feed, seat, bearer(authorization))
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
