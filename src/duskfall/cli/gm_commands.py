"""``duskfall gm``: a free-form game run by an LLM game master (seed 002)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from duskfall.agents.human_chat import SPEC as HUMAN
from duskfall.cli import app
from duskfall.cli.common import QuietOpt
from duskfall.cli.console import announcer, safe_console
from duskfall.core.errors import ConfigError
from duskfall.core.outcome import Termination
from duskfall.core.terminal import PlainTable, plain
from duskfall.gm import event_kinds as kinds
from duskfall.gm.cards import builtin_cards, load_card_file
from duskfall.gm.config import load_settings_file, make_settings, resolve_card
from duskfall.gm.display import TerminalView, describe
from duskfall.gm.game import GMGame
from duskfall.gm.session import GMPlan, close_log, plan_new_game, plan_resume

console = safe_console(soft_wrap=True)

STEP_HELP = "[Enter] next step · c: continue to the end · s: save and quit · q: quit"


def parse_players(value: str) -> list[dict[str, Any]]:
    """``"Ann,Bob=openai:gpt-4o-mini,Cid"`` -> seats (a model spec after ``=``)."""
    seats = []
    for item in value.split(","):
        name, _, model = item.partition("=")
        if not name.strip():
            raise ConfigError(f"--players: empty name in {value!r}")
        seats.append({"name": name.strip(), "model": model.strip() or None})
    return seats


def _with_personas(seats: list[dict[str, Any]], data: dict[str, Any]) -> list[dict[str, Any]]:
    """Give named seats the persona the card has for that name, if any."""
    card = resolve_card(make_settings({k: v for k, v in data.items() if k != "players"}))
    personas = {p.name: p.persona for p in card.players}
    return [{**seat, "persona": personas.get(seat["name"], "")} for seat in seats]


def _list_cards() -> None:
    table = PlainTable(title="built-in rule cards")
    for column in ("card", "language", "players", "title", "summary"):
        table.add_column(column)
    for (card_id, language), path in builtin_cards().items():
        card = load_card_file(path)
        table.add_row(card_id, language, str(len(card.players)), card.title, card.summary)
    console.print(table)


async def _play(game: GMGame, step_mode: bool) -> bool:
    """Run the game; in step mode ask after every step. False if the user saved and quit."""
    game.start()
    while not game.over:
        await game.step()
        if not step_mode or game.over:
            continue
        console.print(Text(STEP_HELP, style="dim"))
        try:
            choice = (await asyncio.to_thread(input, "> ")).strip().lower()
        except EOFError:
            choice = "s"
        if choice == "s":
            game.save()
            close_log(game)
            return False
        if choice == "q":
            game.stop("stopped by the user")
        elif choice == "c":
            step_mode = False
    return True


def _show_recent(game: GMGame, count: int) -> None:
    """The last ``count`` chat lines of a resumed game, to see where it stopped."""
    events = game.record.events
    lines = [describe(e, game.texts, show_secrets=False) for e in events if e.kind == kinds.CHAT]
    for line in [line for line in lines if line][-count:]:
        console.print(Text(line[0], style=line[1]))


@app.command()
def gm(
    card: Annotated[
        str | None,
        typer.Option("--card", help="built-in card id (werewolf6, avalon5) or a card .toml"),
    ] = None,
    language: Annotated[
        str | None, typer.Option("--lang", "--language", help="zh or en (default: zh)")
    ] = None,
    model: Annotated[
        str | None,
        typer.Option("--model", "-m", help="model of the GM and every player (default: local)"),
    ] = None,
    gm_model: Annotated[str | None, typer.Option("--gm-model", help="the GM's model")] = None,
    player_model: Annotated[
        str | None, typer.Option("--player-model", help="model of the players")
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", help="seat names, each with an optional model: 'Ann,Bob=SPEC'"),
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", "-c", help="settings file (TOML or JSON)")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="sampling seed (default 0)")] = None,
    max_steps: Annotated[int | None, typer.Option("--max-steps", help="stop after N steps")] = None,
    gm_format: Annotated[
        str | None,
        typer.Option(
            "--gm-format",
            help="structured (JSON turns) or markers (free text); default: structured with "
            "the local and scripted models, markers with others",
        ),
    ] = None,
    max_tokens: Annotated[
        int | None, typer.Option("--max-tokens", help="reply length cap for GM and players")
    ] = None,
    temperature: Annotated[float | None, typer.Option("--temperature")] = None,
    step: Annotated[bool, typer.Option("--step", help="pause after every step")] = False,
    log: Annotated[
        Path | None, typer.Option("--log", help="log file (default games/gm-CARD-TIME.jsonl)")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the --log file even if it holds a game")
    ] = False,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="continue a saved or interrupted game log")
    ] = None,
    public: Annotated[
        bool, typer.Option("--public", help="do not show secrets in the terminal")
    ] = False,
    quiet: QuietOpt = False,
    list_cards: Annotated[
        bool, typer.Option("--list-cards", help="list the built-in rule cards")
    ] = False,
) -> None:
    """Play a free-form game run by an LLM game master from a rule card.

    Default: the 6-player werewolf card in Chinese, the local model as GM and every player.
    """
    if list_cards:
        _list_cards()
        return
    overrides: dict[str, Any] = {}
    if model is not None:
        overrides.update(gm_model=model, player_model=model)
    for key, value in (
        ("card", card),
        ("language", language),
        ("gm_model", gm_model),
        ("player_model", player_model),
        ("seed", seed),
        ("max_steps", max_steps),
        ("gm_format", gm_format),
        ("temperature", temperature),
    ):
        if value is not None:
            overrides[key] = value
    if max_tokens is not None:
        overrides.update(gm_max_tokens=max_tokens, player_max_tokens=max_tokens)

    if resume is not None:
        if config is not None or players is not None or card is not None or language is not None:
            raise ConfigError("--resume keeps the game's card and players; drop those options")
        game = _checked(plan_resume(resume, overrides=overrides))
        log_path = resume
        console.print(f"resuming {resume} at step {game.state.step + 1}", markup=False)
        if not quiet:
            _show_recent(game, 10)
    else:
        data = load_settings_file(config) if config is not None else {}
        data.update(overrides)
        if players is not None:
            data["players"] = _with_personas(parse_players(players), data)
        plan = plan_new_game(make_settings(data), log_path=log, overwrite=force)
        game, log_path = _checked(plan), plan.path
        console.print(
            f"[bold]{plain(game.card.title)}[/]  ({plain(game.card.id)}, "
            f"{plain(game.card.language)})  seed {game.settings.seed}  "
            f"GM {plain(game.settings.gm_model)}",
            highlight=False,
        )
        seats = ", ".join(f"{s.name} ({s.model})" for s in game.seats)
        console.print(f"players: {seats}", highlight=False, markup=False)
    # A person at this terminal must not read the others' secrets on the same screen.
    person_here = any(seat.model == HUMAN for seat in game.seats)
    if not quiet:
        view = TerminalView(console, game.texts, show_secrets=not (public or person_here))
        game.record.observers.append(view)
    console.print(f"log: {log_path}", highlight=False, markup=False)
    try:
        finished = asyncio.run(_play(game, step))
    except KeyboardInterrupt:
        if not game.over:
            game.save()
        close_log(game)
        console.print(f"interrupted; continue with: duskfall gm --resume {log_path}", markup=False)
        sys.exit(130)
    if not finished:
        console.print(f"saved; continue with: duskfall gm --resume {log_path}", markup=False)
        return
    _summary(game)
    outcome = game.state.outcome
    if outcome and outcome.termination is Termination.ABORTED and game.state.ended_by != "user":
        sys.exit(1)  # the game could not be played to its end (a model failed, or the GM)


def _checked(plan: GMPlan) -> GMGame:
    """The planned game, opened (its log written) only once every model answered."""
    asyncio.run(plan.preflight(announcer(console)))
    return plan.open(index=True)


def _summary(game: GMGame) -> None:
    state = game.state
    outcome = state.outcome
    assert outcome is not None
    gm_t, pl_t = state.gm_tokens, state.player_tokens
    gm_u, pl_u = gm_t.usage, pl_t.usage
    console.print(
        f"{state.step + 1} step(s); "
        f"GM {gm_t.calls} calls {gm_u.prompt_tokens}+{gm_u.completion_tokens} tokens; "
        f"players {pl_t.calls} calls {pl_u.prompt_tokens}+{pl_u.completion_tokens} tokens; "
        f"${gm_u.cost_usd + pl_u.cost_usd:.4f}",
        highlight=False,
    )
    console.print(ending(game), highlight=False, markup=False)


def ending(game: GMGame) -> str:
    """One line: who won, or why the game stopped."""
    outcome = game.state.outcome
    assert outcome is not None
    if outcome.termination is Termination.WIN:
        head = f"winner: {outcome.winner}" if outcome.winner else "game over"
    elif outcome.termination is Termination.DAY_LIMIT:
        head = "stopped"
    else:
        head = "aborted"
    audit = game.state.audit_flags
    tail = f" ({audit} rule break(s) flagged by the audit)" if audit else ""
    return f"{head}: {outcome.reason}{tail}"
