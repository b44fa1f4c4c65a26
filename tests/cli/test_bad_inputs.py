"""Every bad input of a user gets one line and exit status 2: never a traceback, a hang or an
option silently ignored. Files that never end (``/dev/zero``) or never open (a FIFO), numbers
too long to convert, nesting too deep, a policy of strings, standard input closed under a
person's seat, a log folder that is no folder, a port that is no duskfall server, an empty or
misspelt agent spec, a log that already holds a game, a remote command with a format width."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from duskfall.testing.hostile import BAD_INPUTS, ENDLESS_INPUTS, ENDLESS_SOURCES, bad_input_files

pytestmark = [pytest.mark.subprocess, pytest.mark.timeout(300)]

CLI = [sys.executable, "-c", "from duskfall.cli import main; main()"]
WAIT = 60  # no command here may take longer: a hang fails the test


@pytest.fixture
def place(tmp_path: Path) -> Path:
    return bad_input_files(tmp_path)


def one_line_exit_2(args: list[str], cwd: Path, **options: object) -> str:
    """Run ``duskfall ARGS``; assert exit 2 with one ``error:`` line and no traceback."""
    env = {**os.environ, "DUSKFALL_DB": str(cwd / "index.db")}
    done = subprocess.run(
        [*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=WAIT, **options
    )  # type: ignore[call-overload]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, (args, done.stdout[-500:], done.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr
    return lines[0]


@pytest.mark.parametrize("source", ENDLESS_SOURCES)
@pytest.mark.parametrize("args", ENDLESS_INPUTS, ids=" ".join)
def test_files_that_never_end_or_never_open(args: list[str], source: str, place: Path) -> None:
    one_line_exit_2([a.format(source) for a in args], place)  # a log on /dev/zero too


@pytest.mark.parametrize(("args", "said"), BAD_INPUTS, ids=lambda a: " ".join(a)[:50])
def test_bad_values_are_one_line(args: list[str], said: str, place: Path) -> None:
    assert said in one_line_exit_2(args, place)


def test_misspelt_agent_keys_name_the_valid_ones(place: Path) -> None:
    line = one_line_exit_2(["play", "-v", "mafia", "--agents", "mafai=random,default=heuristic"],
                           place)  # fmt: skip
    assert "'mafai'" in line and "mafia" in line and "town" in line and "doctor" in line


def test_a_persons_seat_with_standard_input_closed(place: Path) -> None:
    line = one_line_exit_2(
        ["play", "--human", "0"], place, stdin=None, preexec_fn=lambda: os.close(0)
    )
    assert "standard input" in line


def test_log_refuses_to_overwrite_a_game_unless_forced(place: Path) -> None:
    env = {**os.environ, "DUSKFALL_DB": str(place / "index.db")}
    first = subprocess.run([*CLI, "play", "-q", "--seed", "1", "--log", "g.jsonl"], cwd=place,
                           env=env, capture_output=True, timeout=WAIT)  # fmt: skip
    assert first.returncode == 0
    kept = (place / "g.jsonl").read_bytes()
    line = one_line_exit_2(["play", "-q", "--seed", "2", "--log", "g.jsonl"], place)
    assert "already holds a finished game" in line and "--force" in line
    assert (place / "g.jsonl").read_bytes() == kept
    line = one_line_exit_2(["gm", "--log", "g.jsonl", "--model", "scripted"], place)
    assert "already holds a finished game" in line
    forced = subprocess.run([*CLI, "play", "-q", "--seed", "2", "--log", "g.jsonl", "--force"],
                            cwd=place, env=env, capture_output=True, timeout=WAIT)  # fmt: skip
    assert forced.returncode == 0 and (place / "g.jsonl").read_bytes() != kept


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never says a word (no duskfall server)."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    server.close()


def test_connect_to_a_port_that_is_no_duskfall_server(silent_port: int, place: Path) -> None:
    line = one_line_exit_2(["connect", "--port", str(silent_port), "--timeout", "1"], place)
    assert "no HELLO" in line and "duskfall server" in line
