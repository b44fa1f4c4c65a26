"""duskfall installed alone in a fresh virtualenv (no site packages), then with one extra: the
core's commands run, commands needing a missing extra (``arena``, ``export``) name it in one
line, and once the ``export`` extra is installed its command runs.

The core and one light extra only (``arena`` brings numpy, scipy and matplotlib: 5 minutes at
load 15; ``local`` builds llama-cpp-python for longer). It installs from the package index pip
is configured with; without one it is skipped. Each step prints its time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAN = """name = "fresh"
games = 4
[entrants]
a = "heuristic"
b = "random"
[[variants]]
variant = "sports-mafia"
"""


class Venv:
    """A virtualenv of its own, with steps timed and printed."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started = time.monotonic()

    def step(self, what: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        start = time.monotonic()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["DUSKFALL_DB"] = str(self.folder / "index.db")
        done = subprocess.run(
            list(args),
            cwd=self.folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        print(
            f"fresh venv: {what}: exit {done.returncode} in {time.monotonic() - start:.0f} s "
            f"({time.monotonic() - self.started:.0f} s in all)",
            flush=True,
        )
        return done

    def pip(self, what: str, *args: str) -> None:
        done = self.step(what, str(self.folder / "venv/bin/python"), "-m", "pip", "install", *args)
        if done.returncode != 0:
            if "No matching distribution" in done.stderr or "Could not find" in done.stderr:
                pytest.skip(f"no package index reachable: {done.stderr.strip()[-200:]}")
            raise AssertionError(done.stderr[-2000:])

    def duskfall(self, *args: str) -> subprocess.CompletedProcess[str]:
        program = str(self.folder / "venv/bin/duskfall")
        return self.step(f"duskfall {' '.join(args)}", program, *args)


@pytest.mark.slow
@pytest.mark.subprocess
@pytest.mark.timeout(900)
def test_the_core_alone_then_the_export_extra(tmp_path: Path) -> None:
    venv = Venv(tmp_path)
    done = venv.step("create", sys.executable, "-m", "venv", str(tmp_path / "venv"))
    assert done.returncode == 0, done.stderr
    venv.pip("install duskfall (core)", "-q", "-e", str(ROOT))
    done = venv.duskfall("--version")
    assert done.returncode == 0 and done.stdout.startswith("duskfall ")
    done = venv.duskfall("play", "-q", "--seed", "1")
    assert done.returncode == 0 and "wins" in done.stdout, done.stderr
    (tmp_path / "fresh.toml").write_text(PLAN)
    for command in ("plan", "report"):
        done = venv.duskfall("tournament", command, "fresh.toml")
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert done.returncode == 2, done.stderr
        assert len(lines) == 1 and "pip install 'duskfall[arena]'" in lines[0], done.stderr
    done = venv.duskfall("export", "--out", "data")
    assert done.returncode == 2 and "'duskfall[export]'" in done.stderr, done.stderr
    venv.pip("install the export extra", "-q", "-e", f"{ROOT}[export]")
    done = venv.duskfall("export", "--out", "data")
    assert done.returncode == 0 and "1 games exported" in done.stdout, done.stderr
    assert (tmp_path / "data" / "games.parquet").exists()
