"""Take the screenshots of the players' cards in docs/screenshots/ with headless Chromium.

    python scripts/card_screenshots.py

Plays a mafia game with multi-role seats (seed 1), a sports mafia game (seed 5) and a GM game
of the scripted GM in a temporary directory, serves them, and photographs the MAFIA+DOCTOR
seat on the first day, a GM game's seat during the first day and a sports mafia seat at the
end (every role revealed).
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.testing.web_server import chromium, running_server
from duskfall.web.timeline import Timeline

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
WAIT_MS = 30_000
MULTI_ROLE = {
    "roles": ["MAFIA+DOCTOR", "DOCTOR", "MAFIA+SHERIFF", "SHERIFF", "VIGILANTE", "VIGILANTE",
              "VILLAGER", "VILLAGER", "VILLAGER"],
    "allow_multi_role": True,
}  # fmt: skip
GM_OPTIONS = {"language": "en", "gm_model": "scripted", "gm_format": "structured", "max_steps": 24}


def _play(games_dir: Path, variant: str, seed: int, **config: Any) -> Path:
    game_id = f"{variant}-cards-{seed}"
    setup = GameSetup(
        variant, seed=seed, agents="heuristic", config=config, game_id=game_id,
        log_path=games_dir / f"{game_id}.jsonl",
    )  # fmt: skip
    game = asyncio.run(run_game(setup))
    assert game.log_path is not None
    return game.log_path


def _gm(url: str, admin: str) -> str:
    body = {"variant": "gm", "preset": "werewolf6", "agents": "scripted", "seed": 4,
            "pace": 0, "config": GM_OPTIONS}  # fmt: skip
    auth = {"Authorization": f"Bearer {admin}"}
    started = httpx.post(f"{url}/api/games", json=body, headers=auth)
    started.raise_for_status()
    game_id: str = started.json()["game_id"]
    for _ in range(600):
        if httpx.get(f"{url}/api/games/{game_id}", headers=auth).json()["status"] == "finished":
            break
        time.sleep(0.1)
    return game_id


def _moment(log: Path, seat: int, kind: str, nth: int = 1) -> int:
    """The number (in ``seat``'s view) of the ``nth`` event of ``kind`` that seat saw (a GM
    game's chat: a player's speech)."""
    timeline = Timeline(read_log(log).header)
    for event in read_log(log).events:
        timeline.add(event)
    found = [
        frame.numbers[seat]
        for frame in timeline.visible(seat)
        if frame.event.kind == kind and frame.event.payload.get("role", "player") == "player"
    ]
    return found[nth - 1]


def _shoot(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector("#status .status-finished")
    page.wait_for_selector("#players .player")
    page.wait_for_timeout(500)
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"))
    print("wrote", OUT / f"{name}.png")


def main() -> int:
    admin = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory() as tmp:
        games = Path(tmp) / "games"
        games.mkdir()
        mafia = _play(games, "mafia", 1, **MULTI_ROLE)
        sports = _play(games, "sports-mafia", 5)
        with running_server(games, Path(tmp) / "index.db", admin) as server, chromium() as browser:
            gm_id = _gm(server.url, admin)
            [gm] = [p for p in games.glob("gm-*.jsonl")]
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(WAIT_MS)
            day = _moment(mafia, 4, "day_start")
            _shoot(page, f"{server.url}/games/{mafia.stem}?seat=4#e{day}", "multi-role-seat")
            speech = _moment(gm, 2, "chat", 4)
            page.goto(f"{server.url}/#admin={admin}")  # the page keeps the token
            _shoot(page, f"{server.url}/games/{gm_id}?seat=2#e{speech}", "gm-seat")
            _shoot(page, f"{server.url}/games/{sports.stem}?seat=4", "sports-mafia-end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
