"""The ``duskfall`` command line: one typer app; each command group lives in its own module."""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import typer
from pydantic import ValidationError

from duskfall.cli.console import safe_console
from duskfall.core.errors import DuskfallError
from duskfall.core.redaction import redact
from duskfall.core.terminal import guard_logging, plain
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
    "duskfall.cli.export_commands",
    "duskfall.cli.web_commands",
    "duskfall.cli.learn_commands",
    "duskfall.cli.tournament_commands",
    "duskfall.cli.lab_commands",
    "duskfall.cli.kit_commands",
    "duskfall.cli.bot_commands",
]


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(name)
    _show_flags_without_a_type()
    _help_as_written()


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


def main() -> None:
    """Entry point: run the app; user-facing errors print one clear line, no traceback."""
    guard_logging()  # log lines quote clients and servers: nothing in them is obeyed
    _load_commands()
    try:
        code = app(standalone_mode=False)
    except DuskfallError as exc:
        fail(str(exc))
    except ValidationError as exc:  # options checked by a settings model (e.g. serve's)
        fail(f"invalid option: {describe_errors(exc)}")
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
