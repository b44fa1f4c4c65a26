"""Shared pytest configuration: the test tiers, the import path and a throwaway game index.

* Tiers: plain ``pytest`` runs the quick tier (no real model, no browser, no child processes);
  ``pytest --full`` runs everything, and there a missing optional part (fastapi, llama_cpp,
  playwright, Chromium) fails instead of skipping (as it does whenever ``CI=true``; see
  :mod:`duskfall.testing.require`). Tests marked ``llm``, ``browser`` or ``subprocess`` are
  also ``slow``; an explicit ``-m EXPRESSION`` selects by marker instead of the tier.
* ``tests/`` is importable, so tests share helpers (``from variants.werewolf.table import ...``);
* games played by tests are indexed in a throwaway SQLite file, never in the working
  directory's ``duskfall.db`` (tests that test the index choose their own path).
"""

import os
import sys
import tempfile
from pathlib import Path

import pytest

from duskfall.testing.require import TIER_ENV

sys.path.insert(0, str(Path(__file__).parent))

os.environ["DUSKFALL_DB"] = str(Path(tempfile.mkdtemp(prefix="duskfall-tests-")) / "duskfall.db")

IMPLY_SLOW = ("llm", "browser", "subprocess")


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
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
