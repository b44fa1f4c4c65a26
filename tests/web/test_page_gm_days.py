"""A GM game's page in Chromium follows the card's nights and days, shows the player the GM
announced out as out, and groups the speeches under their speakers (issue 30: GM games stayed
on "Day 0", players never showed as out and speeches had no speaker)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from duskfall.runtime.record import GameRecord
from duskfall.store.log import LogHeader, LogWriter
from duskfall.testing.gm_games import build_game

from .browser_kit import Server, checked_page
from .test_gm_timeline import gm_putting_one_out

pytestmark = [pytest.mark.browser]
GAME_ID = "gm-days"


def play_gm_to_log(games_dir: Path) -> tuple[list[str], str]:
    """A structured GM game that puts one player out on day 1, logged in ``games_dir``;
    its players' names and the one out."""
    names = ["AI-Alpha", "AI-Beta", "AI-Gamma", "AI-Delta", "AI-Epsilon", "AI-Zeta"]
    roster = [{"seat": i, "agent": "scripted", "name": n} for i, n in enumerate(names)]
    header = LogHeader(GAME_ID, "gm", {"card": "werewolf6"}, 1, roster)
    record = GameRecord(GAME_ID, [LogWriter(games_dir / f"{GAME_ID}.jsonl", header)])
    game, events = build_game(
        gm_putting_one_out, gm_format="structured", max_steps=30, seed=1, record=record
    )
    assert game.names == names
    with ThreadPoolExecutor(1) as pool:  # the browser driver keeps an event loop here
        pool.submit(asyncio.run, game.run()).result()
    [out] = [e.payload["player"] for e in events if e.kind == "out"]
    return names, out


def test_a_gm_game_shows_its_nights_days_outs_and_speakers(server: Server, browser: Any) -> None:
    names, out = play_gm_to_log(server.games_dir)
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{GAME_ID}")
        page.wait_for_selector("#outcome:not(.hidden)")
        card = page.locator(f".player[data-seat='{names.index(out)}']")
        assert "dead" in (card.get_attribute("class") or "")
        assert page.locator(".player.dead").count() == 1
        strip = page.inner_text("#strip")
        assert "Night 1" in strip and "Day 1" in strip, strip
        page.click("#mode-transcript")
        transcript = page.inner_text("#transcript")
        assert all(name in transcript for name in names), transcript
