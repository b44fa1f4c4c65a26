"""``run-bot``: play one seat with a program that speaks JSON lines on stdin and stdout."""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated

import typer

from duskfall.cli import app
from duskfall.cli.common import HelloTimeout, SeatToken, check_port
from duskfall.cli.console import safe_console
from duskfall.core.errors import ConfigError

console = safe_console(stderr=True)


@app.command("run-bot", context_settings={"allow_interspersed_args": False})
def run_bot(
    command: Annotated[list[str], typer.Argument(help="the bot's command, after --")],
    host: Annotated[str, typer.Option(help="server address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="server port")] = 8765,
    name: Annotated[str | None, typer.Option(help="name sent to the server")] = None,
    token: SeatToken = None,
    timeout: HelloTimeout = 10.0,
) -> None:
    """Play one seat with a program that reads one request per line on its standard input and
    writes one action per line (JSON) on its standard output: no socket code needed. Each
    line in is the server's ACTION_REQUEST plus the events since the last one (see
    docs/protocol.md, "Bots on standard input and output")."""
    from duskfall.client.aio import NoHello
    from duskfall.client.stdio_bot import BotProgramError
    from duskfall.client.stdio_bot import run_bot as play

    check_port(port)
    try:
        over = asyncio.run(
            play(host, port, command, token=token, name=name, connect_timeout=timeout)
        )
    except (OSError, TimeoutError, NoHello) as exc:
        raise ConfigError(f"cannot play at {host}:{port}: {exc}") from None
    except BotProgramError as exc:
        console.print(f"run-bot: {exc}", markup=False, highlight=False)
        sys.exit(1)
    if over is None:
        console.print("run-bot: the connection closed before the end", markup=False)
        sys.exit(1)
