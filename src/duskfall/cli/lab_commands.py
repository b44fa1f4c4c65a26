"""``fork`` (play a logged game on from a moment, with other agents or one decision changed)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Annotated

import typer

from duskfall.cli import app
from duskfall.cli.common import OnSeatFailureOpt, parse_config_options
from duskfall.cli.console import announcer, safe_console
from duskfall.cli.display import ConsoleView, resume_hint, show_end
from duskfall.cli.game_commands import AgentOptionOpt, AgentsOpt, DbOpt
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import redact
from duskfall.lab.fork import ForkPlan, ForkRequest, plan_fork
from duskfall.runtime.settings import runtime_settings
from duskfall.session import PreparedGame
from duskfall.store.index import use_db
from duskfall.store.resume import log_path_for

console = safe_console(soft_wrap=True)

LogArg = Annotated[str, typer.Argument(help="a game log (.jsonl) or a game id in the index")]


@app.command()
def fork(
    log: LogArg,
    at: Annotated[
        str | None,
        typer.Option(
            "--at",
            help="where to fork: an event number, day:N, night:N or PHASE:N / DECISION:N "
            "(default with --replace: right after the replaced event)",
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
    out: Annotated[
        Path | None,
        typer.Option("--log", help="the fork's log (default: beside the parent's log)"),
    ] = None,
    retries: Annotated[int, typer.Option(help="re-asks after an invalid answer")] = 2,
    timeout: Annotated[float, typer.Option(help="seconds per decision")] = 120.0,
    on_seat_failure: OnSeatFailureOpt = "abort",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only print the result")] = False,
    agent_option: AgentOptionOpt = None,
    db: DbOpt = None,
) -> None:
    """Rebuild a logged game at a moment by replaying its actions, then play it on with the
    given agents (default: the same ones, with the same seed: the same game again).

    The fork's log names its parent (game id, event number, chain hash) and starts with a copy
    of the parent's events up to the fork; ``duskfall replay`` verifies both. Seats played by
    models are shown everything their seat saw before the fork, and nothing else.
    """
    if db is not None:
        use_db(db)
    request = ForkRequest(
        log_path_for(log),
        at=at,
        agents=agents,
        seed=seed,
        replace=replace,
        log_path=out,
        settings=runtime_settings(
            retries=retries, decision_timeout=timeout, on_seat_failure=on_seat_failure
        ),
        agent_options=parse_config_options(agent_option, None, "--agent-option"),
    )
    planned = plan_fork(request)
    started: list[PreparedGame] = []
    try:
        view, outcome = asyncio.run(_play(planned, quiet, started))
    except KeyboardInterrupt:
        console.print(resume_hint(started[0].log_path if started else None, db), highlight=False)
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
    console.print(f"[bold]{game.variant.name}[/]  fork {game.game_id}", highlight=False)
    where = f"day {state.day}, {state.phase}"
    console.print(
        f"forked from {origin.parent} at its event {origin.event} ({where})"
        + (f", event {origin.replaced} replaced" if origin.replaced is not None else ""),
        highlight=False,
    )
    console.print(
        f"seats: {', '.join(f'{s}:{redact(a)}' for s, a in enumerate(game.agents))}",
        highlight=False,
    )
    human = "human" in game.agents
    view = None if quiet or human else ConsoleView(game.variant, console)
    if view is not None:
        game.record.observers.append(view)
    return view, await game.run()
