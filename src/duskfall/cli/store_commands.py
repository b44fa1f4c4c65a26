"""``games`` (list the game index) and ``resume`` (continue an interrupted game)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from duskfall.cli import app
from duskfall.cli.common import OnSeatFailureOpt, QuietOpt, RetriesOpt, TimeoutOpt
from duskfall.cli.console import announcer, safe_console
from duskfall.cli.display import ConsoleView, follow, resume_hint, roles_line, show_end
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import redact
from duskfall.core.terminal import plain, printable_json
from duskfall.runtime.settings import runtime_settings
from duskfall.session import ResumedGame, ResumePlan, plan_resume
from duskfall.store.index import GameIndex, GameIndexError, check_status
from duskfall.store.log import read_log
from duskfall.store.paths import default_db_path, use_db
from duskfall.store.resume import log_path_for
from duskfall.store.rows import LISTED_STATUSES, GameRow

console = safe_console()
err_console = safe_console(stderr=True)

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
    return f"[{colour}]{row.status}[/]" if colour else plain(row.status)


@dataclass(frozen=True)
class Column:
    """A column of the ``games`` table; narrow terminals drop the lowest ``keep`` first."""

    title: str
    cell: Callable[[GameRow], str]
    keep: int
    justify: Literal["left", "right"] = "left"
    markup: bool = False  # the cell is rich markup of ours; else it is shown as it is

    def text(self, value: str) -> Text:
        return Text.from_markup(value) if self.markup else Text(value)


COLUMNS = (
    Column("game", lambda r: r.id, 9),
    Column("variant", lambda r: r.variant, 3),
    Column("status", status_text, 8, markup=True),
    Column("winner", lambda r: r.winner or ("draw" if r.status == "finished" else "-"), 7),
    Column("days", lambda r: str(r.days), 5, "right"),
    Column("seats", seats_summary, 6),
    Column("fork of", lambda r: f"{r.parent} @{r.parent_event}" if r.parent else "", 2),
    Column("tokens", lambda r: f"{r.tokens:,}", 4, "right"),
    Column("cached", lambda r: f"{r.cached_tokens:,}", 2, "right"),
    Column("cost $", lambda r: f"{r.cost_usd:.4f}", 2, "right"),
    Column("started", lambda r: r.started_at[5:16].replace("T", " "), 1),
)


def fitting_columns(cells: list[list[str]], width: int) -> list[int]:
    """Indexes of the columns to show: all that fit in ``width``, most important first."""
    widths = [
        max([len(Text.from_markup(row[i]).plain) for row in cells] + [len(c.title)]) + 3
        for i, c in enumerate(COLUMNS)
    ]
    # a column no listed game fills (no fork among them) is left out
    shown = [i for i in range(len(COLUMNS)) if any(row[i] for row in cells) or not cells]
    for i in sorted(shown, key=lambda i: COLUMNS[i].keep):
        if sum(widths[j] for j in shown) <= width or len(shown) == 1:
            break
        shown.remove(i)
    return shown


@app.command()
def games(
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="only this variant")] = (
        None
    ),
    status: Annotated[
        str | None, typer.Option("--status", "-s", help=f"only {', '.join(LISTED_STATUSES)}")
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="only games with this agent, agent kind or model"),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="at most this many")] = 20,
    offset: Annotated[int, typer.Option("--offset", min=0, help="skip the newest N")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="one JSON object per line (with the seeds)")
    ] = False,
    repair: Annotated[
        bool,
        typer.Option(
            "--repair", help="only close rows left running by a dead process, and say which"
        ),
    ] = False,
    forks_of: Annotated[
        str | None,
        typer.Option("--forks-of", help="only the forks of this game (id, prefix or log)"),
    ] = None,
    db: DbOpt = None,
) -> None:
    """List indexed games, newest first (a local admin tool: ``--json`` shows seeds).

    ``tokens`` counts prompt and completion tokens; ``cached``, the prompt tokens the
    providers read from their caches instead of evaluating them.

    Opening the index repairs rows left ``running`` by a process that died after the game
    ended (or before it started); what changed is printed to stderr.
    """
    if status is not None:
        check_status(status)
    with open_index(db) as index:
        repairs = index.repairs  # made when the index was opened
        if repair:
            for change in repairs:
                console.print(f"repaired {change}", highlight=False, markup=False)
            if not repairs:
                console.print(
                    "nothing to repair: every running game's process is alive or resumable"
                )
            return
        for change in repairs:
            err_console.print(f"repaired {change}", highlight=False, markup=False)
        if forks_of is not None:
            rows = index.children(_game_id(forks_of, index))
            total = len(rows)
            rows = rows[offset : offset + limit]
        else:
            rows = index.list_games(
                variant=variant, status=status, agent=agent, limit=limit, offset=offset
            )
            total = index.count_games(variant=variant, status=status, agent=agent)
    if as_json:
        for row in rows:
            print(printable_json(redact(json.dumps(asdict(row), ensure_ascii=False))))
        return
    title = Text(f"{len(rows)} of {total} games in {index.path}")
    table = Table(title=title, box=box.SIMPLE_HEAD)
    cells = [[cell(row) for cell in (c.cell for c in COLUMNS)] for row in rows]
    shown = fitting_columns(cells, console.width)
    for i in shown:
        column = COLUMNS[i]
        table.add_column(column.title, justify=column.justify, no_wrap=True)
    for values in cells:
        table.add_row(*(COLUMNS[i].text(values[i]) for i in shown))
    console.print(table)


def _game_id(given: str, index: GameIndex) -> str:
    """The id of a game given by id, unique id prefix, or log path."""
    path = Path(given)
    if path.suffix == ".jsonl" or path.is_file():
        return read_log(path, strict=False).header.game_id
    return index.get(given).id


@app.command()
def resume(
    game: Annotated[str, typer.Argument(help="a game id (or unique prefix) or a log path")],
    db: DbOpt = None,
    retries: RetriesOpt = 2,
    timeout: TimeoutOpt = 120.0,
    on_seat_failure: OnSeatFailureOpt = "abort",
    force: Annotated[
        bool, typer.Option("--force", help="resume even if the index says it is running")
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Continue an interrupted game from its log, appending to the same log (its model-backed
    seats are checked first, as for a new game)."""
    if db is not None:
        use_db(db)
    path = log_path_for(game)
    settings = runtime_settings(
        retries=retries, decision_timeout=timeout, on_seat_failure=on_seat_failure
    )
    planned = plan_resume(path, settings=settings, force=force)
    try:
        view, outcome, resumed = asyncio.run(_resume(planned, quiet))
    except KeyboardInterrupt:
        console.print(resume_hint(path, db), highlight=False, markup=False)
        sys.exit(130)
    played = resumed.game
    roles = roles_line(played.state) if "human" in played.agents else None
    show_end(console, outcome, played.header.seed, f"log appended to {path}", view, roles)


async def _resume(
    planned: ResumePlan, quiet: bool
) -> tuple[ConsoleView | None, Outcome, ResumedGame]:
    """Check the seats, then continue the game to its end."""
    await planned.preflight(announcer(console))
    resumed = planned.start()
    if resumed.repaired is not None:
        console.print(
            f"[yellow]repaired:[/] {plain(resumed.repaired)}; cut back to the whole events"
        )
    prepared = resumed.game
    state = prepared.state
    console.print(f"[bold]{prepared.variant.name}[/]  game {plain(prepared.game_id)}")
    waiting = ", ".join(map(str, resumed.waiting)) or "nobody"
    console.print(
        f"resuming after {resumed.kept_events} logged events at day {state.day}, "
        f"{state.phase}; waiting for seat(s) {waiting}",
        highlight=False,
    )
    return follow(prepared, console, quiet), await resumed.run(), resumed
