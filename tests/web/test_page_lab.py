"""The lab on the game page, in Chromium: a fork links its parent and the parent its forks; the
god view draws the win-probability line under the timeline (a point moves the timeline, its
caption says what it is); a seat's view has no line; axe-core finds nothing serious."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.store.log import read_log

from .browser_kit import Server, axe_violations, checked_page, play_to_log

pytestmark = [pytest.mark.browser]


def test_forks_link_each_other_and_the_god_view_draws_the_line(
    server: Server, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", str(server.db))
    parent = play_to_log(server.games_dir, "werewolf", 5, "heuristic", preset="werewolf-9")
    out = server.games_dir / "lab-fork.jsonl"
    request = ForkRequest(
        parent, at="day:2", agents="werewolf=heuristic,default=random", log_path=out
    )
    with ThreadPoolExecutor(1) as pool:  # the browser driver keeps an event loop in this thread
        pool.submit(asyncio.run, run_fork(request)).result()
    fork_id, parent_id = read_log(out).header.game_id, read_log(parent).header.game_id
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{fork_id}")
        family = page.locator("#family")
        family.locator(f"a:text('{parent_id}')").wait_for()
        assert "Forked from" in family.inner_text() and "day 2" in family.inner_text()
        # an ended game's line comes by itself (computed ahead on the page's first view)
        page.locator("#winline-chart svg .winline-point").first.wait_for()
        note = page.inner_text("#winline-note")
        assert "an estimate under the 'heuristic' bot policy" in note
        points = page.locator("#winline-chart .winline-point")
        assert points.count() >= 4
        points.nth(1).click()
        assert "#e" in page.url
        assert page.locator("#winline-swings li").count() >= 1
        assert axe_violations(page) == []
        page.goto(f"{server.url}/games/{parent_id}")
        page.locator(f"#family a:text('{fork_id}')").wait_for()
        page.goto(f"{server.url}/games/{fork_id}?seat=2")
        page.locator("#family a").first.wait_for()
        assert page.locator("#winline").is_hidden()
        assert axe_violations(page) == []
