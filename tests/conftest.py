"""Shared pytest configuration: the test tiers, the import path and a throwaway game index.

* Tiers: plain ``pytest`` runs the quick tier (no real model, no browser, no child processes);
  ``pytest --full`` runs everything, and there a missing optional part (fastapi, llama_cpp,
  playwright, Chromium) fails instead of skipping (as it does whenever ``CI=true``; see
  :mod:`duskfall.testing.require`). Tests marked ``llm``, ``browser`` or ``subprocess`` are
  also ``slow``; an explicit ``-m EXPRESSION`` selects by marker instead of the tier, and a
  test file named on the command line runs whole.
* ``tests/`` is importable, so tests share helpers (``from variants.werewolf.table import ...``);
* games played by tests are indexed in a throwaway SQLite file, never in the working
  directory's ``duskfall.db`` (tests that test the index choose their own path);
* one operator runs every session: a fixed operator key file (``$DUSKFALL_KEY_FILE``) serves
  every index, so a seeded tournament, ``serve --seed`` or ``simulate --seed`` deals the same
  games in any test's index and in every run (tests of per-index keys unset it).
"""

import asyncio
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from duskfall.testing.require import TIER_ENV

sys.path.insert(0, str(Path(__file__).parent))

_SESSION = Path(tempfile.mkdtemp(prefix="duskfall-tests-"))
os.environ["DUSKFALL_DB"] = str(_SESSION / "duskfall.db")
_KEY = _SESSION / "operator.key"
_KEY.write_text("d5" * 32 + "\n")  # a test key: fixed, so seeded deals are the same every run
_KEY.chmod(0o600)
os.environ["DUSKFALL_KEY_FILE"] = str(_KEY)

IMPLY_SLOW = ("llm", "browser", "subprocess")

pytest_plugins = ["heartbeat"]  # a line for every long test, and what is left (tests/heartbeat.py)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="run the full tier (slow tests too); a missing optional part fails, not skips",
    )


def _full(config: pytest.Config) -> bool:
    return bool(config.getoption("--full"))


def pytest_configure(config: pytest.Config) -> None:
    if _full(config):
        os.environ[TIER_ENV] = "full"


def pytest_report_header(config: pytest.Config) -> str:
    if _full(config):
        return "duskfall tier: full (missing optional parts fail)"
    if config.getoption("markexpr"):
        return "duskfall tier: selected by -m"
    return "duskfall tier: quick (slow tests deselected; pytest --full runs everything)"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.get_closest_marker(name) for name in IMPLY_SLOW):
            item.add_marker(pytest.mark.slow)
    if _full(config) or config.getoption("markexpr"):
        return
    named = _named_files(config)
    slow = [i for i in items if i.get_closest_marker("slow") and i.path not in named]
    if slow:
        config.hook.pytest_deselected(items=slow)
        dropped = set(slow)
        items[:] = [item for item in items if item not in dropped]


def _named_files(config: pytest.Config) -> set[Path]:
    """Test files given on the command line (``path.py`` or ``path.py::test``)."""
    files = set()
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path.is_file():
            files.add(path)
    return files


CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> CliRun:
    """``duskfall ARGS`` in-process: returns (exit code, stdout, stderr)."""
    from duskfall.cli import main

    def call(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["duskfall", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return call


T = TypeVar("T")
InBackground = Callable[[Coroutine[Any, Any, T]], T]


@pytest.fixture
def in_background() -> Iterator[InBackground[Any]]:
    """Run coroutines on an event loop of their own, in a thread: servers (a stub model
    server, a game server) that in-process CLI runs, with their own ``asyncio.run``, talk to.
    ``in_background(coro)`` waits for the coroutine's result."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, loop).result(30)

    yield run
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    loop.close()
