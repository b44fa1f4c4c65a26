"""``play``, ``simulate`` and ``replay``."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from duskfall.arena.simulate import simulate as run_simulation
from duskfall.cli import app
from duskfall.cli.common import (
    OnSeatFailureOpt,
    QuietOpt,
    RetriesOpt,
    TimeoutOpt,
    default_agents,
    parse_config_options,
    pick_seed,
    resolve_variant,
    with_humans,
    with_preset,
)
from duskfall.cli.console import announcer, safe_console
from duskfall.cli.display import ConsoleView, outcome_line, resume_hint, roles_line, show_end
from duskfall.cli.progress import progress_bar
from duskfall.core.errors import ConfigError
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import redact
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.terminal import plain
from duskfall.lab.lineage import verify_fork
from duskfall.runtime.settings import runtime_settings
from duskfall.session import GamePlan, GameSetup, PreparedGame, assemble, plan_game
from duskfall.store.anchor import check_not_cut, unfinished_note
from duskfall.store.log import GameLog, TornLine, read_log
from duskfall.store.paths import use_db
from duskfall.store.replay import replay as replay_log
from duskfall.store.signatures import Trust, Verdict, checking_signer, signature_of

console = safe_console(soft_wrap=True)

VariantOpt = Annotated[str, typer.Option("--variant", "-v", help="sports-mafia, werewolf, mafia")]
AgentsOpt = Annotated[
    str | None,
    typer.Option(
        "--agents",
        "-a",
        help="agent spec: 'heuristic', 'town=heuristic,mafia=random', 'llm:local', "
        "'mix:heuristic@0.5/random' (each decision by the first with probability 0.5), "
        "a per-seat list",
    ),
]
SetOpt = Annotated[
    list[str] | None, typer.Option("--set", help="config option KEY=VALUE (repeatable)")
]
ConfigFileOpt = Annotated[str | None, typer.Option("--config-file", help="JSON config file")]
PresetOpt = Annotated[str | None, typer.Option("--preset", help="role preset (werewolf)")]
AgentOptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--agent-option",
        help="option for the agents KEY=VALUE, e.g. persona='a cautious farmer' (repeatable)",
    ),
]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", help="game index (default: $DUSKFALL_DB, else ./duskfall.db)"),
]


@app.command()
def play(
    variant: VariantOpt = "sports-mafia",
    seed: Annotated[
        int | None,
        typer.Option(help="seed, 0..2**128-1 (default: a secret one, printed when the game ends)"),
    ] = None,
    agents: AgentsOpt = None,
    log: Annotated[Path | None, typer.Option("--log", help="where to write the game log")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the --log file even if it holds a game")
    ] = False,
    preset: PresetOpt = None,
    human: Annotated[
        list[int] | None,
        typer.Option("--human", help="play this seat yourself (repeat for hot-seat play)"),
    ] = None,
    set_: SetOpt = None,
    config_file: ConfigFileOpt = None,
    retries: RetriesOpt = 2,
    timeout: TimeoutOpt = 120.0,
    on_seat_failure: OnSeatFailureOpt = "abort",
    quiet: QuietOpt = False,
    agent_option: AgentOptionOpt = None,
    db: DbOpt = None,
) -> None:
    """Play one game, shown as it happens (god view), and write its log.

    Every model-backed seat is checked first (one tiny request per model): a seat that
    cannot play is one error line, and nothing is logged.
    """
    if db is not None:
        use_db(db)
    chosen = resolve_variant(variant)
    seed = pick_seed(seed)
    config = with_preset(parse_config_options(set_, config_file), preset, chosen)
    humans = human or []
    setup = GameSetup(
        variant=chosen.id,
        seed=seed,
        agents=with_humans(default_agents(chosen) if agents is None else agents, humans),
        config=config,
        log_path=log,
        overwrite=force,
        settings=runtime_settings(
            retries=retries, decision_timeout=timeout, on_seat_failure=on_seat_failure
        ),
        agent_options=parse_config_options(agent_option, None, "--agent-option"),
    )
    # a human seat is shown its own view only
    view = ConsoleView(chosen, console) if not quiet and not humans else None
    started: list[PreparedGame] = []
    try:
        outcome = asyncio.run(_checked_play(plan_game(setup), view, started))
    except KeyboardInterrupt:
        hint = resume_hint(started[0].log_path if started else None, db)
        console.print(hint, highlight=False, markup=False)
        sys.exit(130)
    game = started[0]
    roles = roles_line(game.state) if humans else None  # the person's view never had them
    show_end(console, outcome, seed, f"log written to {game.log_path}", view, roles)


async def _checked_play(
    plan: GamePlan, view: ConsoleView | None, started: list[PreparedGame]
) -> Outcome:
    """Check every seat, then play the game (shown by ``view``) to its end; the game is put
    in ``started`` as soon as it exists (to say how to resume it after Ctrl-C)."""
    await plan.preflight(announcer(console))
    game = assemble(plan)
    started.append(game)
    if view is not None:
        game.record.observers.append(view)
    console.print(f"[bold]{game.variant.name}[/]  game {plain(game.game_id)}")
    roster = ", ".join(f"{s}:{redact(a)}" for s, a in enumerate(game.agents))
    console.print(f"seats: {roster}", highlight=False, markup=False)
    return await game.run()


@app.command()
def simulate(
    variant: VariantOpt = "sports-mafia",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="number of games")] = 1000,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="processes")] = 1,
    agents: AgentsOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="master seed: each game's seed derives from it and the operator's key file "
            "(default: a secret drawn from the OS)"
        ),
    ] = None,
    preset: PresetOpt = None,
    set_: SetOpt = None,
    config_file: ConfigFileOpt = None,
    log_dir: Annotated[str | None, typer.Option(help="write every game's log here")] = None,
    on_seat_failure: OnSeatFailureOpt = "abort",
    agent_option: AgentOptionOpt = None,
    db: DbOpt = None,
) -> None:
    """Play many games in parallel processes; print win rates with 95% intervals.

    The agents of the first game are built and checked first (one tiny request per model):
    a bad spec or a seat that cannot play is one error line before any game is played.
    """
    if db is not None:
        use_db(db)
    chosen = resolve_variant(variant)
    if seed is not None:
        check_seed(seed, "--seed")
    config = with_preset(parse_config_options(set_, config_file), preset, chosen)
    spec = default_agents(chosen) if agents is None else agents
    agent_options = parse_config_options(agent_option, None, "--agent-option")
    settings = runtime_settings(on_seat_failure=on_seat_failure)
    probe = GameSetup(
        chosen.id, new_seed(), spec, config, write_log=False, agent_options=agent_options
    )
    _check_unattended(plan_game(probe))
    # redrawn as results arrive (one batch per chunk of games), not by a refresh thread: with
    # no other thread running, the workers can be forked (see arena.workers)
    with progress_bar(console, f"{chosen.id} {spec}", games) as advance:
        report = run_simulation(
            chosen.id,
            games,
            agents=spec,
            config=config,
            workers=workers,
            first_seed=seed,
            log_dir=log_dir,
            on_seat_failure=settings.on_seat_failure,
            progress=advance,
            agent_options=agent_options,
        )
    table = Table(title=Text(f"{report.games} games of {chosen.name}, agents {spec}"))
    table.add_column("result")
    table.add_column("rate [95% interval] (count)")
    for team in [*chosen.teams, "draw"]:
        table.add_row(team, str(report.win_rate(team)))
    console.print(table)
    console.print(
        f"mean length {report.mean_days:.2f} days, "
        f"{report.total_decisions / report.games:.1f} decisions/game, "
        f"fallbacks {report.total_fallbacks}, "
        f"{report.games_per_second:.1f} games/s with {workers} worker(s)"
    )
    if report.aborted:
        console.print(
            f"[yellow]{report.aborted} game(s) aborted[/] by a seat that kept failing, left out "
            "of the rates (--on-seat-failure fallback plays its fallbacks instead)"
        )


def _check_unattended(plan: GamePlan) -> None:
    """Check every seat of the first game (built, nothing written) can play unattended: no
    person (thousands of games would wait on one), every model answering."""
    people = [seat for seat, agent in enumerate(plan.agents) if agent == "human"]
    if people:
        raise ConfigError(
            f"simulate plays games unattended, but the agents give seat {people[0]} to "
            "'human'; to play a seat yourself use: duskfall play --human SEAT"
        )
    asyncio.run(plan.preflight(announcer(console)))


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="a game log (.jsonl)")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only verify")] = False,
    parent: Annotated[
        Path | None,
        typer.Option("--parent", help="a fork's parent log (default: beside it, or the index)"),
    ] = None,
    numbers: Annotated[
        bool,
        typer.Option("--numbers", help="show each event's number (for fork --at/--replace)"),
    ] = False,
    key: Annotated[
        Path | None,
        typer.Option(
            "--key",
            help="the operator key file to check signatures with (default: $DUSKFALL_KEY_FILE, "
            "else the key beside the game index)",
        ),
    ] = None,
    signed: Annotated[
        bool,
        typer.Option("--signed", help="exit 3 unless the log is signed by the operator key"),
    ] = False,
) -> None:
    """Re-apply a log's actions, check every event is reproduced exactly, check its
    signature, and show the game.

    ``verified`` means signed by the operator's key (``--key``, ``$DUSKFALL_KEY_FILE`` or the
    key beside the index) and unchanged since; ``integrity only`` means no key could check it
    (or it is unsigned, or another key's): its chain and rules still check, but anyone could
    have rewritten it. A signature that does not match is an error ("forged or altered").

    Any damage to the log (a changed, removed or moved line breaks its hash chain; a finished
    game without its end record, or lines cut off its end short of its index row) is an error;
    only a torn last line (a process killed mid-write) is cut with a warning, and a log without
    an end that no index row vouches for is said to be unfinished or cut. A fork is also checked
    against its parent: the parent's events up to the fork replay, and the fork's copy of them
    is unchanged.
    """
    game_log = read_log(log, strict=False)
    if game_log.corrupt is not None and not isinstance(game_log.corrupt, TornLine):
        raise game_log.corrupt
    signer = checking_signer(key)
    verdict = signature_of(log, game_log, signer)
    note = unfinished_note(game_log, check_not_cut(log, game_log, signer=signer))
    if game_log.corrupt is not None:
        console.print(
            f"[yellow]warning:[/] {plain(game_log.corrupt)} - replaying the whole events before it"
        )
    if not game_log.chained:
        console.print(
            "[yellow]warning:[/] a format 1 log has no hash chain: changes to it "
            "cannot be detected, only rules events are checked"
        )
    header = game_log.header
    if header.variant == "gm":
        _show_gm_log(game_log, quiet)
        _warn(note)
        _show_verdict(verdict, signed)
        return
    try:
        with progress_bar(console, "replaying", len(game_log.events)) as advance:
            result = replay_log(game_log, progress=advance)
    except ConfigError:
        raise ConfigError(
            f"{log}: variant {header.variant!r} has no rules engine to replay; "
            "use 'duskfall games' or the web page to view it"
        ) from None
    if not quiet:
        view = ConsoleView(result.variant, console, numbered=numbers)
        seed, game_id = plain(header.seed), plain(header.game_id)
        console.print(f"[bold]{result.variant.name}[/]  seed {seed}  game {game_id}")
        for event in game_log.events:
            view.on_event(event)
    outcome = game_log.outcome
    if outcome is not None:
        console.print(outcome_line(outcome))
    else:
        console.print("[yellow]the game did not finish[/] (resume it with 'duskfall resume')")
    checked = "verified" if verdict.trust is Trust.SIGNED else "checked"
    console.print(
        f"[green]replay {checked}:[/] {result.actions} actions re-applied, "
        f"{result.rules_events} rules events reproduced exactly"
    )
    _warn(note)
    fork = verify_fork(game_log, log, parent)
    if fork is not None:
        colour = "green" if fork.link is not None else "yellow"
        console.print(f"[{colour}]fork:[/] {plain(fork.describe())}", highlight=False)
    _show_verdict(verdict, signed)


def _show_verdict(verdict: Verdict, signed: bool) -> None:
    """Say what the log's signature proves; with ``signed``, exit 3 unless it is this key's."""
    colour = "green" if verdict.trust is Trust.SIGNED else "yellow"
    text = verdict.describe()
    head, _, rest = text.partition(" ")
    console.print(f"[{colour}]{head}[/] {plain(rest)}", highlight=False)
    if signed and verdict.trust is not Trust.SIGNED:
        sys.exit(3)


def _warn(note: str | None) -> None:
    if note is not None:
        console.print(f"[yellow]warning:[/] {plain(note)}", highlight=False)


def _show_gm_log(game_log: GameLog, quiet: bool) -> None:
    """A GM game has no rules to re-apply: show it as it was played."""
    from duskfall.gm.display import TerminalView
    from duskfall.gm.texts import texts_for

    header = game_log.header
    language = header.extra.get("card", {}).get("language", "en")
    if not quiet:
        console.print(f"[bold]GM game[/]  seed {plain(header.seed)}  game {plain(header.game_id)}")
        view = TerminalView(console, texts_for(language))
        for event in game_log.events:
            view.on_event(event)
    state = "finished" if game_log.finished else "did not finish"
    console.print(
        f"GM game {state}: {len(game_log.events)} events shown "
        "(a game master's game has no rules engine, so there is nothing to re-verify)"
    )
