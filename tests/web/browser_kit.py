"""Shared pieces of the browser tests: a real server on a loopback port, Chromium, pages that
fail the test on a script error or a Content-Security-Policy violation, axe-core."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.session import GameSetup, run_game
from duskfall.testing.require import require, require_program
from duskfall.web.access import Access
from duskfall.web.app import WebSettings, create_app

from .conftest import ADMIN

BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT_MS = 20_000
AXE = Path(__file__).parent / "assets" / "axe.min.js"


@dataclass
class Server:
    url: str
    games_dir: Path
    db: Path


@contextmanager
def running_server(games_dir: Path, db: Path) -> Iterator[Server]:
    """``duskfall web``'s app served by uvicorn in a thread, on a free loopback port."""
    settings = WebSettings(games_dir=games_dir, db=db, access=Access(ADMIN))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uvicorn = require("uvicorn", "pip install 'duskfall[web]'")
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not uv.started:  # start-up of the fixture's own server thread
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", games_dir, db)
    finally:
        uv.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def chromium() -> Iterator[Any]:
    sync_api = require("playwright.sync_api", "pip install 'duskfall[test]'")
    executable = require_program("chromium", "apt-get install chromium")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def checked_page(browser: Any, width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A page whose script errors and CSP violations fail the test."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda m: errors.append(f"CSP: {m.text}") if "Content Security Policy" in m.text else None,
    )
    page.set_default_timeout(WAIT_MS)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def play_to_log(games_dir: Path, variant: str, seed: int, agents: str, **config: Any) -> Path:
    """Play a game of bots to the end (in a thread: the driver keeps a loop in this one)."""
    game_id = f"{variant}-glance-{seed}"
    setup = GameSetup(
        variant, seed=seed, agents=agents, config=config, game_id=game_id,
        log_path=games_dir / f"{game_id}.jsonl",
    )  # fmt: skip
    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(asyncio.run, run_game(setup)).result()
    assert game.log_path is not None
    return game.log_path


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations of the page as it is now (axe is evaluated
    over the DevTools protocol, which the page's script policy does not govern)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    violations = json.loads(result)["violations"]
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]
