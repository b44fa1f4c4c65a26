"""``tournament run|resume|status|report``: entrants rated over many scheduled games."""

from __future__ import annotations

import json
import shlex
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from duskfall.arena.driver_lock import driver_of
from duskfall.arena.progress import TournamentProgress, tournament_progress
from duskfall.arena.sealing import sealing_warning
from duskfall.arena.tournament import (
    CONFIG_COPY,
    TournamentInterrupted,
    dealt_as_stored,
    follow_moved_logs,
    run_tournament,
    stored_config,
)
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.arena.tournament_file import load_tournament
from duskfall.arena.tournament_run import RunEvent, RunSummary
from duskfall.cli import app
from duskfall.cli.console import safe_console
from duskfall.cli.progress import progress_bar, working
from duskfall.core.errors import ConfigError
from duskfall.core.terminal import plain
from duskfall.store.index import GameIndex
from duskfall.store.paths import default_db_path, use_db
from duskfall.store.sqlite_file import GameIndexError

console = safe_console(soft_wrap=True)
tournament_app = typer.Typer(
    help="Tournaments: entrants rotated through roles and sides, rated with intervals.",
    no_args_is_help=True,
)
app.add_typer(tournament_app, name="tournament")

ConfigArg = Annotated[Path, typer.Argument(help="tournament config (TOML)")]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", help="game index (default: $DUSKFALL_DB, else ./duskfall.db)"),
]
BackendOpt = Annotated[str, typer.Option("--backend", help="local (processes) or ray")]
AddressOpt = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (with --backend ray)")
]
EnvOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--env",
        help="a variable (e.g. an API key) workers on other machines need, taken from this "
        "shell and never logged; repeat for several",
    ),
]


def _db(db: Path | None) -> Path:
    if db is not None:
        use_db(db)
    path = default_db_path()
    if path is None:
        raise ConfigError("tournaments need the game index (DUSKFALL_DB=off); pass --db PATH")
    return path


def _config(config_path: Path, db: Path | None) -> tuple[TournamentConfig, Path]:
    """The tournament's config and index. A ``[[forks]]`` block's source games are those the
    tournament was started with (its stored copy), not what its glob finds today."""
    path = _db(db)
    config = load_tournament(config_path, path)
    games_dir = config.games_dir(config_path.resolve().parent)
    if path.exists() and (games_dir / CONFIG_COPY).exists():  # the deals it was started with
        config = dealt_as_stored(config, games_dir, path)
    if config.forks and path.exists():
        with GameIndex(path) as index:
            try:
                stored = stored_config(index, config.name)
            except ConfigError:
                return config, path
        if [b.source for b in stored.forks] == [b.source for b in config.forks]:
            pinned = [
                b.model_copy(update={"logs": s.logs})
                for b, s in zip(config.forks, stored.forks, strict=True)
            ]
            config = config.model_copy(update={"forks": pinned})
    return config, path


def _progress(config: TournamentConfig, db: Path, config_path: Path) -> TournamentProgress:
    """Where the tournament stands; logs moved with their folder (to another place or
    machine) are found in the config's games folder first, as ``resume`` finds them."""
    if not db.exists():
        raise ConfigError(f"no game index at {db}: tournament {config.name!r} has not started")
    with GameIndex(db) as index:
        games_dir = config.games_dir(config_path.resolve().parent)
        with suppress(GameIndexError, OSError):  # a read-only index: reading it still works
            follow_moved_logs(index, config.name, games_dir)
        return tournament_progress(config, index)


