"""``games`` (list the game index) and ``resume`` (continue an interrupted game)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from duskfall.cli import app
from duskfall.cli.display import ConsoleView, outcome_line
from duskfall.runtime.settings import RuntimeSettings
from duskfall.store.index import (
    STATUSES,
    GameIndex,
    GameIndexError,
    GameRow,
    check_status,
    default_db_path,
    use_db,
)
from duskfall.store.resume import log_path_for, prepare_resume

console = Console()

DbOpt = Annotated[
    Path | None,
    typer.Option("--db", help="game index (default: $DUSKFALL_DB, else ./duskfall.db)"),
]


def open_index(db: Path | None) -> GameIndex:
    """The index named by ``--db``, else the default one (``--db`` also applies to new games)."""
    if db is not None:
        use_db(db)
    path = default_db_path()
    if path is None:
        raise GameIndexError("the game index is turned off (DUSKFALL_DB=off); pass --db PATH")
    if not path.exists():
        raise GameIndexError(f"no game index at {path} yet; it is created when a game is played")
    return GameIndex(path)


def seats_summary(row: GameRow) -> str:
    """``heuristic×7, llm:local×3``: who played, in seat order."""
    counts = Counter(seat.agent for seat in row.seats)
    return ", ".join(f"{agent}×{n}" for agent, n in counts.items())


def status_text(row: GameRow) -> str:
    if row.status == "running" and row.process_alive is False:
        return "[yellow]interrupted[/]"
    colour = {"running": "cyan", "finished": "green", "aborted": "red"}.get(row.status, "")
    return f"[{colour}]{row.status}[/]" if colour else row.status


@app.command()
def games(
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="only this variant")] = (
        None
    ),
    status: Annotated[
        str | None, typer.Option("--status", "-s", help=f"only {', '.join(STATUSES)}")
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="only games with this agent, agent kind or model"),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="at most this many")] = 20,
    offset: Annotated[int, typer.Option("--offset", min=0, help="skip the newest N")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    db: DbOpt = None,
) -> None:
    """List indexed games, newest first."""
    if status is not None:
        check_status(status)
    with open_index(db) as index:
        rows = index.list_games(
            variant=variant, status=status, agent=agent, limit=limit, offset=offset
        )
        total = index.count_games(variant=variant, status=status, agent=agent)
    if as_json:
        for row in rows:
            print(json.dumps(asdict(row), ensure_ascii=False))
        return
    table = Table(title=f"{len(rows)} of {total} games in {index.path}")
    for column in ("game", "variant", "status", "winner", "days", "seats", "tokens", "cost $"):
        table.add_column(column, justify="right" if column in ("days", "tokens") else "left")
    table.add_column("started")
    for row in rows:
        table.add_row(
            row.id,
            row.variant,
            status_text(row),
            escape(row.winner or ("-" if row.status != "finished" else "draw")),
            str(row.days),
            escape(seats_summary(row)),
            f"{row.tokens:,}",
            f"{row.cost_usd:.4f}",
            row.started_at[:19].replace("T", " "),
        )
    console.print(table)


@app.command()
def resume(
    game: Annotated[str, typer.Argument(help="a game id (or unique prefix) or a log path")],
    db: DbOpt = None,
    retries: Annotated[int, typer.Option(help="re-asks after an invalid answer")] = 2,
    timeout: Annotated[float, typer.Option(help="seconds per decision")] = 120.0,
    force: Annotated[
        bool, typer.Option("--force", help="resume even if the index says it is running")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only print the result")] = False,
) -> None:
    """Continue an interrupted game from its log, appending to the same log."""
    if db is not None:
        use_db(db)
    path = log_path_for(game)
    resumed = prepare_resume(
        path,
        settings=RuntimeSettings(retries=retries, decision_timeout=timeout),
        force=force,
    )
    if resumed.repaired is not None:
        console.print(f"[yellow]repaired:[/] {resumed.repaired}; cut back to the whole events")
    prepared = resumed.game
    state = prepared.state
    console.print(
        f"[bold]{prepared.variant.name}[/]  seed {prepared.header.seed}  game {prepared.game_id}"
    )
    waiting = ", ".join(map(str, resumed.waiting)) or "nobody"
    console.print(
        f"resuming after {resumed.kept_events} logged events at day {state.day}, "
        f"{state.phase}; waiting for seat(s) {waiting}",
        highlight=False,
    )
    if not quiet:
        prepared.record.observers.append(ConsoleView(prepared.variant, console))
    outcome = asyncio.run(resumed.run())
    console.print(outcome_line(outcome))
    console.print(f"log appended to {path}")
