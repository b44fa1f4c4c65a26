"""The command line registers only modules that exist, and its help lists every command."""

from __future__ import annotations

import importlib

from typer.testing import CliRunner

from duskfall import cli


def test_every_registered_command_module_exists() -> None:
    for name in cli.COMMAND_MODULES:
        importlib.import_module(name)


def test_help_lists_the_commands() -> None:
    cli._load_commands()
    result = CliRunner().invoke(cli.app, ["--help"])
    assert result.exit_code == 0, result.output
    for command in ("play", "simulate", "replay", "serve", "connect", "gm", "games", "web"):
        assert command in result.output
