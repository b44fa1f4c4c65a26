"""Help as a terminal shows it: each command's docstring without its reST markup (````x````,
``:mod:`x```), followed by examples of the command (:data:`EXAMPLES`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import typer
from typer.models import CommandInfo

# Commands (as typed after ``duskfall``) and examples of each, shown at the end of its --help.
EXAMPLES: dict[str, list[str]] = {
    "play": [
        "duskfall play",
        "duskfall play --variant werewolf --human 3",
        "duskfall play --seed 42 --agents town=heuristic,mafia=random --log my-game.jsonl",
        "duskfall play --agents mix:heuristic@0.5/random",
    ],
    "simulate": [
        "duskfall simulate -v mafia -n 1000 -w 2 -a heuristic",
        "duskfall simulate --variant werewolf --preset werewolf-6 --agents random -n 1000",
    ],
    "replay": ["duskfall replay my-game.jsonl", "duskfall replay games/w12.jsonl --numbers"],
    "gm": [
        "duskfall gm --lang en --seed 1",
        "duskfall gm --card avalon5 --lang en",
        "duskfall gm --list-cards",
    ],
    "train": ["duskfall train --variant sports-mafia --out runs/sports-mafia"],
    "serve": ["duskfall serve --variant sports-mafia --host 127.0.0.1 --port 8765"],
    "connect": ["duskfall connect --host 127.0.0.1 --port 8765 --agent random --count 10"],
    "games": ["duskfall games --status finished --limit 10", "duskfall games --repair"],
    "resume": ["duskfall resume GAME_ID"],
    "export": [
        "duskfall export --out dataset/",
        "duskfall export --tournament my-t --format jsonl --out my-t/",
    ],
    "web": ["duskfall web", "duskfall web --port 8080 --games-dir games --db duskfall.db"],
    "schema": ["duskfall schema --out schemas"],
    "run-bot": [
        "duskfall run-bot --port 8765 -- python examples/stdio/bot.py",
        "duskfall run-bot --host {host} --port {port} -- ./my-bot   (a remote entrant's command)",
    ],
    "check-bot": [
        "duskfall check-bot -- node examples/node/client.mjs",
        "duskfall check-bot --variant werewolf -- ./my-bot --server {host}:{port}",
    ],
    "fork": [
        "duskfall fork games/w12.jsonl --at day:3 --agents werewolf=heuristic,default=random",
        'duskfall fork games/w12.jsonl --replace \'254={"type": "VOTE", "target": 0}\'',
    ],
    "analyse": [
        "duskfall analyse games/w12.jsonl",
        "duskfall analyse games/w12.jsonl --every round -n 50 --json",
    ],
    "tournament": [
        "duskfall tournament run bots.toml",
        "duskfall tournament report bots.toml --csv board.csv",
    ],
    "tournament run": ["duskfall tournament run bots.toml"],
    "tournament resume": ["duskfall tournament resume bots.toml"],
    "tournament status": ["duskfall tournament status bots.toml"],
    "tournament report": [
        "duskfall tournament report bots.toml",
        "duskfall tournament report bots.toml --csv board.csv --html board.html",
        "duskfall tournament report bots.toml --json > board.json",
    ],
    "tournament plan": ["duskfall tournament plan bots.toml --gap 100"],
}

_LITERAL = re.compile(r"``(.+?)``")
_ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|ref|doc):`~?([^`]+)`")
_SINGLE = re.compile(r"(?<![`\w])`([^`]+)`(?!`)")


def terminal_text(doc: str) -> str:
    """A docstring as a terminal shows it: reST literals and roles as plain words, each
    paragraph of prose one line (the terminal wraps it at its width)."""
    text = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], doc)
    text = _LITERAL.sub(r"\1", text)
    text = _SINGLE.sub(r"\1", text)
    return "\n\n".join(_joined(paragraph) for paragraph in text.split("\n\n"))


def _joined(paragraph: str) -> str:
    """A paragraph of prose as one line; one with indented or listed lines as it is."""
    lines = paragraph.split("\n")
    if any(line[:1].isspace() or line.lstrip().startswith(("-", "*")) for line in lines[1:]):
        return paragraph
    return " ".join(line.strip() for line in lines)


def epilog(command: str) -> str | None:
    """The examples shown under ``duskfall COMMAND --help``."""
    examples = EXAMPLES.get(command)
    if not examples:
        return None
    # typer renders the epilog as rich markup, paragraph by paragraph: one paragraph a line
    return "Examples:\n\n" + "\n\n".join("  " + example.replace("[", r"\[") for example in examples)


def _commands(app: typer.Typer, prefix: str) -> Iterator[tuple[str, CommandInfo]]:
    for info in app.registered_commands:
        callback = info.callback
        name = info.name or (callback.__name__.replace("_", "-") if callback else "")
        yield f"{prefix}{name}", info
    for group in app.registered_groups:
        if group.typer_instance is not None and group.name:
            yield from _commands(group.typer_instance, f"{prefix}{group.name} ")


def render_help(app: typer.Typer) -> None:
    """Give every command of ``app`` its help as a terminal shows it, and its examples."""
    for command, info in _commands(app, ""):
        doc = info.help or (info.callback.__doc__ if info.callback else None)
        if doc:
            info.help = terminal_text(_dedented(doc))
        if info.epilog is None:
            info.epilog = epilog(command)
    for group in app.registered_groups:
        if group.typer_instance is not None and group.name:
            group.epilog = group.epilog or epilog(group.name)


def _dedented(doc: str) -> str:
    import inspect

    return inspect.cleandoc(doc)
