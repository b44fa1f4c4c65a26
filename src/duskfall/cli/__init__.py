"""The ``duskfall`` command line: one typer app; each command group lives in its own module."""

from __future__ import annotations

import importlib
import sys
from typing import NoReturn

import typer
from pydantic import ValidationError
from rich.markup import escape

from duskfall.cli.console import safe_console
from duskfall.core.errors import DuskfallError
from duskfall.core.redaction import redact
from duskfall.core.validation import describe_errors

app = typer.Typer(
    name="duskfall",
    help="An arena for social-deduction games played by LLMs, programs and people.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = safe_console(stderr=True, soft_wrap=True)

# Each module registers its commands on ``app`` when imported. Optional parts whose
# dependencies are missing still register (they fail with a clear message when run).
COMMAND_MODULES = [
    "duskfall.cli.game_commands",
    "duskfall.cli.server_commands",
    "duskfall.cli.gm_commands",
    "duskfall.cli.store_commands",
    "duskfall.cli.web_commands",
]


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(name)


def _fail(message: str) -> NoReturn:
    """Print one redacted error line and exit 2."""
    err_console.print(f"[bold red]error:[/] {escape(redact(message))}", highlight=False)
    sys.exit(2)


def main() -> None:
    """Entry point: run the app; user-facing errors print one clear line, no traceback."""
    _load_commands()
    try:
        code = app(standalone_mode=False)
    except DuskfallError as exc:
        _fail(str(exc))
    except ValidationError as exc:  # options checked by a settings model (e.g. serve's)
        _fail(f"invalid option: {describe_errors(exc)}")
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        err_console.print("aborted")
        sys.exit(130)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except Exception as exc:  # usage errors (unknown option, bad value) from the parser
        show = getattr(exc, "show", None)
        if callable(show) and isinstance(getattr(exc, "exit_code", None), int):
            show()
            sys.exit(getattr(exc, "exit_code", 2))
        raise
    if isinstance(code, int) and code:
        sys.exit(code)
