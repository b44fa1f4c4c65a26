"""``schema`` (the wire protocol's JSON Schema files) and ``check-bot`` (a bot's conformance)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from duskfall.cli import app
from duskfall.cli.common import resolve_variant
from duskfall.cli.console import safe_console
from duskfall.core.errors import ConfigError

console = safe_console()
MAX_GAME_SECONDS = 86_400  # check-bot --timeout: a day


@app.command()
def schema(
    out: Annotated[Path, typer.Option("--out", "-o", help="directory to write the files in")],
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="only this variant (default: all)")
    ] = None,
) -> None:
    """Write JSON Schema (draft 2020-12) files for every client and server message, every
    decision kind's action, every observation and every event, generated from the code that
    validates them (docs/protocol.md#schemas)."""
    from duskfall.kit.schemas import write

    variants = [resolve_variant(variant).id] if variant is not None else None
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file; give a directory")
    try:
        written = write(out, variants)
    except OSError as exc:
        raise ConfigError(f"cannot write schemas to {out}: {exc.strerror or exc}") from None
    console.print(
        f"{len(written)} schema files written to {out} (index: {out / 'index.json'})",
        highlight=False,
        markup=False,
    )


@app.command(
    "check-bot",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def check_bot(
    ctx: typer.Context,
    variant: Annotated[
        list[str] | None, typer.Option("--variant", "-v", help="only this variant (repeatable)")
    ] = None,
    scenario: Annotated[
        list[str] | None, typer.Option("--scenario", help="only this scenario (repeatable)")
    ] = None,
    timeout: Annotated[float, typer.Option(help="seconds one game may take")] = 600.0,
    deadline: Annotated[
        float, typer.Option(help="seconds the program has to answer each request (0.05-3600)")
    ] = 10.0,
    ws: Annotated[
        bool,
        typer.Option(
            "--ws", help="connect the program over WebSocket ({ws_url} filled in, else appended)"
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the result as one JSON document (for CI)")
    ] = False,
) -> None:
    """Check a program of yours against a local server: every decision kind of every variant
    (rare ones forced), state updates, a reconnect, late answers and stale ids. Give its command
    after -- (``{host}``/``{port}`` are filled in, else host and port are appended). Prints a
    pass/fail table and a one-line verdict; exit status 0 if every check reached passed, 1 if a
    check failed, 2 for a usage error (docs/protocol.md#check-bot)."""
    import asyncio
    import json
    import sys

    from duskfall.kit.check_bot import Row, check, scenarios_for

    if not 0 < timeout <= MAX_GAME_SECONDS:  # nan fails too
        raise ConfigError(
            f"--timeout {timeout:g}: give the seconds one game may take, "
            f"more than 0 and at most {MAX_GAME_SECONDS:,}"
        )
    if not 0.05 <= deadline <= 3600:  # nan fails too
        raise ConfigError(
            f"--deadline {deadline:g}: give the seconds the program has for each request, "
            "from 0.05 to 3600"
        )
    command = list(ctx.args)
    if command and command[0] == "--":
        command = command[1:]
    for name in variant or []:
        resolve_variant(name)
    chosen = scenarios_for(variant, scenario)

    def progress(line: str) -> None:
        if as_json:
            print(line, file=sys.stderr, flush=True)
        else:
            console.print(line, highlight=False, markup=False)

    report = asyncio.run(
        check(command, chosen, timeout=timeout, deadline=deadline, ws=ws, progress=progress)
    )
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=True, indent=1))
    else:
        rows = report.rows
        width = max(len(r.name()) for r in rows)
        lines = ["", Row.header(width), *(row.line(width) for row in rows)]
        for name, tail in report.stderr.items():
            lines += ["", f"the last lines of the program's standard error in {name}:"]
            lines += [f"  | {line}" for line in tail]
        lines += ["", report.summary()]
        for line in lines:
            console.print(line, highlight=False, markup=False, soft_wrap=True)
    if report.counts()[1]:
        raise typer.Exit(1)
