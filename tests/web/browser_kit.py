"""Shared pieces of the browser tests: a real server on a loopback port, Chromium, pages that
fail the test on a script error or a Content-Security-Policy violation, axe-core."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from duskfall.session import GameSetup, run_game
from duskfall.testing.web_server import Server, chromium
from duskfall.testing.web_server import running_server as serve

from .conftest import ADMIN, LINE_ROLLOUTS

__all__ = [
    "Server",
    "axe_violations",
    "checked_page",
    "chromium",
    "play_by_clicking",
    "play_to_log",
    "running_server",
]

WAIT_MS = 20_000
AXE = Path(__file__).parent / "assets" / "axe.min.js"
SAY = "I have nothing to add."


@contextmanager
def running_server(games_dir: Path, db: Path) -> Iterator[Server]:
    with serve(games_dir, db, ADMIN, line_rollouts=LINE_ROLLOUTS) as server:
        yield server


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


def play_to_log(
    games_dir: Path, variant: str, seed: int, agents: str, *, game_id: str = "", **config: Any
) -> Path:
    """Play a game of bots to the end (in a thread: the driver keeps a loop in this one)."""
    game_id = game_id or f"{variant}-glance-{seed}"
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


def play_by_clicking(page: Any, say: Callable[[int], str] = lambda n: SAY) -> tuple[int, bool]:
    """Answer every decision of the seat on the page until the game ends (the last choice,
    ``say(n)`` in each text box of the n-th answer); returns how many, and whether a vote
    was shown beside the day's speeches."""
    answered: set[str] = set()
    saw_speeches = False
    while (box := next_decision(page, answered)) is not None:
        labels = box.locator("button.choice").all_inner_texts()
        if "VOTE" in box.locator("h2").inner_text().upper() and box.locator(".today li").count():
            saw_speeches = True
        assert len(set(labels)) == len(labels), labels
        assert "answer within" in box.locator("#decision-deadline").inner_text()
        assert "null" not in box.inner_text()
        if labels:
            box.locator("button.choice").last.click()
            assert box.locator("button.choice").last.get_attribute("aria-pressed") == "true"
        for area in box.locator("textarea").all():
            area.fill(say(len(answered)))
        page.click("#decision-send")
    return len(answered), saw_speeches


def next_decision(page: Any, answered: set[str]) -> Any | None:
    """Wait for a decision the seat's page has not answered yet, or the game's end: its box
    (its request id added to ``answered``), or None once the game is finished."""
    page.wait_for_function(
        """answered => {
            const box = document.getElementById('decision');
            const open = !box.classList.contains('hidden')
                && !answered.includes(box.dataset.requestId);
            return open || document.querySelector('#status .status-finished');
        }""",
        arg=sorted(answered),
    )
    if page.locator("#status .status-finished").count():
        return None
    box = page.locator("#decision")
    answered.add(str(box.get_attribute("data-request-id")))
    return box
