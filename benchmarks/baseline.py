"""Today's code beside another commit's, in the same run: the baseline for speed ratios.

``baseline_src(ref)`` exports the ``src/`` folder of commit ``ref`` (``git archive``) into a
temporary folder once per process; ``python_with(src)`` gives the environment that runs a
child Python on that code. A benchmark measures the same work in a child process on the
baseline and on the working tree, and prints both figures and their ratio.

    python benchmarks/sports_mafia_engine.py --baseline SPEED_BASELINE
    python benchmarks/sports_mafia_engine.py --baseline ../other-checkout/src   # its code as is
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The last commit before the speed work (issue 18): "today's code" for the ratios.
SPEED_BASELINE = "56eec53"


@cache
def baseline_src(ref: str = SPEED_BASELINE) -> Path:
    """The ``src`` folder of commit ``ref``, exported to a temporary folder; a ``ref`` that is
    a folder holding ``duskfall`` (another checkout's ``src``) is used as it is."""
    given = Path(ref).expanduser()
    if (given / "duskfall").is_dir():
        return given.resolve()
    folder = Path(tempfile.mkdtemp(prefix=f"duskfall-{ref}-"))
    atexit.register(shutil.rmtree, folder, True)
    archive = folder / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    archive.unlink()
    return folder / "src"


def current_src() -> Path:
    return ROOT / "src"


def python_with(src: Path) -> dict[str, str]:
    """The environment of a child Python that imports duskfall from ``src``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(src), str(ROOT / "benchmarks")])
    return env


def run_python(src: Path, *args: str, timeout: float = 3600) -> str:
    """Run ``python ARGS`` on the code in ``src``; return its standard output."""
    done = subprocess.run(
        [sys.executable, *args],
        env=python_with(src),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed on {src}:\n{done.stderr[-2000:]}")
    return done.stdout


def load_average() -> str:
    """The machine's load, to print beside the figures (the machine is shared)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"
