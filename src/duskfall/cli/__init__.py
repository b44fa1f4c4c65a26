"""The ``duskfall`` command line: one typer app (:mod:`duskfall.cli.application`); each command
group lives in its own module.

This module imports nothing heavy (not even ``typing``), so that a Ctrl-C at any moment of
start-up (while typer, pydantic and the commands load) ends with one line and exit status 130,
not a traceback. (One in the interpreter's own first milliseconds, before this module runs, is
Python's.)
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from duskfall.cli.application import _load_commands, app, err_console, fail

__all__ = ["_load_commands", "app", "err_console", "fail", "main"]
INTERRUPTED = 130  # the shell's status for a command ended by SIGINT


def main() -> None:
    """Entry point: run the app; user-facing errors print one clear line, no traceback."""
    try:
        from duskfall.cli.application import run

        run()
    except KeyboardInterrupt:
        interrupted()
    except Exception as exc:
        if _interrupt_in(exc):  # e.g. wrapped by the class creation it stopped
            interrupted()
        raise


def _interrupt_in(exc: BaseException) -> bool:
    """Whether a Ctrl-C caused ``exc`` (a KeyboardInterrupt in its causes or contexts)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def interrupted() -> None:
    """Ctrl-C: one line on stderr, exit status 130."""
    try:
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, KeyboardInterrupt):
        pass
    sys.exit(INTERRUPTED)


def __getattr__(name: str) -> Any:
    """``app``, ``fail``, ``err_console`` and the rest of :mod:`duskfall.cli.application`,
    loaded when a command module first asks for them."""
    if not name.startswith("__") and name != "application":
        import importlib

        application = importlib.import_module("duskfall.cli.application")
        if hasattr(application, name):
            return getattr(application, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