def _play(
    config_path: Path,
    db: Path | None,
    backend: str,
    address: str | None,
    env: list[str] | None,
    *,
    resume: bool,
) -> None:
    config, path = _config(config_path, db)
    path = path.resolve()
    if path.exists():
        with GameIndex(path) as index:
            started = index.tournament_games(config.name)
        if started and not resume:
            raise ConfigError(
                f"tournament {config.name!r} has {len(started)} game(s) already; "
                f"'duskfall tournament resume {config_path}' plays the rest"
            )
    sealing = sealing_warning(config.remote, config.games_dir(config_path.resolve().parent))
    if sealing is not None:
        console.print(f"warning: {sealing}", highlight=False, markup=False)
    _warn_design(config)
    with progress_bar(console, config.name, config.total_games) as bar:
        bar.update(note=f"scheduling {config.total_games:,} games, starting the first")

        def advance(event: RunEvent) -> None:
            spent = f"{event.tokens:,} tokens ${event.cost_usd:.4f}"
            bar.update(completed=event.done, note=spent)

        interrupted = False
        try:
            with _sigterm_as_interrupt():
                summary = run_tournament(
                    config,
                    base_dir=config_path.resolve().parent,
                    db=path,
                    backend=backend,
                    address=address,
                    progress=advance,
                    env=env or (),
                )
        except TournamentInterrupted as stopped:
            summary, interrupted = stopped.summary, True
    _summary_line(config, summary)
    if interrupted:
        hint = ["duskfall", "tournament", "resume", str(config_path), "--db", str(path)]
        if backend != "local":
            hint += ["--backend", backend]
        if address is not None:
            hint += ["--address", address]
        for name in env or ():
            hint += ["--env", name]
        console.print(
            "[yellow]interrupted:[/] the games in flight are lost; to play the rest: "
            + plain(shlex.join(hint))
        )
        sys.exit(130)


