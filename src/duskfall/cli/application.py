"""The ``duskfall`` typer app: its commands (one module a group), its error handling (one line
for every mistake: a bad option, a missing extra, Ctrl-C) and ``--version``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from pydantic import ValidationError

from duskfall import __version__
from duskfall.cli import INTERRUPTED
from duskfall.cli.console import safe_console
from duskfall.cli.help_text import render_help, terminal_text
from duskfall.cli.outline import Outline, outline
from duskfall.core.errors import DuskfallError
from duskfall.core.redaction import redact
from duskfall.core.terminal import guard_logging, plain
from duskfall.core.validation import describe_errors


def _new_app() -> typer.Typer:
    """The top-level app: its help, ``--version``, no commands yet."""
    made = typer.Typer(
        name="duskfall",
        help="An arena for social-deduction games played by LLMs, programs and people.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    made.callback()(_options)
    return made


def _version(value: bool) -> None:
    if value:
        print(f"duskfall {__version__}")
        raise typer.Exit()


def _options(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_version, help="print the version and exit"
    ),
) -> None:
    """An arena for social-deduction games played by LLMs, programs and people."""


app = _new_app()
err_console = safe_console(stderr=True, soft_wrap=True)

# Each module registers its commands on ``app`` when imported. Optional parts whose
# dependencies are missing still register (they fail with a clear message when run).
COMMAND_MODULES = [
    "duskfall.cli.game_commands",
    "duskfall.cli.server_commands",
    "duskfall.cli.gm_commands",
    "duskfall.cli.store_commands",
    "duskfall.cli.export_commands",
    "duskfall.cli.web_commands",
    "duskfall.cli.learn_commands",
    "duskfall.cli.tournament_commands",
    "duskfall.cli.lab_commands",
    "duskfall.cli.kit_commands",
    "duskfall.cli.bot_commands",
]


# Imported whatever the command: it registers the ``trained:`` agent kind other commands play.
ALWAYS = ["duskfall.cli.learn_commands"]


def _load_commands(argv: Sequence[str] | None = None) -> typer.Typer:
    """Import the command modules and return the app to run: every module, or for the command
    line ``argv`` only the one that defines its command; a command line naming none (such as
    ``duskfall --help``) gets an app of every command's outline, read from the modules' source
    without importing them."""
    _help_as_written()
    names = COMMAND_MODULES
    if argv is not None:
        found = outline(COMMAND_MODULES)
        word = next((arg for arg in argv if not arg.startswith("-")), None)
        module = found.module_of(word) if word is not None else None
        if module is None:
            return _outlined(found)
        names = [*ALWAYS, module]
    for name in names:
        importlib.import_module(name)
    _show_flags_without_a_type()
    render_help(app)
    return app


def _outlined(found: Outline) -> typer.Typer:
    """An app whose commands only show their names and help (``duskfall --help``, a
    mistyped command)."""
    shown = _new_app()

    def outlined() -> None:
        raise typer.Exit(2)  # never run: a command line naming it loads its module

    for command in found.commands:
        shown.command(command.name, help=terminal_text(command.help))(outlined)
    for group in found.groups:
        sub = typer.Typer(help=terminal_text(group.help), no_args_is_help=True)
        for command in group.commands:
            sub.command(command.name, help=terminal_text(command.help))(outlined)
        shown.add_typer(sub, name=group.name)
    _show_flags_without_a_type()
    return shown


def _help_as_written() -> None:
    """typer parses help text as rich markup, so ``needs duskfall[web]`` would print as
    ``needs duskfall``: show every help text as written (brackets included), highlighted as
    typer highlights it."""
    import inspect

    from rich.text import Text
    from typer import rich_utils

    if getattr(rich_utils._make_rich_text, "as_written", False):
        return
    highlight = getattr(rich_utils, "highlighter", None)

    def make_rich_text(*, text: str, style: str = "", markup_mode: Any = None) -> Text:
        shown = Text(inspect.cleandoc(text), style=style)
        return highlight(shown) if highlight is not None else shown

    make_rich_text.as_written = True  # type: ignore[attr-defined]
    rich_utils._make_rich_text = make_rich_text


def _show_flags_without_a_type() -> None:
    """typer's help shows ``<bool>`` after a plain flag (``--quiet``) as if it took a value:
    show no type for flags."""
    from typer.core import TyperOption

    if getattr(TyperOption.display_type_rich, "flags_untyped", False):
        return
    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    display_type_rich.flags_untyped = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one redacted error line and exit with ``code`` (2: the input was wrong)."""
    err_console.print(f"[bold red]error:[/] {plain(redact(message))}", highlight=False)
    sys.exit(code)


# The optional extras (pyproject.toml) by the top-level module a command imports from them.
EXTRAS = {
    "numpy": "arena",
    "scipy": "arena",
    "openskill": "arena",
    "matplotlib": "arena",
    "fastapi": "web",
    "uvicorn": "web",
    "websockets": "web",
    "starlette": "web",
    "pyarrow": "export",
    "openai": "openai",
    "anthropic": "anthropic",
    "llama_cpp": "local",
    "inspect_ai": "inspect",
    "pettingzoo": "learn",
    "gymnasium": "learn",
    "cma": "learn",
    "ray": "ray",
}


def missing_extra(exc: ImportError) -> str | None:
    """The line naming the extra that holds the module ``exc`` says is missing, if one does."""
    module = (exc.name or "").partition(".")[0]
    extra = EXTRAS.get(module)
    if extra is None:
        return None
    command = " ".join(arg for arg in sys.argv[1:3] if not arg.startswith("-"))
    needs = f"'duskfall {command}'" if command else "this command"
    return (
        f"{module} is not installed; {needs} needs the {extra!r} extra: "
        f"pip install 'duskfall[{extra}]'"
    )


def run() -> None:
    """Run the app; user-facing errors print one clear line, no traceback."""
    guard_logging()  # log lines quote clients and servers: nothing in them is obeyed
    chosen = _load_commands(sys.argv[1:])
    try:
        code = chosen(standalone_mode=False)
    except DuskfallError as exc:
        fail(str(exc))
    except ValidationError as exc:  # options checked by a settings model (e.g. serve's)
        fail(f"invalid option: {describe_errors(exc)}")
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        err_console.print("aborted")
        sys.exit(130)
    except ImportError as exc:
        line = missing_extra(exc)
        if line is None:
            raise
        fail(line)
    except Exception as exc:  # usage errors (unknown option, bad value) from the parser
        show = getattr(exc, "show", None)
        if callable(show) and isinstance(getattr(exc, "exit_code", None), int):
            show()
            sys.exit(getattr(exc, "exit_code", 2))
        raise
    if code == INTERRUPTED:  # typer ends a command Ctrl-C stopped with 130, saying nothing
        raise KeyboardInterrupt
    if isinstance(code, int) and code:
        sys.exit(code)
