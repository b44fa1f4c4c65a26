"""The game list always loads, in Chromium: a slow answer is shown (not dropped for a newer
request), one request is in flight at a time however slow the server, and loading and errors
are said on the page while the rows already shown stay."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .browser_kit import checked_page, play_to_log, running_server

pytestmark = [pytest.mark.browser]
LIST = re.compile(r"/api/games\?")


def _state(page: Any, state: str) -> None:
    """Wait until the list says it is in ``state`` (loading, shown, error)."""
    page.wait_for_function("s => document.body.dataset.listState === s", arg=state)


def _wait_for(page: Any, held: list[Any], count: int) -> None:
    """Let the page run until ``count`` list requests are held (Playwright dispatches the
    route handler while the page runs)."""
    deadline = time.monotonic() + 30
    while len(held) < count and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(held) >= count, held


def test_a_slow_answer_is_shown_and_requests_never_pile_up(
    browser: Any, games_dir: Path, isolated_index: Path
) -> None:
    play_to_log(games_dir, "mafia", 3, "random")
    held: list[Any] = []
    with running_server(games_dir, isolated_index) as server, checked_page(browser) as page:
        page.route(LIST, lambda route: held.append(route))  # answers held until given
        page.goto(f"{server.url}/")
        _wait_for(page, held, 1)
        _state(page, "loading")
        assert page.is_visible("#games-loading")
        page.wait_for_timeout(4_000)  # longer than the list's 3-second refresh
        assert len(held) == 1  # nothing piled on the request under way
        page.select_option("#page-size", "25")  # the list changes meanwhile: still one request
        page.wait_for_timeout(500)
        assert len(held) == 1
        held[0].fulfill(response=held[0].fetch())  # the slow answer, for the old page size
        _wait_for(page, held, 2)  # ... is followed at once by the list asked for now
        assert "limit=25" in held[1].request.url
        held[1].fulfill(response=held[1].fetch())
        page.wait_for_selector("#games tbody tr")
        _state(page, "shown")
        assert page.is_hidden("#games-loading") and page.is_hidden("#list-error")

        _wait_for(page, held, 3)  # the next refresh fails: said, and the rows stay
        held[2].fulfill(status=500, content_type="application/json", body='{"detail": "busy"}')
        _state(page, "error")
        assert "busy" in page.inner_text("#list-error")
        assert page.locator("#games tbody tr").count() == 1
        _wait_for(page, held, 4)  # tried again later; this time it answers
        held[3].fulfill(response=held[3].fetch())
        _state(page, "shown")
        assert page.is_hidden("#list-error")
        page.unroute(LIST)


def test_a_tournament_game_links_its_tournament(
    browser: Any, games_dir: Path, isolated_index: Path, tmp_path: Path
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from arena.tournament_kit import bot_config
    from duskfall.arena.tournament import run_tournament

    config = bot_config("sides", games=2, variants=[{"variant": "sports-mafia"}])
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    with running_server(games_dir, isolated_index) as server, checked_page(browser) as page:
        page.goto(f"{server.url}/")
        link = page.locator("a.tournament-link").first
        assert link.inner_text() == "bots-sides"
        link.click()
        page.wait_for_url(f"{server.url}/tournaments/bots-sides")
