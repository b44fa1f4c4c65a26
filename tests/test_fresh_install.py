"""duskfall installed alone in a fresh virtualenv (no site packages), then with one extra: the
core's commands run, commands needing a missing extra (``arena``, ``export``) name it in one
line, and once the ``export`` extra is installed its command runs. Then each other extra alone
in a venv of its own: its commands' ``--help`` and a smoke run.

The core and one light extra only (``arena`` brings numpy, scipy and matplotlib: 5 minutes at
load 15; ``local`` builds llama-cpp-python for longer). It installs from the package index pip
is configured with; without one it is skipped. Each step prints its time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from duskfall.testing.ports import free_port

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

    def create(self) -> None:
        done = self.step("create", sys.executable, "-m", "venv", "--without-pip", "venv")
        assert done.returncode == 0, done.stderr

    def pip(self, what: str, *args: str) -> None:
        # this interpreter's pip installs into the venv: no pip of its own to set up (a minute)
        target = ("--python", str(self.folder / "venv/bin/python"))
        install = (sys.executable, "-m", "pip", *target, "install", "--no-compile")
        done = self.step(what, *install, *args)
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
    venv.create()
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


def _web_smoke(venv: Venv) -> None:
    """``duskfall web`` serves a game page; the tournament pages name the arena extra."""
    games = venv.folder / "games"
    games.mkdir()
    done = venv.duskfall("play", "-q", "--seed", "1", "--log", str(games / "one.jsonl"))
    assert done.returncode == 0, done.stderr
    port = free_port()
    program = str(venv.folder / "venv/bin/duskfall")
    command = [program, "web", "--port", str(port), "--games-dir", "games", "--db", "index.db"]
    with subprocess.Popen(command, cwd=venv.folder, stdout=subprocess.DEVNULL) as server:
        try:
            pages = {path: _status(port, path) for path in ("/", "/api/games", "/tournaments")}
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"fresh venv: duskfall web answered {pages}", flush=True)
    assert pages == {"/": 200, "/api/games": 200, "/tournaments": 503}


def _status(port: int, path: str) -> int:
    deadline = time.monotonic() + 120  # a child process's start-up: poll its port
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as reply:
                return int(reply.status)
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            assert time.monotonic() < deadline, "duskfall web did not start"
            time.sleep(0.5)


def _arena_smoke(venv: Venv) -> None:
    (venv.folder / "fresh.toml").write_text(PLAN)
    for command in ("run", "report"):
        done = venv.duskfall("tournament", command, "fresh.toml")
        assert done.returncode == 0, done.stderr[-2000:]
    assert "heuristic" in done.stdout and "random" in done.stdout


def _one_line_error(venv: Venv, *args: str, says: str) -> None:
    """A command the extra enables fails for want of a server or key in one line, no traceback."""
    done = venv.duskfall(*args)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and says in lines[0], done.stderr[-2000:]


def _openai_smoke(venv: Venv) -> None:
    spec = f"llm:openai:model@http://127.0.0.1:{free_port()}/v1"
    _one_line_error(venv, "play", "-q", "--agents", spec, says="127.0.0.1")


def _anthropic_smoke(venv: Venv) -> None:
    _one_line_error(
        venv, "play", "-q", "--agents", "llm:anthropic:claude", says="ANTHROPIC_API_KEY"
    )


def _learn_smoke(venv: Venv) -> None:
    args = ("--minutes", "0.1", "--workers", "1", "--games", "2", "--popsize", "4")
    done = venv.duskfall("train", "--variant", "sports-mafia", *args, "--out", "run")
    assert done.returncode == 0, done.stderr[-2000:]


def _inspect_smoke(venv: Venv) -> None:
    program = str(venv.folder / "venv/bin/inspect")
    task = ("eval", "duskfall/werewolf", "--model", "duskfall/scripted", "-T", "games=1")
    done = venv.step("inspect eval (offline)", program, *task, "-T", "preset=werewolf-6")
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]


def _ray_smoke(venv: Venv) -> None:
    (venv.folder / "fresh.toml").write_text(PLAN)
    done = venv.duskfall("tournament", "plan", "fresh.toml")
    assert done.returncode == 2 and "'duskfall[arena]'" in done.stderr, done.stderr


EXTRAS: dict[str, tuple[tuple[str, ...], Callable[[Venv], None]]] = {
    # extra: (a command of it whose --help must run, its smoke run)
    "web": (("web",), _web_smoke),
    "arena": (("tournament", "run"), _arena_smoke),
    "openai": (("play",), _openai_smoke),
    "anthropic": (("play",), _anthropic_smoke),
    "learn": (("train",), _learn_smoke),
    "inspect": (("play",), _inspect_smoke),
    "ray": (("tournament", "plan"), _ray_smoke),
}


@pytest.mark.slow
@pytest.mark.subprocess
@pytest.mark.timeout(900)
@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_extra_alone_runs_its_commands(extra: str, tmp_path: Path) -> None:
    """Each extra installed alone in a fresh virtualenv: its commands' help and a smoke run.
    (``local`` is left out: it compiles llama.cpp, minutes more; the main install tests it.)"""
    venv = Venv(tmp_path)
    venv.create()
    venv.pip(f"install duskfall[{extra}]", "-q", "-e", f"{ROOT}[{extra}]")
    command, smoke = EXTRAS[extra]
    done = venv.duskfall(*command, "--help")
    assert done.returncode == 0 and "Usage" in done.stdout, done.stderr
    smoke(venv)
