"""Every ``duskfall`` command in the README's and the docs' shell blocks parses: the command
exists and takes those options with values of the right type (nothing is run)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer.core
import typer.main

from duskfall.cli import _load_commands, app

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCK = re.compile(r"```(?:bash|sh|shell)\n(.*?)```", re.DOTALL)
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
click = typer.core._click  # the click that typer's commands are built on (typer carries its own)


def command_words(line: str) -> list[str]:
    """The words of a shell line's first command (up to a redirection, pipe or ``&``)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = []
    for word in lexer:
        if word and set(word) <= set("<>|&;"):
            break
        words.append(word)
    return words


def documented_commands() -> list[tuple[str, list[str]]]:
    """(where, arguments after ``duskfall``) of every command line in a shell block."""
    found = []
    for document in DOCUMENTS:
        for block in SHELL_BLOCK.findall(document.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                words = command_words(line)
                while words and ASSIGNMENT.match(words[0]):
                    words = words[1:]  # environment variables set for the command
                if words and words[0] == "duskfall":
                    found.append((f"{document.name}: {line.strip()}", words[1:]))
    return found


COMMANDS = documented_commands()


def test_the_documents_show_commands() -> None:
    assert len(COMMANDS) > 40


@pytest.mark.parametrize("arguments", [args for _, args in COMMANDS], ids=[w for w, _ in COMMANDS])
def test_a_documented_command_parses(arguments: list[str]) -> None:
    _load_commands()
    command = typer.main.get_command(app)
    name, parent = "duskfall", None
    try:
        while True:
            context = command.make_context(name, list(arguments), parent=parent)
            if not hasattr(command, "resolve_command"):  # a command, not a group
                break
            rest = [*context._protected_args, *context.args]
            resolved, sub, arguments = command.resolve_command(context, rest)
            assert resolved is not None and sub is not None
            name, command, parent = resolved, sub, context
    except typer.Exit:
        pass  # --help and the like
    except click.ClickException as exc:
        pytest.fail(exc.format_message())
