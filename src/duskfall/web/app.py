"""The FastAPI application: pages, the JSON API and the game WebSocket, put together from
routers by concern (:mod:`.site_routes`: pages and the site's lists; :mod:`.game_routes`: one
game; :mod:`.socket_routes`: its WebSocket; :mod:`.tournaments`; :mod:`.lab`), behind the
guard (:mod:`.guard`) and the checks of :class:`~duskfall.web.gates.Gates`.

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
* ``GET /api/games/{id}/log?seat=N``: the log as that view may see it (:mod:`.download`);
* ``GET /api/games/{id}/moments``: the god view's key moments (:mod:`.lab`, :mod:`.moments`);
* ``POST /api/games/{id}/fork``: explore from a moment (admin, :mod:`.explore`);
* ``WS /api/games/{id}/ws``: send ``{"type": "hello", "seat": N|null, "token": ...}``, then
  receive a ``snapshot`` and, as the game goes on, ``event``, ``status`` and ``decision``
  messages for that view only.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.store.index import UnknownGame
from duskfall.web.access import Access
from duskfall.web.arena_missing import tournament_pages
from duskfall.web.catalog import Catalog
from duskfall.web.download import download_routes
from duskfall.web.explore import explore_routes
from duskfall.web.game_routes import StartGame as StartGame
from duskfall.web.game_routes import game_routes
from duskfall.web.gates import Gates
from duskfall.web.guard import DEFAULT_MAX_BODY, Guard, HostAllowList
from duskfall.web.hub import GameHub
from duskfall.web.lab import lab_routes
from duskfall.web.moments import DEFAULT_ROLLOUTS, KeyMoments
from duskfall.web.site_routes import STATIC, site_routes
from duskfall.web.site_routes import variant_catalog as variant_catalog
from duskfall.web.socket_routes import DEFAULT_SOCKETS_PER_CLIENT, socket_routes


@dataclass
class WebSettings:
    """Where games are found and written, the admin token, the host names served beside
        loopback, the cap on request bodies (see :mod:`duskfall.web.guard`) and on the game
        sockets one client address may hold open (:mod:`duskfall.web.socket_routes`), and the
    rollouts per point of the win lines computed ahead (:mod:`duskfall.web.moments`)."""

    games_dir: Path = Path("games")
    db: Path | None = None
    access: Access = field(default_factory=Access)
    allow_hosts: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY
    max_sockets_per_client: int = DEFAULT_SOCKETS_PER_CLIENT
    line_rollouts: int = DEFAULT_ROLLOUTS


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web application over the games in ``settings``."""
    settings = settings or WebSettings()
    catalog = Catalog(settings.db, settings.games_dir)
    hub = GameHub(catalog, KeyMoments(settings.games_dir, settings.line_rollouts))
    gates = Gates(settings.access, hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await hub.close()

    app = FastAPI(title="duskfall", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.settings = settings
    app.include_router(tournament_pages(settings.db))  # first: it serves /static/report.css
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(DuskfallError)
    async def user_error(request: Any, exc: DuskfallError) -> JSONResponse:
        status = 404 if isinstance(exc, UnknownGame | LogCorrupt) else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    app.add_middleware(
        Guard,
        hosts=HostAllowList.of(settings.allow_hosts),
        max_body=settings.max_body,
        gate=gates.body_gate,
    )
    app.include_router(lab_routes(hub, gates.check_view, settings.db))
    app.include_router(site_routes(gates, settings.db))
    app.include_router(game_routes(gates))
    app.include_router(download_routes(gates))
    app.include_router(explore_routes(gates))
    app.include_router(socket_routes(gates, settings.max_sockets_per_client))
    return app
