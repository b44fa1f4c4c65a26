"""Fixtures of the web tests: an isolated game index, finished game logs, an app client."""

# ruff: noqa: E402  (the web extra is required before the modules that need it are imported)

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from duskfall.testing.require import require

require("fastapi", "pip install 'duskfall[web]'")

from fastapi.testclient import TestClient

from duskfall.session import GameSetup, run_game
from duskfall.web.access import Access
from duskfall.web.app import WebSettings, create_app

ADMIN = "admin-token-for-tests"
TEST_HOST = "testserver"  # the Host of TestClient's requests
LINE_ROLLOUTS = 10  # the win lines computed ahead: a second of rollouts, not several


@pytest.fixture(autouse=True)
def isolated_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own game index, never the working directory's."""
    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    return db


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    path = tmp_path / "games"
    path.mkdir()
    return path


def play_logged(games_dir: Path, seed: int, agents: str = "random") -> Path:
    """Play a sports-mafia game of bots to the end and return its log."""
    setup = GameSetup(
        "sports-mafia",
        seed=seed,
        agents=agents,
        game_id=f"sports-mafia-test-{seed}",
        log_path=games_dir / f"sports-mafia-test-{seed}.jsonl",
    )
    # in a thread of its own: the browser tests' driver keeps an event loop in this one
    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(asyncio.run, run_game(setup)).result()
    assert game.log_path is not None
    return game.log_path


@pytest.fixture
def finished_log(games_dir: Path) -> Path:
    return play_logged(games_dir, seed=3)


@pytest.fixture
def client(games_dir: Path, isolated_index: Path) -> Iterator[TestClient]:
    settings = WebSettings(
        games_dir=games_dir,
        db=isolated_index,
        access=Access(ADMIN),
        allow_hosts=(TEST_HOST,),
        line_rollouts=LINE_ROLLOUTS,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def answer_until_finished(
    ws: Any, first: dict[str, Any], answer: Callable[[dict[str, Any]], None]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """From the reply to a seat's hello (``first``), hand every decision the socket sends to
    ``answer`` until the game is finished: the events seen, and the finishing status."""
    events: list[dict[str, Any]] = list(first["events"])
    request = first["request"]
    while True:
        if request is not None:
            answer(request)
            request = None
        message = ws.receive_json()
        if message["type"] == "event":
            events.append(message["event"])
        elif message["type"] == "decision":
            request = message["request"]
        elif message["type"] == "status" and message["status"] == "finished":
            return events, message


def answer_for(request: dict[str, Any]) -> dict[str, Any]:
    """A legal answer built from a decision's JSON schema (first choice, zeros, false)."""
    return _value(request["schema"])


def _value(schema: dict[str, Any]) -> Any:
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][-1]
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return _value(schema[key][0])
    kind = schema.get("type")
    if kind == "object":
        required = set(schema.get("required", []))
        props = schema.get("properties", {})
        return {k: _value(v) for k, v in props.items() if k in required}
    if kind == "array":
        return [_value(schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    if kind == "boolean":
        return False
    if kind == "string":
        return "I have nothing to add."
    return max(0, schema.get("minimum", 0))


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A real ``duskfall web`` server for a browser-test module, with its own games folder and
    index (a module that needs another kind defines its own ``server``)."""
    from .browser_kit import running_server  # the kit imports this module

    root = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    (root / "games").mkdir()
    with running_server(root / "games", root / "index.db") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a browser-test module."""
    from .browser_kit import chromium

    with chromium() as running:
        yield running
