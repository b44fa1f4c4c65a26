"""``export``: indexed games as a dataset (Parquet or JSON Lines) with its card."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from duskfall.cli import app
from duskfall.cli.console import safe_console
from duskfall.cli.progress import progress_bar
from duskfall.cli.store_commands import DbOpt, open_index
from duskfall.core.errors import ConfigError
from duskfall.export.dataset import export_games
from duskfall.store.index import GameIndex, check_status

console = safe_console()
err_console = safe_console(stderr=True)


@app.command()
def export(
    out: Annotated[Path, typer.Option("--out", "-o", help="a new or empty directory")],
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="parquet (needs duskfall[export]) or jsonl")
    ] = "parquet",
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="only this variant")] = (
        None
    ),
    status: Annotated[
        str | None, typer.Option("--status", "-s", help="only finished or aborted games")
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="only games with this agent, agent kind or model"),
    ] = None,
    tournament: Annotated[
        str | None, typer.Option("--tournament", "-t", help="only this tournament's games")
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", "-n", help="at most this many (-1, the default: all)")
    ] = -1,
    offset: Annotated[int, typer.Option("--offset", min=0, help="skip the newest N")] = 0,
    db: DbOpt = None,
) -> None:
    """Write indexed games as a dataset: games, decisions and events, each as a public file
    and a ``_hidden`` one (observations, prompts, actions, reasoning, the seed), plus a
    dataset card (README.md). Games still running or without a log are left out."""
    if limit < -1:
        raise ConfigError(f"--limit {limit}: give a number of games, or -1 for all")
    if status is not None:
        check_status(status)
    with open_index(db) as index:
        if tournament is not None:
            _known_tournament(index, tournament)
            rows = [
                r
                for r in index.tournament_games(tournament)
                if (variant is None or r.variant == variant)
                and (status is None or r.status == status)
            ]
            if agent is not None:
                wanted = {r.id for r in index.list_games(agent=agent, limit=-1)}
                rows = [r for r in rows if r.id in wanted]
            rows = rows[offset:] if limit < 0 else rows[offset : offset + limit]
        else:
            rows = index.list_games(
                variant=variant, status=status, agent=agent, limit=limit, offset=offset
            )
    if not rows:
        asked = _filters(variant, status, agent, tournament, offset)
        raise ConfigError(f"no indexed game matches {asked}: nothing to export")
    command = "duskfall " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "duskfall export"
    with progress_bar(err_console, "exporting games", len(rows)) as bar:
        result = export_games(rows, out, fmt, command, index.path, progress=bar)
    for name, count in result.files.items():
        console.print(f"{count:>9,}  {out / name}", highlight=False, markup=False)
    left = ", ".join(f"{n} {why}" for why, n in sorted(result.skipped.items()))
    console.print(
        f"{result.games} games exported to {out} (card: {out / 'README.md'})"
        + (f"; left out: {left}" if left else ""),
        highlight=False,
        markup=False,
    )


def _known_tournament(index: GameIndex, name: str) -> None:
    """Refuse a tournament the index has no game of, naming the ones it has."""
    known = [row[0] for row in index.tournaments()]
    if name not in known:
        listed = f"; it has: {', '.join(known[:10])}" if known else "; it has none"
        raise ConfigError(f"--tournament {name}: no such tournament in {index.path}{listed}")


def _filters(
    variant: str | None, status: str | None, agent: str | None, tournament: str | None, offset: int
) -> str:
    """The filters a user gave, as options (``--variant x --status finished``)."""
    given = [
        f"{option} {value}"
        for option, value in (
            ("--variant", variant),
            ("--status", status),
            ("--agent", agent),
            ("--tournament", tournament),
            ("--offset", offset or None),
        )
        if value is not None
    ]
    return " ".join(given) if given else "(the index holds no game)"
