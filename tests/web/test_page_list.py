"""The game list over a 10,000-game index, in Chromium: played and tournament games older
than 10,000 simulated ones are found by filter, every page is reachable, the filters live in
the address, and every page of the site links the tournaments and the statistics."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from duskfall.store.index import GameIndex
from duskfall.testing.index_rows import make_rows

from .browser_kit import Server, axe_violations, checked_page, play_to_log, running_server

pytestmark = [pytest.mark.browser]
SIMULATED = 10_000


def _range(page: Any) -> str:
    return str(page.inner_text("#page-range"))


def _wait_range(page: Any, start: str) -> None:
    page.wait_for_function(
        "start => document.getElementById('page-range').textContent.startsWith(start)", arg=start
    )


def _shown(page: Any) -> list[str]:
    return list(
        page.locator("#games tbody tr").evaluate_all("rows => rows.map(r => r.dataset.game)")
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A played mafia game in the index, then 10,000 newer simulated ones (of which some
    belong to tournament ``cup``)."""
    root = tmp_path_factory.mktemp("list")
    (root / "games").mkdir()
    db = root / "index.db"
    before = os.environ.get("DUSKFALL_DB")
    os.environ["DUSKFALL_DB"] = str(db)  # the played game goes into the server's index
    try:
        play_to_log(root / "games", "mafia", 3, "random")
    finally:
        if before is None:
            del os.environ["DUSKFALL_DB"]
        else:
            os.environ["DUSKFALL_DB"] = before
    rows = make_rows(SIMULATED, seed=2, prefix="sim-")
    newer = [r.__class__(**{**_fields(r), "started_at": "2099-" + r.started_at[5:],
                           "log_path": None}) for r in rows]  # fmt: skip
    with GameIndex(db) as index:
        index.add_rows(newer)
    with running_server(root / "games", db) as running:
        yield running


def _fields(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__dataclass_fields__}


def test_every_game_of_a_10000_game_index_is_reachable(server: Server, browser: Any) -> None:
    total = SIMULATED + 1
    with checked_page(browser) as page:
        began = time.perf_counter()
        page.goto(f"{server.url}/")
        _wait_range(page, f"1–50 of {total:,}")
        print(f"list page of {total:,} games shown in {time.perf_counter() - began:.2f} s")
        assert len(_shown(page)) == 50
        assert "mafia-glance-3" not in _shown(page)  # the played game is the oldest
        page.select_option("#filter-source", "logged")
        _wait_range(page, "1–1 of 1")
        assert _shown(page) == ["mafia-glance-3"]
        assert "source=logged" in page.url
        page.select_option("#filter-source", "")
        page.select_option("#filter-tournament", "cup")
        cup = sum(1 for r in make_rows(SIMULATED, seed=2) if r.tournament == "cup")
        _wait_range(page, f"1–50 of {cup:,}")
        page.select_option("#filter-tournament", "")
        _wait_range(page, f"1–50 of {total:,}")
        page.click("#page-last")
        _wait_range(page, f"{total - total % 50 + 1:,}–{total:,}")
        assert _shown(page)[-1] == "mafia-glance-3"
        page.click("#page-prev")
        _wait_range(page, f"{total - total % 50 - 49:,}–")
        page.fill("#filter-text", "sim-04321")
        _wait_range(page, "1–1 of 1")
        assert _shown(page)[0].startswith("sim-04321")
        page.fill("#filter-text", "")
        page.fill("#filter-agent", "llm")
        llm = page.evaluate("() => fetch('/api/games?agent=llm').then(r => r.json())")["total"]
        _wait_range(page, f"1–50 of {llm:,}")
        page.click("button.sort[data-key=days]")
        header = page.locator("th:has(button.sort[data-key=days])")
        page.wait_for_function(
            "() => document.querySelector('th:has(button.sort[data-key=days])')"
            ".getAttribute('aria-sort') === 'descending'"
        )
        assert header.get_attribute("aria-sort") == "descending"
        days = page.locator("#games tbody tr td:nth-child(4)").all_inner_texts()
        assert days == sorted(days, key=int, reverse=True)
        assert axe_violations(page) == []
        kept = page.url
        page.goto("about:blank")
        page.goto(kept)  # the address keeps the filters, the sort and the page
        _wait_range(page, f"1–50 of {llm:,}")
        assert page.input_value("#filter-agent") == "llm"
        page.select_option("#filter-source", "logged")
        _wait_range(page, "no games")
        assert "No game matches" in page.inner_text("#games-empty")


def test_every_page_links_the_tournaments_and_the_statistics(server: Server, browser: Any) -> None:
    with checked_page(browser) as page:
        for path in ("/", "/stats", "/games/mafia-glance-3", "/tournaments"):
            page.goto(f"{server.url}{path}")
            nav = page.locator("nav.site-nav")
            assert nav.locator("a[href='/tournaments']").count() == 1, path
            assert nav.locator("a[href='/stats']").count() == 1, path
            assert nav.locator("a[href='/']").count() == 1, path
        page.goto(f"{server.url}/")
        page.click("nav.site-nav a[href='/tournaments']")
        page.wait_for_url("**/tournaments")
        page.click("nav.site-nav a[href='/stats']")
        page.wait_for_url("**/stats")


def test_a_game_page_of_the_list_opens(server: Server, browser: Any, tmp_path: Path) -> None:
    with checked_page(browser) as page:
        page.goto(f"{server.url}/?source=logged")
        page.click("#games tbody a")
        page.wait_for_selector("#events li")
        assert "/games/mafia-glance-3" in page.url
