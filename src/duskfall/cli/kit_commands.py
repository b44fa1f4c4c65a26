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
    timeout: Annotated[float, typer.Option(help="seconds one game may take")] = 120.0,
) -> None:
    """Check a program of yours against a local server: every decision kind of every variant
    (rare ones forced), a reconnect, late answers and stale ids. Give its command after --
    (``{host}``/``{port}`` are filled in, else host and port are appended). Prints a
    pass/fail table; the exit status is 1 if a check failed (docs/protocol.md#check-bot)."""
    import asyncio

    from duskfall.kit.check_bot import FAIL, check, scenarios_for

    if not 0 < timeout <= MAX_GAME_SECONDS:  # nan fails too
        raise ConfigError(
            f"--timeout {timeout:g}: give the seconds one game may take, "
            f"more than 0 and at most {MAX_GAME_SECONDS:,}"
        )
    command = list(ctx.args)
    if command and command[0] == "--":
        command = command[1:]
    for name in variant or []:
        resolve_variant(name)
    chosen = scenarios_for(variant, scenario)

    def progress(line: str) -> None:
        console.print(line, highlight=False, markup=False)

    rows = asyncio.run(check(command, chosen, timeout=timeout, progress=progress))
    width = max(len(r.name()) for r in rows)
    console.print("", highlight=False)
    for row in rows:
        console.print(row.line(width), highlight=False, markup=False, soft_wrap=True)
    failed = sum(r.result == FAIL for r in rows)
    passed = sum(r.result == "pass" for r in rows)
    unreached = len(rows) - failed - passed
    console.print(
        f"\n{passed} passed, {failed} failed, {unreached} not reached",
        highlight=False,
        markup=False,
    )
    if failed:
        raise typer.Exit(1)
