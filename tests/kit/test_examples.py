"""The examples outside Python play every variant against the real server: the Node.js and
Perl clients over TCP, the browser page over WebSocket (in Chromium). Each plays one seat (the
others are the server's bots) without a refusal or a fallback."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from duskfall.server import GameServer, ServerSettings
from duskfall.store.log import read_log
from duskfall.testing import require_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
VARIANTS = ("sports-mafia", "werewolf", "mafia")
# seat 0 acts from the first decision on whatever the seed deals (mafia opens with a night)
CONFIGS = {
    "mafia": {
        "roles": ["MAFIA", "MAFIA", "DOCTOR", "SHERIFF", "VILLAGER", "VILLAGER", "VILLAGER"],
        "shuffle_roles": False,
    }
}
INSTALL = {"node": "apt-get install nodejs", "perl": "apt-get install perl"}
COMMANDS = {
    "node": ["node", str(EXAMPLES / "node" / "client.mjs")],
    "perl": ["perl", str(EXAMPLES / "perl" / "client.pl")],
}


def assert_clean_seat(log_dir: Path, seat: int = 0) -> None:
    """The example's seat answered every decision itself, each answer accepted."""
    (path,) = log_dir.glob("*.jsonl")
    log = read_log(path)
    assert log.header.roster[seat]["agent"].startswith("remote")
    mine = [e for e in log.events if e.payload.get("seat") == seat]
    assert [e for e in mine if e.kind == "action"], "the example never acted"
    bad = [e.kind for e in mine if e.kind in ("invalid_action", "fallback", "seat_stand_in")]
    assert bad == []


@pytest.mark.subprocess
@pytest.mark.parametrize("language", sorted(COMMANDS))
@pytest.mark.parametrize("variant", VARIANTS)
async def test_an_example_client_plays_a_whole_game(
    language: str, variant: str, tmp_path: Path
) -> None:
    program = require_program(COMMANDS[language][0], INSTALL[language])
    settings = ServerSettings(
        variant=variant,
        config=CONFIGS.get(variant, {}),
        port=0,
        games=1,
        fill_bots_after=0.2,
        seed=3,
        log_dir=tmp_path,
    )
    server = GameServer(settings)
    await server.start()
    try:
        process = await asyncio.create_subprocess_exec(
            program, *COMMANDS[language][1:], "127.0.0.1", str(server.port),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 120)
        await asyncio.wait_for(server.serve(), 30)
    finally:
        await server.close()
    print(f"{language} {variant}: {out.decode().strip()} {err.decode().strip()}")
    assert process.returncode == 0, err.decode()
    assert "game over" in out.decode() and "error" not in err.decode()
    assert_clean_seat(tmp_path)


@contextmanager
def _pages_served(folder: Path) -> Iterator[str]:
    """``folder`` served over HTTP on loopback (``python -m http.server``); its base URL."""
    handler = partial(SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as http:
        thread = threading.Thread(target=http.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{http.server_address[1]}"
        finally:
            http.shutdown()


@pytest.mark.browser
def test_the_browser_example_plays_over_websocket(tmp_path: Path, in_background: object) -> None:
    from duskfall.testing.web_server import chromium

    run = in_background  # a server on its own loop, in a thread

    async def start() -> GameServer:
        settings = ServerSettings(
            port=0, ws_port=0, games=1, fill_bots_after=0.5, seed=4, log_dir=tmp_path
        )
        server = GameServer(settings)
        await server.start()
        return server

    server: GameServer = run(start())  # type: ignore[operator]
    try:
        # served from loopback as the example says: a file: page's Origin (null) is refused
        with chromium() as browser, _pages_served(EXAMPLES / "browser") as pages:
            page = browser.new_page()
            page.goto(f"{pages}/index.html?ws=ws://127.0.0.1:{server.ws_port}/")
            page.wait_for_function("document.title.startsWith('game over')", timeout=60_000)
            log_text = page.inner_text("#log")
    finally:
        run(server.close())  # type: ignore[operator]
    assert "#1 " in log_text and "GAME_OVER" in log_text
    assert "ERROR" not in log_text
    assert_clean_seat(tmp_path)


def test_the_examples_are_linked_from_the_protocol_page() -> None:
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for path in (
        "examples/node/client.mjs",
        "examples/perl/client.pl",
        "examples/browser/index.html",
    ):
        assert f"../{path}" in page
