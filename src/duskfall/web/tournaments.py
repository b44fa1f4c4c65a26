"""Tournament pages: the list of tournaments in the index and each one's report.

* ``GET /tournaments``: every tournament with its game counts, linking its page;
* ``GET /tournaments/{name}``: the report (:func:`duskfall.report.html_report.report_body`: the
  same body as the offline HTML file) in the site's page, each game linking ``/games/{id}``;
  its plots are inline SVG and its stylesheet is ``/static/report.css``, so the page's
  Content-Security-Policy (styles and images from this server only) needs no exception;
* ``GET /api/tournaments`` and ``GET /api/tournaments/{name}``: the same as JSON (the report's
  ``to_dict``: the board the command line prints).

Only finished games are reported, so nothing hidden of a game in progress is shown. A
tournament's config is read from the copy its run keeps next to its games' logs. A report is
built in the background and the last build served at once (:class:`ReportCache`): reloads and
concurrent requests share one build, and a running tournament's page never waits for the
rating model to be fitted again.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import threading
import time
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, Response

from duskfall.arena.progress import TournamentProgress, tournament_progress
from duskfall.arena.tournament import stored_config
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.report.html_report import report_body, stylesheet
from duskfall.report.leaderboard import TournamentReport, build_report
from duskfall.store.index import GameIndex
from duskfall.store.paths import default_db_path
from duskfall.store.sqlite_file import open_database

logger = logging.getLogger(__name__)
REBUILD_SECONDS = 10.0  # a running tournament's report is rebuilt at most this often
FIRST_WAIT = 5.0  # seconds a page waits for a tournament's first report before saying so

NAV = (
    '<nav class="site-nav" aria-label="site"><a href="/">games</a>'
    '<a href="/tournaments"{current}>tournaments</a><a href="/stats">statistics</a></nav>'
)


def _db(db: Path | None) -> Path:
    path = db or default_db_path()
    if path is None or not path.exists():
        raise HTTPException(404, "no game index here")
    return path


def _progress(db: Path, name: str) -> TournamentProgress:
    with GameIndex(db) as index:
        try:
            config = stored_config(index, name)
        except ConfigError:  # its message names the index's path on the server
            raise HTTPException(404, f"no tournament {name!r} in this server's index") from None
        return tournament_progress(config, index)


def _stamp(db: Path, name: str) -> tuple[Any, ...]:
    """What a report is made of, cheaply: the count of the tournament's games (and of ended
    ones), their latest change, and the same of its slots' records; a 404 for no games."""
    connection = open_database(db)
    try:
        games = connection.execute(
            "SELECT COUNT(*), SUM(status IN ('finished', 'aborted')), MAX(finished_at) "
            "FROM games WHERE tournament = ?",
            (name,),
        ).fetchone()
        try:
            slots = connection.execute(
                "SELECT COUNT(*), MAX(updated_at) FROM tournament_slots WHERE tournament = ?",
                (name,),
            ).fetchone()
        except sqlite3.OperationalError:  # no tournament_slots table yet
            slots = (0, None)
    finally:
        connection.close()
    if not games[0]:
        raise HTTPException(404, f"no tournament {name!r} in this server's index")
    return (*games, *slots)


@dataclass
class _Kept:
    """One tournament's last report, what it was built from, and the build under way."""

    stamp: tuple[Any, ...] | None = None
    report: TournamentReport | None = None
    built_at: float = -math.inf
    building: threading.Thread | None = None
    error: HTTPException | None = None


