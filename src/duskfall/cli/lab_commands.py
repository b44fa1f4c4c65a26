"""``fork`` (play a logged game on from a moment, with other agents or one decision changed) and
``analyse`` (its win-probability line and the moments that swung it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from duskfall.cli import app
from duskfall.cli.common import (
    OnSeatFailureOpt,
    QuietOpt,
    RetriesOpt,
    TimeoutOpt,
    parse_config_options,
)
from duskfall.cli.console import announcer, safe_console
from duskfall.cli.display import ConsoleView, follow, resume_hint, show_end
from duskfall.cli.game_commands import AgentOptionOpt, AgentsOpt, DbOpt
from duskfall.cli.progress import progress_bar
from duskfall.core.errors import ConfigError
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import redact, redact_value
from duskfall.core.terminal import plain, printable_json
from duskfall.lab.fork import ForkPlan, ForkRequest, load_parent, open_index, plan_fork
from duskfall.lab.leaks import LeakReport, leak_report
from duskfall.lab.rollouts import DEFAULT_POLICY
from duskfall.lab.sampled_line import sampled_line
from duskfall.lab.samples import sample_forks
from duskfall.lab.winline import DEFAULT_ROLLOUTS, WinLine, win_line
from duskfall.runtime.settings import runtime_settings
from duskfall.session import PreparedGame
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import GameLog
from duskfall.store.paths import use_db
from duskfall.store.resume import log_path_for

console = safe_console(soft_wrap=True)

BAR = 12  # characters of a point's bar

LogArg = Annotated[str, typer.Argument(help="a game log (.jsonl) or a game id in the index")]
MaxCallsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-calls",
        min=1,
        help="with --samples: start no more samples once the model calls after the fork "
        "point(s) reach N",
    ),
]


@app.command()
def fork(
    log: LogArg,
    at: Annotated[
        str | None,
        typer.Option(
            "--at",
            help="where to fork: an event number, day:N, night:N or PHASE:N / DECISION:N "
            "(default with --replace or --set-result: right after the changed event)",
        ),
    ] = None,
    agents: AgentsOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(help="the seats' seed (default: the parent's; the deal stays the parent's)"),
    ] = None,
    replace: Annotated[
        str | None,
        typer.Option(
            "--replace",
            help="SEQ=TEXT: new words for the speech at event SEQ; SEQ='{\"type\": ...}': a new "
            "action in its place",
        ),
    ] = None,
    set_result: Annotated[
        str | None,
        typer.Option(
            "--set-result",
            help="SEQ=VALUE: the seat told a private result at event SEQ (a role's check) is "
            "told VALUE instead (good|evil); the fork's header records it",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--log", help="the fork's log (default: beside the parent's log)"),
    ] = None,
    unfinished: Annotated[
        bool,
        typer.Option(
            "--unfinished",
            help="fork a game that has not ended (its fork would show the roles it hides)",
        ),
    ] = False,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=1,
            max=100_000,
            help="play the fork N times, each with its own seats' seed, and show how they "
            "ended (no logs written)",
        ),
    ] = None,
    max_calls: MaxCallsOpt = None,
    retries: RetriesOpt = 2,
    timeout: TimeoutOpt = 120.0,
    on_seat_failure: OnSeatFailureOpt = "abort",
    quiet: QuietOpt = False,
    agent_option: AgentOptionOpt = None,
    db: DbOpt = None,
) -> None:
    """Rebuild a logged game at a moment by replaying its actions, then play it on with the
    given agents (default: the same ones, with the same seed: the same game again). With
    ``--samples N``: N continuations, each with its own seed, and the share each side won.

    The fork's log names its parent (game id, event number, chain hash) and starts with a copy
    of the parent's events up to the fork; ``duskfall replay`` verifies both. Seats played by
    models are shown everything their seat saw before the fork, and nothing else.
    """
    if db is not None:
        use_db(db)
    if max_calls is not None and samples is None:
        raise ConfigError("--max-calls bounds --samples; give --samples N too")
    settings = runtime_settings(
        retries=retries, decision_timeout=timeout, on_seat_failure=on_seat_failure
    )
    options = parse_config_options(agent_option, None, "--agent-option")
    index = open_index(create=samples is None)  # opened once: the game id, parent and fork's row
    try:
        source = log_path_for(log, index=index)
    except BaseException:
        if index is not None:
            index.close()
        raise
    request = ForkRequest(
        source,
        at=at,
        agents=agents,
        seed=seed,
        replace=replace,
        set_result=set_result,
        log_path=out,
        settings=settings,
        agent_options=options,
        unfinished=unfinished,
    )
    if samples is not None:
        with contextlib.closing(index) if index is not None else contextlib.nullcontext():
            found = asyncio.run(sample_forks(request, samples, max_calls, index=index))
        console.print(f"{found.n} continuations from the same position, each its own seed:")
        for line in found.describe():
            console.print(f"  {plain(line)}", highlight=False)
        return
    planned = plan_fork(request, index=index)
    started: list[PreparedGame] = []
    try:
        view, outcome = asyncio.run(_play(planned, quiet, started))
    except KeyboardInterrupt:
        hint = resume_hint(started[0].log_path if started else None, db)
        console.print(hint, highlight=False, markup=False)
        sys.exit(130)
    game = started[0]
    show_end(console, outcome, game.header.seats_seed, f"log written to {game.log_path}", view)


async def _play(
    planned: ForkPlan, quiet: bool, started: list[PreparedGame]
) -> tuple[ConsoleView | None, Outcome]:
    await planned.preflight(announcer(console))
    game = planned.start()
    started.append(game)
    origin, state = planned.origin, game.state
    console.print(f"[bold]{game.variant.name}[/]  fork {plain(game.game_id)}", highlight=False)
    where = f"day {state.day}, {state.phase}"
    console.print(
        f"forked from {origin.parent} at its event {origin.event} ({where})" + origin.changes(),
        highlight=False,
        markup=False,
    )
    console.print(
        f"seats: {', '.join(f'{s}:{redact(a)}' for s, a in enumerate(game.agents))}",
        highlight=False,
        markup=False,
    )
    return follow(game, console, quiet), await game.run()


@app.command()
def analyse(
    log: LogArg,
    policy: Annotated[
        str,
        typer.Option(
            "--policy", help="the bots that play the rollouts (an agent spec of bots only)"
        ),
    ] = DEFAULT_POLICY,
    rollouts: Annotated[
        int, typer.Option("--rollouts", "-n", min=1, max=100_000, help="rollouts per point")
    ] = DEFAULT_ROLLOUTS,
    seed: Annotated[int, typer.Option(help="the rollouts' seed")] = 0,
    every: Annotated[
        str, typer.Option("--every", help="a point at every 'phase' boundary or every 'round'")
    ] = "phase",
    at: Annotated[
        str | None,
        typer.Option("--at", help="only this moment (as fork --at names it), and the end"),
    ] = None,
    top: Annotated[int, typer.Option("--top", min=0, help="swings to list")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="print the line as JSON")] = False,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=1,
            max=10_000,
            help="estimate each point from N continuations played by the game's own agents "
            "(models included; fork --samples) instead of bot rollouts",
        ),
    ] = None,
    agents: Annotated[
        str | None,
        typer.Option("--agents", help="with --samples: the agents that play them on"),
    ] = None,
    max_calls: MaxCallsOpt = None,
    db: DbOpt = None,
) -> None:
    """The village's chance of winning from each moment of a logged game, estimated by seeded
    Monte Carlo rollouts of bots, the moments that swung it most, and what seats gave away in
    public (self-exposure, leaks of private text, a seer's false claims).

    The line is an estimate under the chosen bot policy (what those bots would make of each
    position), not a statement about the game's own players; with ``--samples N`` it is what
    the game's own agents (models too, within ``--max-calls``) made of N continuations from
    each point.
    """
    if db is not None:
        use_db(db)
    if every not in ("phase", "round"):
        raise ConfigError(f"--every {every!r}: give 'phase' or 'round'")
    if samples is None and (agents is not None or max_calls is not None):
        raise ConfigError("--agents and --max-calls go with --samples N")
    if samples is not None and (policy != DEFAULT_POLICY or rollouts != DEFAULT_ROLLOUTS):
        raise ConfigError("--policy and --rollouts make the bot line; --samples replaces it")
    chosen: Literal["phase", "round"] = "round" if every == "round" else "phase"
    parent = load_parent(log_path_for(log))
    game_log = parent.log
    unit = "rollouts" if samples is None else "samples"
    with progress_bar(console, f"{samples or rollouts} {unit} a point", 1) as bar:

        def advance(done: int, total: int) -> None:
            bar.update(completed=done / total, note=f"{done}/{total} {unit}")

        if samples is None:
            line = win_line(
                game_log,
                policy=policy,
                rollouts=rollouts,
                seed=seed,
                every=chosen,
                at=at,
                progress=advance,
            )
        else:
            line = asyncio.run(
                sampled_line(
                    parent,
                    samples=samples,
                    max_calls=max_calls,
                    agents=agents,
                    seed=seed,
                    every=chosen,
                    at=at,
                    progress=advance,
                )
            )
    leaks = leak_report(game_log)  # the whole game: a fork's prefix too (a replaced speech)
    prefix = _own_part(game_log)
    if as_json:
        data = {**line.to_dict(), "leaks": {**_leaks_dict(leaks), "prefix": prefix}}
        print(printable_json(json.dumps(redact_value(data), ensure_ascii=False)))
        return
    show_line(line, top)
    show_leaks(leaks, prefix)


def _own_part(log: GameLog) -> int:
    """Where a game's own events start: after a fork's prefix (its parent's), else 0."""
    origin = ForkOrigin.of(log.header)
    return 0 if origin is None else origin.prefix


def _leaks_dict(report: LeakReport) -> dict[str, Any]:
    return {
        "seats": {str(seat): m.summary() for seat, m in sorted(report.seats.items())},
        "findings": [asdict(finding) for finding in report.findings],
    }


def show_leaks(report: LeakReport, prefix: int = 0) -> None:
    """What seats gave away in public (self-exposure, leaks, a seer's false claims); a fork's
    findings before ``prefix`` (its parent's events, or a replaced one) are marked so."""
    if not report.findings:
        console.print("no self-exposure, leak or false seer claim found")
        return
    console.print(f"[bold]{len(report.findings)} tell(s)[/]")
    for finding in report.findings:
        shown = finding.evidence if len(finding.evidence) <= 90 else finding.evidence[:87] + "..."
        where = " (before the fork)" if finding.event < prefix else ""
        console.print(
            f"  event {finding.event}{where}, seat {finding.seat}: "
            f"{finding.kind.replace('_', ' ')}: {plain(repr(redact(shown)))}",
            highlight=False,
        )


def show_line(line: WinLine, top: int) -> None:
    """The line as a table with a bar per point, then its largest swings and what it is."""
    title = Text(f"{line.side}'s chance of winning, game {line.game_id}")
    table = Table(title=title, box=box.SIMPLE)
    table.add_column("moment", overflow="fold")
    table.add_column("event", justify="right", no_wrap=True)
    table.add_column("chance", justify="right", no_wrap=True)
    table.add_column("95% interval", no_wrap=True)
    if line.sampled is not None:
        table.add_column("samples", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for point in line.points:
        low, high = point.interval()
        rate = point.chance.rate
        filled = round(rate * BAR)
        cells = [
            plain(point.label),
            str(point.event),
            f"{rate:.0%}",
            "exact" if point.exact else f"{low:.0%}-{high:.0%}",
        ]
        if line.sampled is not None:
            cells.append("" if point.exact else str(point.rollouts))
        table.add_row(*cells, "#" * filled + "." * (BAR - filled))
    console.print(table)
    swings = line.swings(top)
    if swings:
        console.print("[bold]largest swings[/]")
        for swing in swings:
            console.print(f"  {plain(swing.describe(line.side))}", highlight=False)
    console.print(f"[dim]{plain(line.note)}[/]", highlight=False)
