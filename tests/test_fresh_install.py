"""duskfall installed alone in a fresh virtualenv (no site packages), then with one extra: the
core's commands run, commands needing a missing extra (``arena``, ``export``) name it in one
line, and once the ``export`` extra is installed its command runs. Then each other extra alone
in a venv of its own: its commands' ``--help`` and a smoke run.

``local`` gets llama-cpp-python as a wheel of the build this interpreter runs (the set-up
script's, without AMX where the processor has it), made from its installed files: pip would
otherwise compile llama.cpp again, minutes on 2 cores. It installs from the package index pip
is configured with; without one it is skipped. Each step prints its time.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from duskfall.testing.ports import free_port
from duskfall.testing.require import missing, require

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


#: One decision of the embedded model, in process (a vote, as JSON of the schema), and the
#: features llama.cpp was built with.
LOCAL_CALL = """
import asyncio, json
import llama_cpp
from duskfall.llm import CallOptions, get_model
schema = {"type": "object", "properties": {"vote": {"enum": [3, 5]}}, "required": ["vote"]}
ask = [{"role": "user", "content": "Seats 3 and 5 are suspects. Vote for one of them."}]
reply = asyncio.run(get_model("local").complete(ask, schema, options=CallOptions(max_tokens=16)))
system = llama_cpp.llama_print_system_info().decode()
print(json.dumps([json.loads(reply.text)["vote"], reply.usage.prompt_tokens, system]))
"""


def installed_wheel(name: str, folder: Path) -> Path:
    """A wheel of the distribution ``name`` as this interpreter has it installed: its files
    and metadata, each hashed anew in its RECORD (compiled bytecode and files outside
    site-packages, such as scripts, left out)."""
    dist = importlib.metadata.distribution(name)
    files = [f for f in dist.files or () if not {"__pycache__", ".."} & set(f.parts)]
    info = next(f for f in files if f.name == "WHEEL").parent
    own = {info / n for n in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")}
    meta = dist.read_text("WHEEL") or ""
    [tag, *_] = [
        line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Tag:")
    ]
    wheel = folder / f"{info.name.removesuffix('.dist-info')}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w") as out:
        for file in (f for f in files if f not in own):
            data = Path(str(dist.locate_file(file))).read_bytes()
            out.writestr(str(file), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{file},sha256={digest.decode()},{len(data)}")
        out.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    return wheel


def _local_install(venv: Venv) -> None:
    """The ``local`` extra, llama-cpp-python from a wheel of this interpreter's build."""
    try:
        version = importlib.metadata.version("llama-cpp-python")
    except importlib.metadata.PackageNotFoundError:
        missing("llama-cpp-python", "its build is what the fresh venv reuses")
    wheels = venv.folder / "wheels"
    wheels.mkdir()
    start = time.monotonic()
    wheel = installed_wheel("llama-cpp-python", wheels)
    print(f"fresh venv: {wheel.name} from this interpreter's build in "
          f"{time.monotonic() - start:.0f} s", flush=True)  # fmt: skip
    pin = f"llama-cpp-python=={version}"
    venv.pip(
        "install duskfall[local]", "-q", "--find-links", str(wheels), "-e", f"{ROOT}[local]", pin
    )


def _local_smoke(venv: Venv) -> None:
    python = str(venv.folder / "venv/bin/python")
    done = venv.step("one call of the embedded model", python, "-c", LOCAL_CALL)
    assert done.returncode == 0, done.stderr[-2000:]
    vote, prompt_tokens, system = json.loads(done.stdout.splitlines()[-1])
    print(f"fresh venv: the embedded model voted {vote} ({prompt_tokens} prompt tokens)")
    assert vote in (3, 5) and prompt_tokens > 0
    llama_cpp = require("llama_cpp")  # the fresh venv runs this interpreter's build
    assert system == llama_cpp.llama_print_system_info().decode()


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
    "local": (("play",), _local_smoke),
}
INSTALLS: dict[str, Callable[[Venv], None]] = {"local": _local_install}  # else pip -e .[extra]


@pytest.mark.slow
@pytest.mark.subprocess
@pytest.mark.timeout(900)
@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_extra_alone_runs_its_commands(extra: str, tmp_path: Path) -> None:
    """Each extra installed alone in a fresh virtualenv: its commands' help and a smoke run."""
    venv = Venv(tmp_path)
    venv.create()
    install = INSTALLS.get(extra)
    if install is None:
        venv.pip(f"install duskfall[{extra}]", "-q", "-e", f"{ROOT}[{extra}]")
    else:
        install(venv)
    command, smoke = EXTRAS[extra]
    done = venv.duskfall(*command, "--help")
    assert done.returncode == 0 and "Usage" in done.stdout, done.stderr
    smoke(venv)
