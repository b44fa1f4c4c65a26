"""Optional parts a test needs: skip without them while developing, fail in CI and the full tier.

Every test that needs an optional part (fastapi, llama_cpp, playwright, Chromium...) asks for
it through :func:`require` or :func:`require_program`, never through ``pytest.importorskip`` or
a ``skipif``. When the part is missing the test is skipped in the quick tier, but it fails
when ``CI`` is set (``CI=true``) or the full tier runs (``pytest --full`` sets
``DUSKFALL_TEST_TIER=full``): the set-up script installed those parts, so their absence is a
broken set-up, not a reason to skip.
"""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import NoReturn

TIER_ENV = "DUSKFALL_TEST_TIER"
_TRUE = {"1", "true", "yes", "on"}


def strict() -> bool:
    """Whether a missing optional part fails (CI or the full tier) instead of skipping."""
    return (
        os.environ.get("CI", "").strip().lower() in _TRUE
        or os.environ.get(TIER_ENV, "").strip().lower() == "full"
    )


def missing(what: str, hint: str = "") -> NoReturn:
    """Skip the test (or module) for a missing part; fail instead under :func:`strict`."""
    import pytest

    message = f"{what} is missing" + (f" ({hint})" if hint else "")
    if strict():
        pytest.fail(
            f"{message}; CI and the full tier need it (./scripts/test.sh installs it)",
            pytrace=False,
        )
    pytest.skip(message, allow_module_level=True)


def require(module: str, hint: str = "") -> ModuleType:
    """Import ``module`` for a test, or skip/fail (see :func:`missing`) when it is not there."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        missing(f"the Python module {module}", hint or str(exc))


def require_program(program: str, hint: str = "") -> str:
    """The path of an executable (a name on PATH or a path), or skip/fail without it."""
    found = shutil.which(program)
    if found is None and Path(program).is_file() and os.access(program, os.X_OK):
        found = program
    if found is None:
        missing(f"the program {program}", hint)
    return found