def _warn_design(config: TournamentConfig) -> None:
    """Say before play what the config's design cannot measure (the board will print "not
    measured by this design" there, never a number)."""
    from duskfall.arena.plan import design_gaps

    for line in design_gaps(config, inherent=False):  # two entrants: the board says so
        sys.stderr.write(f"warning: {line}\n")


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """A SIGTERM stops the run as Ctrl-C does (workers stopped, the resume hint shown)."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _summary_line(config: TournamentConfig, summary: RunSummary) -> None:
    spent = summary.spending.total
    console.print(
        f"{config.name}: {summary.played} game(s) played in {summary.seconds:.1f}s, "
        f"{spent.total_tokens:,} tokens (cached {spent.cached_tokens:,}), ${spent.cost_usd:.4f}"
    )
    if summary.lost_before:
        console.print(
            f"{summary.lost_before} game(s) in flight when the last driver stopped were "
            "played again"
        )
    if summary.retried:
        console.print(f"{summary.retried} failed tr(ies) played again")
    if summary.stopped_by:
        console.print(f"[yellow]stopped scheduling:[/] {plain(summary.stopped_by)}")
    if summary.failed:
        for line in summary.failed[:5]:
            console.print(f"[red]failed game:[/] {plain(line)}")
        if len(summary.failed) > 5:
            console.print(f"[red]... and {len(summary.failed) - 5} more failed game(s)[/]")
        if not summary.interrupted:
            sys.exit(1)


@tournament_app.command()
def run(
    config: ConfigArg,
    db: DbOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    env: EnvOpt = None,
) -> None:
    """Play a new tournament (every scheduled game, within its budgets)."""
    _play(config, db, backend, address, env, resume=False)


@tournament_app.command()
def resume(
    config: ConfigArg,
    db: DbOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    env: EnvOpt = None,
) -> None:
    """Play the missing games of a tournament: never played, lost in flight, or failed."""
    _play(config, db, backend, address, env, resume=True)


@tournament_app.command()
def status(config: ConfigArg, db: DbOpt = None) -> None:
    """Games finished (per node), in flight, failed and missing; the driver; spending."""
    loaded, path = _config(config, db)
    state = _progress(loaded, path, config)
    spent = state.spent().total
    driver = driver_of(loaded.games_dir(config.resolve().parent))
    console.print(
        f"{loaded.name}: {len(state.done)}/{len(state.schedule)} finished, "
        f"{len(state.in_flight) if driver else 0} in flight, {len(state.failed)} failed, "
        f"{len(state.missing)} to play; {spent.total_tokens:,} tokens, ${spent.cost_usd:.4f}"
    )
    reason = None
    if loaded.stop == "separated":
        from duskfall.arena.stopping import separation_looks

        reason = separation_looks(loaded, path).decide(len(state.schedule))
        if reason is not None:
            console.print(
                f'stopped by its rule (stop = "separated"): {reason}; nothing more to play',
                markup=False,
            )
    if driver is not None:
        console.print(f"driver: {driver}", markup=False)
    else:
        lost = len(state.in_flight) + len(state.lost) + len(state.interrupted)
        if lost:
            console.print(
                f"no driver running: {lost} game(s) were lost in flight (resume plays them)"
            )
        elif state.missing and reason is None:
            console.print(
                f"no driver running: {len(state.missing)} game(s) to play (resume plays them)"
            )
    nodes = state.games_per_node()
    if nodes:
        console.print(
            "games per node: " + ", ".join(f"{node} {n}" for node, n in nodes.most_common()),
            markup=False,
        )
    for record in state.failed[:5]:
        where = f" on {plain(record.node)}" if record.node else ""
        console.print(
            f"[red]failed:[/] slot {record.slot} after {record.attempts} tries{where}: "
            f"{plain(record.reason)}"
        )
    flagged = state.with_fallbacks
    if flagged:
        console.print(
            f"{len(flagged)} finished game(s) had fallback decisions "
            f"({sum(flagged.values())} in all); report --exclude-fallbacks leaves them out"
        )


@tournament_app.command()
def report(
    config: ConfigArg,
    db: DbOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="write the leaderboard CSV (one row per entrant)")
    ] = None,
    pairs_csv_path: Annotated[
        Path | None,
        typer.Option("--pairs-csv", help="write the pairs CSV (differences, verdicts)"),
    ] = None,
    html_path: Annotated[
        Path | None, typer.Option("--html", help="write a self-contained HTML report")
    ] = None,
    bootstrap: Annotated[
        int | None,
        typer.Option(
            min=0, max=10_000, help="deal resamples for the intervals (default: the config's)"
        ),
    ] = None,
    exclude_fallbacks: Annotated[
        bool,
        typer.Option("--exclude-fallbacks", help="leave out games with fallback decisions"),
    ] = False,
) -> None:
    """The board: deception and detection skills with 95% intervals, every pair's difference
    and verdict, held-out prediction, win rates by side and role, behaviour, spending."""
    from duskfall.report.leaderboard import build_report
    from duskfall.report.terminal import leaderboard_table

    loaded, path = _config(config, db)
    state = _progress(loaded, path, config)
    if exclude_fallbacks:
        state = state.without_fallbacks()
    with working(console, f"building the board from {len(state.done):,} games"):
        result = build_report(state, bootstrap=bootstrap)
        if csv_path is not None:
            _write(csv_path, result.csv())
        if pairs_csv_path is not None:
            _write(pairs_csv_path, result.pairs_csv())
        if html_path is not None:
            from duskfall.report.html_report import html_report

            _write(html_path, html_report(result))
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2, default=str) + "\n")
        return
    for table in leaderboard_table(result):
        console.print(table, soft_wrap=False)  # wrapped at words to the terminal's width


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None


@tournament_app.command()
def plan(
    config: ConfigArg,
    db: DbOpt = None,
    gap: Annotated[
        float,
        typer.Option(min=1, max=2000, help="the gap to separate, in rating points (Elo-like)"),
    ] = 100.0,
    proxy_games: Annotated[
        int,
        typer.Option(
            min=20, max=100_000, help="bot games per block to measure the outcome variance"
        ),
    ] = 200,
    as_json: Annotated[bool, typer.Option("--json", help="print the plan as JSON")] = False,
) -> None:
    """Games needed to separate a gap at 95% with 80% power, per schedule (from the games
    played so far as a pilot, else from the variants' measured outcome variance)."""
    from duskfall.arena.plan import make_plan
    from duskfall.cli.tournament_display import plan_table
    from duskfall.report.leaderboard import rated_by_slot
    from duskfall.report.results import played_game

    loaded, path = _config(config, db)
    if not loaded.variants:
        raise ConfigError(
            "tournament plan sizes [[variants]] blocks; a [[forks]] block plays its source "
            f"games x entrants x repeats ({loaded.total_games} games here): add source games or "
            "repeats to narrow its intervals"
        )
    pilot = []
    if path.exists():
        state = _progress(loaded, path, config)
        games = [played_game(row) for _, row in sorted(state.done.items())]
        forks = {s.index for s in state.schedule if s.fork is not None}
        rated = rated_by_slot(state, [g for g in games if g.slot not in forks])
        pilot = [g for _, g in sorted(rated.items()) if g is not None]
    measured = f"a pilot of {len(pilot)} games" if pilot else f"{proxy_games} bot games a block"
    with working(console, f"planning from {measured}"):
        result = make_plan(loaded.model_copy(update={"forks": []}), gap, pilot, proxy_games)
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
        return
    for part in plan_table(result, loaded):
        console.print(part, soft_wrap=False)
