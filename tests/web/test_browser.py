"""The pages in a real browser (chromium): live games, god and seat views, replays, controls,
and a seat played to the end. CI installs chromium from the distribution's packages."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.logs import parse_lines, rechain
from duskfall.testing.require import require, require_program
from duskfall.web.access import Access
from duskfall.web.app import WebSettings, create_app

from .browser_kit import next_decision
from .conftest import ADMIN, bearer, play_logged

pytestmark = [pytest.mark.browser]
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT_MS = 20_000


@dataclass
class Server:
    url: str
    games_dir: Path

    def start(self, **body: Any) -> dict[str, Any]:
        response = httpx.post(
            f"{self.url}/api/games",
            json={"variant": "sports-mafia", "agents": "random", **body},
            headers=bearer(ADMIN),
        )
        response.raise_for_status()
        started: dict[str, Any] = response.json()
        return started

    def admin(self, path: str) -> None:
        """POST ``path`` as the admin (pause, resume)."""
        httpx.post(f"{self.url}{path}", headers=bearer(ADMIN)).raise_for_status()


@pytest.fixture
def server(games_dir: Path, isolated_index: Path) -> Iterator[Server]:
    settings = WebSettings(games_dir=games_dir, db=isolated_index, access=Access(ADMIN))
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
    yield Server(f"http://127.0.0.1:{port}", games_dir)
    uv.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = require("playwright.sync_api", "pip install 'duskfall[test]'")
    executable = require_program("chromium", "apt-get install chromium")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: _note_csp_violation(message, errors))
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()
    assert not errors, errors


def _note_csp_violation(message: Any, errors: list[str]) -> None:
    """Chromium reports what the Content-Security-Policy blocked on the console."""
    if "Content Security Policy" in message.text:
        errors.append(f"CSP: {message.text}")


def _position(page: Any) -> tuple[int, int]:
    text = page.inner_text("#pos")
    match = re.match(r"(\d+) / (\d+)", text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


def _wait_for_more_events(page: Any, than: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#events li').length > n", arg=than, timeout=WAIT_MS
    )


def test_a_live_game_advances_on_the_page(server: Server, page: Any) -> None:
    started = server.start(seed=31, pace=0.1)
    # paused while the page loads, so the game cannot end before the page sees it move
    server.admin(f"/api/games/{started['game_id']}/pause")
    page.goto(f"{server.url}{started['url']}")
    page.wait_for_selector("#events li")
    seen = page.locator("#events li").count()
    server.admin(f"/api/games/{started['game_id']}/resume")
    _wait_for_more_events(page, seen)
    page.wait_for_selector("#status .status-finished")
    now, total = _position(page)
    assert now == total and total > seen
    assert "wins" in page.inner_text("#outcome")


def test_god_and_seat_views(server: Server, page: Any) -> None:
    log_path = play_logged(server.games_dir, seed=32)
    roles = replay(read_log(log_path)).state.roles()
    sheriff = next(s for s, r in roles.items() if r == "SHERIFF")
    citizen = next(s for s, r in roles.items() if r == "CITIZEN")
    page.goto(f"{server.url}/games/{log_path.stem}")
    page.wait_for_selector(f".player[data-seat='{sheriff}'] .role:text('SHERIFF')")
    assert "SHERIFF" in page.content()
    page.select_option("#view", str(citizen))
    page.wait_for_selector(f"#view-note:text('seat {citizen}')")
    page.wait_for_selector(f".player[data-seat='{citizen}'] .role:text('CITIZEN')")
    # at the end every view shows every role; one event before, the citizen's knows its own
    assert page.locator(f".player[data-seat='{sheriff}'] .role").inner_text() == "SHERIFF"
    page.click("#prev")
    hidden = "s => document.querySelector(`.player[data-seat='${s}'] .role`).textContent === ''"
    page.wait_for_function(hidden, arg=sheriff)
    assert "SHERIFF" not in page.content()
    assert "seat=" in page.url and page.locator("#god-panels").is_hidden()
    page.select_option("#view", "god")
    page.wait_for_selector(f".player[data-seat='{sheriff}'] .role:text('SHERIFF')")


def test_scrub_a_replay(server: Server, page: Any) -> None:
    log_path = play_logged(server.games_dir, seed=33)
    page.goto(f"{server.url}/games/{log_path.stem}")
    page.wait_for_selector("#outcome:not(.hidden)")
    now, total = _position(page)
    assert now == total and page.locator(".player.dead").count() > 0
    page.click("#first")
    assert _position(page) == (1, total)
    assert page.locator(".player.dead").count() == 0
    assert page.locator("#outcome").is_hidden()
    page.click("#next")
    assert _position(page) == (2, total)
    page.fill("#scrub", str(total // 2))
    assert _position(page) == (total // 2 + 1, total)
    page.click("#live")
    assert _position(page) == (total, total)


def test_pause_and_resume_from_the_page(server: Server, page: Any) -> None:
    started = server.start(seed=34, pace=0.2)
    page.goto(f"{server.url}{started['url']}#admin={ADMIN}")
    page.wait_for_selector("#events li")
    page.click("#pause")
    page.wait_for_selector("#status .status-paused")
    assert page.locator("#resume").is_visible() and page.locator("#pause").is_hidden()
    snapshot = httpx.get(f"{server.url}/api/games/{started['game_id']}").json()
    assert snapshot["status"] == "paused"
    paused_at = page.locator("#events li").count()
    page.click("#resume")
    page.wait_for_selector("#status .status-running")
    _wait_for_more_events(page, paused_at)


def test_controls_are_hidden_without_the_admin_token(server: Server, page: Any) -> None:
    started = server.start(seed=35, pace=0.2)
    page.goto(f"{server.url}{started['url']}")
    page.wait_for_selector("#events li")
    assert page.locator("#pause").is_hidden() and page.locator("#resume").is_hidden()


def test_play_a_seat_to_the_end(server: Server, page: Any) -> None:
    started = server.start(seed=36, human_seats=[4])
    seat = started["seats"]["4"]
    page.goto(f"{server.url}{seat['url']}")
    page.wait_for_selector(".player[data-seat='4'].me")
    assert "#token" not in page.url  # the token left the address bar
    answered: set[str] = set()
    while (box := next_decision(page, answered)) is not None:
        for group in box.locator(".choices").all():
            group.locator("button.choice").last.click()
        page.click("#decision-send")
    assert answered, "the seat was never asked anything"
    assert "wins" in page.inner_text("#outcome")
    log = read_log(server.games_dir / f"{started['game_id']}.jsonl")
    by_seat = [e for e in log.events if e.kind == "action" and e.payload["seat"] == 4]
    assert len(by_seat) == len(answered)
    assert all(e.payload["by"] == "agent" for e in by_seat)
    # seat 4 is a citizen (seed 36): it saw its own role and nobody else's
    assert page.locator("#god-panels").is_hidden()
    shown = {
        card.get_attribute("data-seat"): card.locator(".role").inner_text()
        for card in page.locator(".player").all()
    }
    assert shown == {str(s): r for s, r in replay(log).state.roles().items()}  # the end: all
    page.click("#prev")  # one event before the end: its own role only
    one_role = "() => document.querySelectorAll('.player .role:not(:empty)').length == 1"
    page.wait_for_function(one_role)
    shown = {
        card.get_attribute("data-seat"): card.locator(".role").inner_text()
        for card in page.locator(".player").all()
    }
    assert {s: r for s, r in shown.items() if r} == {"4": "CITIZEN"}
    assert not re.search(r"SHERIFF|MAFIA|\bDON\b", page.content())


def _with_agent_records(log_path: Path) -> None:
    """Add a thought, a suspicion model and a model call after the opening events."""
    base = parse_lines(log_path.read_bytes())[1]
    extra = [
        ("thought", {"seat": 2, "text": "seat 7 hesitates a lot"}, "runtime"),
        ("suspicion", {"seat": 2, "mafia": {"0": 0.1, "7": 0.8}}, "agent"),
        (
            "llm_call",
            {
                "seat": 2,
                "model": "openai:test-model",
                "messages": [{"role": "user", "content": "Who is the mafia?"}],
                "reply": '{"action": {"type": "VOTE", "target": 7}}',
                "prompt_tokens": 120,
                "cached_tokens": 100,
                "completion_tokens": 9,
                "cost_usd": 0.0021,
                "latency_s": 0.4,
            },
            "llm",
        ),
    ]
    records = [
        {**base, "kind": kind, "payload": payload, "visibility": "admin", "source": source}
        for kind, payload, source in extra
    ]
    header, *lines = parse_lines(log_path.read_bytes())
    events = [line for line in lines if "kind" in line]  # an edited log loses its signatures
    events[14:14] = records
    for seq, event in enumerate(events):
        event["seq"] = seq
    ends = [line for line in lines if line.get("type") == "end"]
    log_path.write_bytes(rechain([header, *events, *ends]))  # a deliberate edit redoes the chain


def test_god_panels_show_thoughts_suspicions_and_prompts(server: Server, page: Any) -> None:
    log_path = play_logged(server.games_dir, seed=37)
    _with_agent_records(log_path)
    page.goto(f"{server.url}/games/{log_path.stem}")
    page.wait_for_selector(".thoughts :text('seat 7 hesitates a lot')")
    page.click("#tabs button[data-tab=suspicion]")
    page.wait_for_selector(".heat th:text('mafia')")
    assert "0.80" in page.inner_text(".heat")
    page.click("#tabs button[data-tab=prompts]")
    page.wait_for_selector(".calls summary:text('openai:test-model')")
    totals = "1 calls · 120 prompt (100 cached) + 9 completion tokens · $0.0021"
    assert totals in page.inner_text(".totals")
    assert "120 (100 cached)+9 tok" in page.inner_text(".calls summary")
    page.click(".calls summary")
    assert "Who is the mafia?" in page.inner_text(".calls")
    page.select_option("#view", "2")
    page.wait_for_selector("#view-note:text('seat 2')")
    assert "Who is the mafia?" not in page.content()
    assert "hesitates" not in page.content()


def test_start_a_game_from_the_list_page(server: Server, page: Any) -> None:
    """The list page under its Content-Security-Policy: the form, the start, the game page."""
    play_logged(server.games_dir, seed=38)
    page.goto(f"{server.url}/#admin={ADMIN}")
    page.wait_for_selector("#games a:text('sports-mafia-test-38')")
    page.wait_for_selector("#variant option[value='sports-mafia']", state="attached")
    page.select_option("#variant", "sports-mafia")
    page.fill("#agents", "random")
    page.fill("#pace", "0")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/sports-mafia-"))
    page.wait_for_selector("#status .status-finished")
    assert "wins" in page.inner_text("#outcome")
