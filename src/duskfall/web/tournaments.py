"""Tournament pages: the list of tournaments in the index and each one's report.

* ``GET /tournaments``: every tournament with its game counts, linking its page;
* ``GET /tournaments/{name}``: the report (:func:`duskfall.arena.html_report.report_body`: the
  same body as the offline HTML file) in the site's page, each game linking ``/games/{id}``;
  its plots are inline SVG and its stylesheet is ``/static/report.css``, so the page's
  Content-Security-Policy (styles and images from this server only) needs no exception;
* ``GET /api/tournaments`` and ``GET /api/tournaments/{name}``: the same as JSON (the report's
  ``to_dict``: the board the command line prints).

Only finished games are reported, so nothing hidden of a game in progress is shown. A
tournament's config is read from the copy its run keeps next to its games' logs. A report is
built once for what it is made of (:class:`ReportCache`): reloads and concurrent requests
do not fit the rating model again until a game finishes.
"""

from __future__ import annotations

import asyncio
import threading
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, Response

from duskfall.arena.html_report import report_body, stylesheet
from duskfall.arena.leaderboard import TournamentReport, build_report
from duskfall.arena.tournament import (
    TournamentProgress,
    stored_config,
    tournament_progress,
)
from duskfall.core.errors import ConfigError
from duskfall.store.index import GameIndex, default_db_path

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


def _played(progress: TournamentProgress) -> tuple[Any, ...]:
    """What a report is made of: the config, the finished games and the slots' records."""
    return (
        progress.config.model_dump_json(),
        tuple(sorted((slot, row.id, row.status) for slot, row in progress.done.items())),
        tuple(sorted(progress.slots.items())),
    )


class ReportCache:
    """Each tournament's last report, kept while what it is made of stays the same.

    A report fits the rating model with bootstrap resamples (seconds for a big tournament),
    so a page reloaded, or requested by many at once, is built once: requests for the same
    tournament wait for the one build under way (one lock per tournament)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._kept: dict[tuple[str, str], tuple[tuple[Any, ...], TournamentReport]] = {}

    def report(self, db: Path, name: str) -> TournamentReport:
        where = (str(db), name)
        with self._lock:
            lock = self._locks.setdefault(where, threading.Lock())
        with lock:
            progress = _progress(db, name)
            made_of = _played(progress)
            kept = self._kept.get(where)
            if kept is not None and kept[0] == made_of:
                return kept[1]
            report = build_report(progress)  # the config's resamples: the numbers the CLI prints
            self._kept[where] = (made_of, report)
            return report


def site_page(title: str, body: str, *, on_list: bool = False) -> str:
    """A page of the site (its header and stylesheets) around ``body`` (already HTML)."""
    current = ' aria-current="page"' if on_list else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
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
            report = await asyncio.to_thread(reports.report, _db(db), name)
        except HTTPException as exc:
            body = f'<section class="report-section"><p>{escape(str(exc.detail))}</p></section>'
            return HTMLResponse(site_page(title, body), status_code=exc.status_code)
        body = f"<h1>{escape(title.capitalize())}</h1>" + report_body(
            report, game_href=lambda g: f"/games/{quote(g.game_id, safe='')}"
        )
        return HTMLResponse(site_page(title, body))

    return router
