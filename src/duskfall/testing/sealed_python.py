"""An interpreter a sealed remote entrant can run, for tests and probes of remote entrants.

As root on Linux a remote entrant's program runs as a user of its own
(:mod:`duskfall.arena.sealing`), which cannot run an interpreter under a private folder (a
virtualenv or pyenv under ``/root``). :func:`sealed_python` finds one it can run (this one, else
the system's of the same version), with the folders to put first on its path so that it imports
this duskfall and its dependencies; None when there is none (the caller then runs its program
with ``sealed = false``).
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import duskfall
from duskfall.arena.sealing import UIDS, can_seal

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def import_path() -> list[str]:
    """The folders holding this duskfall and its dependencies."""
    return [str(Path(duskfall.__file__).parents[1]), sysconfig.get_paths()["purelib"]]


def prelude(code: str) -> str:
    """``code`` for ``python -c``, run after :func:`import_path` is put first on the path."""
    return f"import sys; sys.path[:0] = {import_path()!r}; {code}"


@functools.cache
def sealed_python() -> str | None:
    """An interpreter that a user of a sealed program's own can run and import duskfall with."""
    if not can_seal():
        return sys.executable
    candidates = [sys.executable]
    system = shutil.which("python3", path=SYSTEM_PATH)
    if system and os.path.realpath(system).endswith(
        f"python{sys.version_info[0]}.{sys.version_info[1]}"
    ):
        candidates.append(os.path.realpath(system))
    for candidate in candidates:
        if _runs_sealed(candidate):
            return candidate
    return None


def _runs_sealed(python: str) -> bool:
    uid = secrets.randbelow(UIDS[1] - UIDS[0]) + UIDS[0]
    try:
        done = subprocess.run(
            [python, "-c", prelude("import pydantic, duskfall.cli")],
            user=uid,
            group=uid,
            extra_groups=[],
            cwd="/",
            env={"PATH": SYSTEM_PATH, "HOME": "/"},
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
