"""``duskfall web``: the spectator, replay and play-in-the-browser pages."""

from __future__ import annotations

import errno
import importlib.util
import os
import socket
from pathlib import Path
from typing import Annotated

import typer

from duskfall.cli import app
from duskfall.cli.common import check_port
from duskfall.cli.console import safe_console
from duskfall.core.errors import ConfigError, MissingDependency

console = safe_console()

ADMIN_TOKEN_ENV = "DUSKFALL_ADMIN_TOKEN"


def _require_web_extra() -> None:
    for module in ("fastapi", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            raise MissingDependency(module, "web")


def _check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ConfigError(
                    f"port {port} on {host} is in use; pick another with --port"
                ) from None
            raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _sockets_per_client(given: int | None, max_connections: int) -> int:
    """The cap on one address's game sockets: below the cap on connections, so that the
    sockets of one address never leave no room for honest requests."""
    if given is None:
        return max(1, min(16, max_connections // 4))
    if given >= max_connections:
        raise ConfigError(
            f"--max-sockets-per-client {given} must be below --max-connections {max_connections}"
        )
    return given


@app.command()
def web(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        Path | None, typer.Option("--db", help="game index (default $DUSKFALL_DB or duskfall.db)")
    ] = None,
    games_dir: Annotated[
        Path, typer.Option("--games-dir", help="where game logs are read and written")
    ] = Path("games"),
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="also answer to this host name (repeatable); loopback and --host always are",
        ),
    ] = None,
    max_body: Annotated[
        int | None,
        typer.Option("--max-body", min=1, help="largest request body in bytes (default 1 MiB)"),
    ] = None,
    header_timeout: Annotated[
        float,
        typer.Option(min=0.1, help="seconds a request's headers may take (then 408, closed)"),
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option(min=0.1, help="seconds a request's body may take after its headers"),
    ] = 30.0,
    max_connections: Annotated[
        int,
        typer.Option(
            min=1,
            help="open connections at most; past it a new one evicts the one waiting longest "
            "for its request",
        ),
    ] = 500,
    max_sockets_per_client: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="game sockets one client address may hold open, below --max-connections "
            "(default 16, at most a quarter of it)",
        ),
    ] = None,
    line_rollouts: Annotated[
        int,
        typer.Option(
            min=10,
            max=2000,
            help="rollouts a point of the win lines computed ahead (key moments)",
        ),
    ] = 100,
) -> None:
    """Serve the web pages: game list, live games, replays, and seats to play in the browser.

    Prints the admin token at startup ($DUSKFALL_ADMIN_TOKEN chooses it). Slow clients are
    cut: headers and bodies have deadlines, and connections a cap (docs/web.md).
    """
    check_port(port)
    sockets = _sockets_per_client(max_sockets_per_client, max_connections)
    _require_web_extra()
    import uvicorn

    from duskfall.store.paths import default_db_path, use_db
    from duskfall.web.access import Access, new_token
    from duskfall.web.app import WebSettings, create_app
    from duskfall.web.guard import DEFAULT_MAX_BODY
    from duskfall.web.limits import ConnectionLimits, QueueingServer, guarded_http

    if db is not None:
        use_db(db)  # games started from the page are indexed there too
    db_path = db if db is not None else default_db_path()
    games_dir.mkdir(parents=True, exist_ok=True)
    token = os.environ.get(ADMIN_TOKEN_ENV) or new_token()
    _check_port_free(host, port)
    settings = WebSettings(
        games_dir=games_dir,
        db=db_path,
        access=Access(token),
        allow_hosts=(host, *(allow_host or ())),
        max_body=max_body or DEFAULT_MAX_BODY,
        max_sockets_per_client=sockets,
        line_rollouts=line_rollouts,
    )
    web_app = create_app(settings)
    shown_host = f"[{host}]" if ":" in host else host
    console.print(
        f"duskfall web on http://{shown_host}:{port}/  (games in {games_dir})", markup=False
    )
    # the one place the token is meant to be shown: past the console's redaction
    typer.echo(f"admin page: http://{shown_host}:{port}/#admin={token}")
    limits = ConnectionLimits(header_timeout, body_timeout, max_connections)
    config = uvicorn.Config(
        web_app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=settings.max_body,
        http=guarded_http(limits),
        backlog=limits.backlog,
    )
    QueueingServer(config).run()