class ReportCache:
    """Each tournament's last report, served at once while a newer one is built.

    A report fits the rating model with bootstrap resamples (seconds, minutes for a
    10,000-game tournament), so it is built in a background thread, one at a time per
    tournament: a page asks for the last build and gets it at once, and only the first request
    ever waits (up to ``wait`` seconds). When games have finished since (a cheap count of the
    index's rows tells), the next request starts a rebuild, at most every
    :data:`REBUILD_SECONDS` while a tournament runs, so finished games never empty the cache."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[str, str], _Kept] = {}

    def report(self, db: Path, name: str, wait: float | None = None) -> TournamentReport | None:
        """The last report of tournament ``name`` (None: the first is still being built after
        ``wait`` seconds; ``wait`` None: until it is)."""
        stamp = _stamp(db, name)
        with self._lock:
            kept = self._kept.setdefault((str(db), name), _Kept())
            due = kept.report is None or time.monotonic() - kept.built_at >= REBUILD_SECONDS
            if kept.stamp != stamp and kept.building is None and due:
                kept.building = threading.Thread(
                    target=self._build, args=(db, name, kept, stamp), daemon=True
                )
                kept.building.start()
            if kept.report is not None:
                return kept.report
            building = kept.building
        if building is not None:
            building.join(wait)
        with self._lock:
            if kept.report is None and kept.error is not None:
                raise kept.error
            return kept.report

    def _build(self, db: Path, name: str, kept: _Kept, stamp: tuple[Any, ...]) -> None:
        report, error = None, None
        try:
            report = build_report(_progress(db, name))  # the numbers the CLI prints
        except HTTPException as exc:
            error = exc
        except DuskfallError as exc:  # a finished game's log gone, a config that no longer reads
            logger.warning("the report of tournament %r cannot be built: %s", name, exc)
            error = HTTPException(  # no path of the operator's on a public page
                500,
                "the tournament's report cannot be built (a finished game's log is missing or "
                "unreadable); `duskfall tournament report` says which",
            )
        except Exception:
            logger.exception("building the report of tournament %r failed", name)
            error = HTTPException(500, "the tournament's report could not be built")
        with self._lock:
            if report is not None:
                kept.report, kept.stamp, kept.error = report, stamp, None
            else:
                kept.error, kept.stamp = error, stamp
            kept.built_at = time.monotonic()
            kept.building = None

    def settle(self) -> None:
        """Wait for every build under way (tests, shutdown)."""
        with self._lock:
            threads = [k.building for k in self._kept.values() if k.building is not None]
        for thread in threads:
            thread.join()


def site_page(title: str, body: str, *, on_list: bool = False, refresh: float | None = None) -> str:
    """A page of the site (its header and stylesheets) around ``body`` (already HTML); with
    ``refresh``, the page reloads itself after that many seconds."""
    current = ' aria-current="page"' if on_list else ""
    reload = "" if refresh is None else f'<meta http-equiv="refresh" content="{refresh:g}">\n'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
{reload}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>duskfall · {escape(title)}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/report.css">
</head><body class="report">
<header class="topbar"><h1><a href="/">duskfall</a></h1>
<span class="game-title">{escape(title)}</span><span class="spacer"></span>
{NAV.format(current=current)}</header>
<main>{body}</main></body></html>
"""


def _listing(tournaments: list[dict[str, Any]]) -> str:
    if not tournaments:
        return (
            '<section class="report-section"><h2>Tournaments</h2><p>No tournament in this '
            "index yet. Run one with <code>duskfall tournament run CONFIG</code>.</p></section>"
        )
    rows = "".join(
        f'<tr><th scope="row"><a href="/tournaments/{quote(t["name"], safe="")}">'
        f"{escape(t['name'])}</a></th><td>{t['finished']}</td><td>{t['games']}</td>"
        f"<td>{escape(t['latest'])}</td></tr>"
        for t in tournaments
    )
    return (
        '<section class="report-section" aria-labelledby="list-title"><h2 id="list-title">'
        'Tournaments</h2><div class="scroll-x" tabindex="0" role="region" aria-label="tournaments">'
        '<table class="report-table" data-table='
        '"tournaments"><thead><tr><th scope="col">name</th><th scope="col">finished</th>'
        '<th scope="col">games</th><th scope="col">latest game</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div></section>"
    )


def tournament_routes(db: Path | None) -> APIRouter:
    """The tournament pages over the index at ``db`` (None: the process's default)."""
    router = APIRouter()
    reports = ReportCache()

    def listed() -> list[dict[str, Any]]:
        path = db or default_db_path()
        if path is None or not path.exists():
            return []
        with GameIndex(path) as index:
            return [
                {"name": n, "games": games, "finished": done, "latest": last}
                for n, games, done, last in index.tournaments()
            ]

    @router.get("/static/report.css", include_in_schema=False)
    async def report_css() -> Response:
        return Response(stylesheet(), media_type="text/css")

    @router.get("/api/tournaments")
    async def tournaments() -> list[dict[str, Any]]:
        return await asyncio.to_thread(listed)

    @router.get("/api/tournaments/{name}")
    async def tournament(name: str) -> dict[str, Any]:
        report = await asyncio.to_thread(reports.report, _db(db), name)
        assert report is not None  # no wait limit: the first build is waited for
        data = report.to_dict()
        for game in data["games"]:
            game.pop("log", None)  # a path on the server: the game page is the link
        return data

    @router.get("/tournaments", response_class=HTMLResponse, include_in_schema=False)
    async def list_page() -> str:
        return site_page("tournaments", _listing(await asyncio.to_thread(listed)), on_list=True)

    @router.get("/tournaments/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def page(name: str) -> HTMLResponse:
        title = f"tournament {name}"
        try:
            report = await asyncio.to_thread(reports.report, _db(db), name, FIRST_WAIT)
        except HTTPException as exc:
            body = f'<section class="report-section"><p>{escape(str(exc.detail))}</p></section>'
            return HTMLResponse(site_page(title, body), status_code=exc.status_code)
        if report is None:
            body = (
                '<section class="report-section" aria-busy="true"><p role="status">'
                "The board of this tournament is being built; this page shows it as soon as it "
                "is ready.</p></section>"
            )
            return HTMLResponse(site_page(title, body, refresh=FIRST_WAIT), status_code=202)
        body = f"<h1>{escape(title.capitalize())}</h1>" + report_body(
            report, game_href=lambda g: f"/games/{quote(g.game_id, safe='')}"
        )
        return HTMLResponse(site_page(title, body))

    return router
