"""Take the web page's screenshots in docs/screenshots/ with headless Chromium.

    python scripts/screenshots.py

Plays werewolf-6 (seed 72, heuristic bots), a few hundred simulated games and a small
tournament in a temporary directory, serves them, and photographs the game list, the god view,
seats played in the browser, the vote picture, the statistics page, the tournament page and
the phone layout.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from duskfall import cli
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_config import parse_tournament
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.testing.web_server import chromium, running_server

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
WAIT_MS = 30_000


def _play(games_dir: Path) -> Path:
    setup = GameSetup(
        "werewolf", seed=72, agents="heuristic", config={"preset": "werewolf-6"},
        game_id="werewolf-seed-72", log_path=games_dir / "werewolf-seed-72.jsonl",
    )  # fmt: skip
    game = asyncio.run(run_game(setup))
    assert game.log_path is not None
    return game.log_path


def _simulate(db: Path) -> None:
    cli._load_commands()
    args = ["simulate", "-v", "werewolf", "--preset", "werewolf-6", "-n", "300", "--db", str(db)]
    try:
        cli.app(args, standalone_mode=False)
    except SystemExit as exit_:
        if exit_.code:
            raise
    more = ["simulate", "-v", "werewolf", "--preset", "werewolf-9", "-n", "200", "--db", str(db)]
    cli.app([*more, "-a", "random"], standalone_mode=False)


def _tournament(root: Path) -> str:
    """A 16-game ``sides`` tournament of three bot entrants over werewolf-6 and sports mafia."""
    config = parse_tournament({
        "name": "cup", "games": 8, "seed": 11, "schedule": "sides", "parallel_games": 2,
        "log_dir": "games",
        "entrants": {"smart": "heuristic", "naive": "random", "half": "mix:heuristic@0.5/random"},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}, {"variant": "sports-mafia"}],
    })  # fmt: skip
    run_tournament(config, base_dir=root, db=root / "index.db")
    return config.name


def _shoot(page: Any, name: str, **options: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), **options)
    print("wrote", OUT / f"{name}.png")


def main() -> int:
    admin = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        games = root / "games"
        games.mkdir()
        log_path = _play(games)
        _simulate(root / "index.db")
        cup = _tournament(root)
        exile = next(e.seq for e in read_log(log_path).events if e.kind == "exiled")
        with running_server(games, root / "index.db", admin) as server, chromium() as browser:
            wide = browser.new_context(viewport={"width": 1400, "height": 900})
            page = wide.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(f"{server.url}/games/{log_path.stem}#e{exile}")
            page.wait_for_selector("#vote-picture table")
            # the win line is computed when the page is first opened: its points, then the shot
            page.locator("#winline-chart svg .winline-point").first.wait_for(timeout=120_000)
            _shoot(page, "god-view")
            _shoot(page, "vote-picture", clip=page.locator(".players-panel").bounding_box())
            page.goto(f"{server.url}/stats")
            page.wait_for_selector("section[data-by=variant] td.rate")
            _shoot(page, "statistics", full_page=True)
            started = httpx.post(
                f"{server.url}/api/games",
                json={"variant": "werewolf", "preset": "werewolf-6", "agents": "heuristic",
                      "seed": 72, "human_seats": [3], "pace": 0.2},
                headers={"Authorization": f"Bearer {admin}"},
            ).json()  # fmt: skip
            page.goto(f"{server.url}{started['seats']['3']['url']}")
            page.wait_for_selector("#decision:not(.hidden) button.choice")
            _shoot(page, "seat-view")
            declaring = httpx.post(
                f"{server.url}/api/games",
                json={"variant": "sports-mafia", "agents": "heuristic", "seed": 5,
                      "human_seats": [0]},
                headers={"Authorization": f"Bearer {admin}"},
            ).json()  # fmt: skip
            page.goto(f"{server.url}{declaring['seats']['0']['url']}")
            page.wait_for_selector("#decision:not(.hidden) fieldset.vector")
            _shoot(page, "play-a-seat", full_page=True)
            page.goto("about:blank")
            page.goto(f"{server.url}/#admin={admin}")
            page.wait_for_selector("#variant option[value='werewolf']", state="attached")
            page.select_option("#variant", "werewolf")
            page.select_option("#preset", "werewolf-9")
            page.wait_for_selector("#games tbody tr")
            _shoot(page, "game-list")
            page.goto(f"{server.url}/tournaments/{cup}")
            page.wait_for_selector("section#board svg, section#board table")
            _shoot(page, "tournament", full_page=True)
            phone = browser.new_context(viewport={"width": 390, "height": 844})
            small = phone.new_page()
            small.set_default_timeout(WAIT_MS)
            small.goto(f"{server.url}/games/{log_path.stem}")
            small.wait_for_selector("#outcome:not(.hidden)", state="attached")
            _shoot(small, "phone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
