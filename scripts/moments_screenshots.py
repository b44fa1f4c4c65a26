"""Take the key-moments and explore-from-here screenshots in docs/screenshots/ with Chromium.

    python scripts/moments_screenshots.py

Plays werewolf-12 (seed 3, heuristic bots) in a temporary directory, serves it, and photographs
the god view's key moments (the win line with its axes and swings, the per-seat summary, a
swing marked in the event list), the explore-from-here form at a moment of the game, and the
fork it makes, followed on its own page.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
import tempfile
from pathlib import Path

from duskfall.session import GameSetup, run_game
from duskfall.testing.web_server import chromium, running_server

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
WAIT_MS = 120_000


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        games = root / "games"
        games.mkdir()
        os.environ["DUSKFALL_DB"] = str(root / "index.db")
        setup = GameSetup(
            "werewolf", seed=3, agents="heuristic", config={"preset": "werewolf-12"},
            game_id="werewolf-seed-3", log_path=games / "werewolf-seed-3.jsonl",
        )  # fmt: skip
        asyncio.run(run_game(setup))
        admin = secrets.token_urlsafe(16)
        with running_server(games, root / "index.db", admin) as server, chromium() as browser:
            page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(f"{server.url}/games/werewolf-seed-3#admin={admin}")
            page.reload()
            page.locator("#winline-chart svg .winline-point").first.wait_for()
            page.locator("#winline-swings li button").first.click()
            # the top bar stays put while the page scrolls: out of the element pictures' way
            page.evaluate("() => { document.querySelector('.topbar').style.position = 'static'; }")
            page.locator("#winline").screenshot(path=str(OUT / "key-moments.png"))
            print("wrote", OUT / "key-moments.png")
            page.locator("#events li.swing").first.scroll_into_view_if_needed()
            page.locator(".events-panel").screenshot(path=str(OUT / "key-moments-list.png"))
            print("wrote", OUT / "key-moments-list.png")
            page.goto(f"{server.url}/games/werewolf-seed-3#e37")
            page.evaluate("() => { document.querySelector('.topbar').style.position = 'static'; }")
            page.click("#explore-open")
            page.fill("#explore-agents", "werewolf=heuristic,default=random")
            page.locator("#explore").screenshot(path=str(OUT / "explore.png"))
            print("wrote", OUT / "explore.png")
            page.click("#explore-go")
            page.wait_for_url(lambda url: "werewolf-seed-3" not in url)
            page.locator("#status .status-finished").wait_for()
            page.locator("#family a").first.wait_for()
            page.locator(
                "#winline-chart svg .winline-point"
            ).first.wait_for()  # computed at its end
            page.screenshot(path=str(OUT / "explore-fork.png"))
            print("wrote", OUT / "explore-fork.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
