"""The web app served for real, for browser tests and screenshots: uvicorn in a thread on a
free loopback port, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duskfall.testing.require import require, require_program
from duskfall.web.access import Access
from duskfall.web.app import WebSettings, create_app
from duskfall.web.moments import DEFAULT_ROLLOUTS
from duskfall.web.socket_routes import DEFAULT_SOCKETS_PER_CLIENT

if TYPE_CHECKING:
    from duskfall.web.limits import ConnectionLimits

BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
START_SECONDS = 10


@dataclass
class Server:
    url: str
    games_dir: Path
    db: Path


@contextmanager
def running_server(
    games_dir: Path,
    db: Path,
    admin_token: str,
    limits: ConnectionLimits | None = None,
    sockets_per_client: int = DEFAULT_SOCKETS_PER_CLIENT,
    line_rollouts: int = DEFAULT_ROLLOUTS,
) -> Iterator[Server]:
    """``duskfall web``'s app over ``games_dir`` and the index ``db``, until the block ends
    (with ``duskfall web``'s connection limits, or ``limits``, and at most
    ``sockets_per_client`` game sockets open from one address; win lines computed ahead with
    ``line_rollouts`` rollouts a point)."""
    settings = WebSettings(
        games_dir=games_dir,
        db=db,
        access=Access(admin_token),
        max_sockets_per_client=sockets_per_client,
        line_rollouts=line_rollouts,
    )
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uvicorn = require("uvicorn", "pip install 'duskfall[web]'")
    from duskfall.web.limits import ConnectionLimits, QueueingServer, guarded_http

    limits = limits or ConnectionLimits()
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        lifespan="on",
        http=guarded_http(limits),
        backlog=limits.backlog,
    )
    server = QueueingServer(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:  # start-up of our own server thread
        if time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", games_dir, db)
    finally:
        server.should_exit = True
        thread.join(timeout=START_SECONDS)
        sock.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium (the distribution's package) under Playwright."""
    sync_api = require("playwright.sync_api", "pip install 'duskfall[test]'")
    executable = require_program("chromium", "apt-get install chromium")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        try:
            yield browser
        finally:
            browser.close()
