"""A tournament's page in Chromium: the site's styles and inline SVG plots under the page's
Content-Security-Policy (a violation fails the test), the board's tables and plots, results
per variant (roles never pooled across variants), a phone layout, the same content as the
offline HTML file, and the same numbers as the JSON and the command line."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console

from arena.tournament_kit import bot_config
from duskfall.arena.progress import tournament_progress
from duskfall.arena.tournament import run_tournament, stored_config
from duskfall.rating.fit import Estimate
from duskfall.report.html_report import html_report
from duskfall.report.leaderboard import TournamentReport, build_report
from duskfall.report.terminal import leaderboard_table
from duskfall.store.index import GameIndex

from .browser_kit import Server, axe_violations, checked_page, running_server

pytestmark = [pytest.mark.browser]
NAME = "cup"
SECTIONS = ("board", "skills", "pairs", "head-to-head", "variants", "behaviour")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A 16-game ``sides`` tournament of three entrants over werewolf-6 and sports mafia."""
    root = tmp_path_factory.mktemp("tournament")
    config = bot_config(
        "sides", games=8, name=NAME,
        entrants={"smart": "heuristic", "naive": "random", "half": "mix:heuristic@0.5/random"},
        variants=[{"variant": "werewolf", "preset": "werewolf-6"}, {"variant": "sports-mafia"}],
    )  # fmt: skip
    with ThreadPoolExecutor(1) as pool:  # the browser driver keeps an event loop here
        pool.submit(run_tournament, config, base_dir=root, db=root / "index.db").result()
    with running_server(root / "games", root / "index.db") as running:
        yield running


@pytest.fixture(scope="module")
def report(server: Server) -> TournamentReport:
    with GameIndex(server.db) as index:
        return build_report(tournament_progress(stored_config(index, NAME), index))


def _section_texts(page: Any) -> dict[str, str]:
    return {s: page.inner_text(f"section#{s}") for s in SECTIONS}


def test_the_page_shows_the_board_in_the_sites_style_under_its_policy(
    server: Server, browser: Any, report: TournamentReport
) -> None:
    with checked_page(browser) as page:  # a CSP violation or a script error fails here
        page.goto(f"{server.url}/")
        page.click("nav.site-nav a[href='/tournaments']")
        page.click(f"a[href='/tournaments/{NAME}']")
        page.wait_for_selector("svg.plot")
        assert page.locator("img").count() == 0  # every plot is drawn in the page
        plots = page.locator("svg.plot").evaluate_all(
            "svgs => svgs.map(s => [s.dataset.plot, s.getBoundingClientRect().width,"
            " s.querySelectorAll('circle, rect, line, polyline').length])"
        )
        names = {name for name, _, _ in plots}
        assert {"ratings", "openskill", "skills", "head-to-head"} <= names, names
        assert {"roles-sports-mafia", "roles-werewolf:werewolf-6"} <= names, names
        assert all(width > 200 and shapes > 3 for _, width, shapes in plots), plots
        styled = page.evaluate(
            "() => [getComputedStyle(document.querySelector('.report-section')).borderRadius,"
            " getComputedStyle(document.querySelector('svg.plot text')).fill]"
        )
        assert styled[0] == "10px" and styled[1] != "rgb(0, 0, 0)"  # the stylesheet applies
        werewolf = page.inner_text("figure:has(svg[data-plot='roles-werewolf:werewolf-6'])")
        assert "CITIZEN" not in werewolf and "Seer" in werewolf  # roles stay in their variant
        pairs = page.locator("table[data-table=pairs] tbody tr")
        assert pairs.count() == 3
        assert "[" in page.inner_text("table[data-table=head-to-head] tbody")  # intervals
        assert "no cost frontier" in page.inner_text("section#cost")
        for game in report.games:
            assert page.locator(f"a[href='/games/{game.game_id}']").count() == 1
        assert axe_violations(page) == []


def test_one_source_of_numbers_for_the_page_the_json_and_the_command_line(
    server: Server, browser: Any, report: TournamentReport
) -> None:
    data = httpx.get(f"{server.url}/api/tournaments/{NAME}").json()["board"]
    console = Console(record=True, width=200)
    for table in leaderboard_table(report):
        console.print(table)
    printed = console.export_text()
    with checked_page(browser) as page:
        page.goto(f"{server.url}/tournaments/{NAME}")
        board = page.inner_text("table[data-table=board]")
        pairs = page.inner_text("table[data-table=pairs]")
    for entrant in data["entrants"]:
        rating = Estimate.from_dict(entrant["elo"]).format(".0f")
        assert rating in board and rating in printed, (entrant["name"], rating)
    for pair in data["pairs"]:
        difference = Estimate.from_dict(pair["elo"]).format("+.0f")
        assert difference in pairs and difference in printed
        assert pair["verdict"] in pairs


def test_the_offline_file_has_the_pages_content(
    server: Server, browser: Any, report: TournamentReport, tmp_path: Path
) -> None:
    offline = tmp_path / "report.html"
    offline.write_text(html_report(report), encoding="utf-8")
    context = browser.new_context(offline=True)  # everything is in the file
    try:
        page = context.new_page()
        page.goto(offline.as_uri())
        page.wait_for_selector("svg.plot")
        in_file = _section_texts(page)
        shown = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    finally:
        context.close()
    assert shown == "rgb(20, 22, 31)"  # its own stylesheet applies
    with checked_page(browser) as page:
        page.goto(f"{server.url}/tournaments/{NAME}")
        assert _section_texts(page) == in_file


def test_the_page_fits_a_phone(server: Server, browser: Any) -> None:
    with checked_page(browser, width=390, height=844) as page:
        page.goto(f"{server.url}/tournaments/{NAME}")
        page.wait_for_selector("svg.plot")
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        assert overflow <= 390, overflow  # wide tables scroll inside their own box
        widths = page.locator("svg.plot").evaluate_all(
            "svgs => svgs.map(s => s.getBoundingClientRect().right)"
        )
        assert max(widths) <= 390
        assert page.locator("nav.site-nav a[href='/stats']").is_visible()


def test_an_unknown_tournament_is_a_page_saying_so(server: Server) -> None:
    response = httpx.get(f"{server.url}/tournaments/nope")
    assert response.status_code == 404 and "no tournament &#x27;nope&#x27;" in response.text
    assert 'href="/static/style.css"' in response.text
    assert str(server.db) not in response.text  # no path of the server
    assert str(server.db) not in httpx.get(f"{server.url}/api/tournaments/nope").text
