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
