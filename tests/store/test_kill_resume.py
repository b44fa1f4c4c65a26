"""Real processes, real files: kill -9 a game at random points, resume it, verify the log."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.subprocess

SLOW_PLAY = str(Path(__file__).with_name("slow_play.py"))
SEED = 5


def command(*args: str, slow: bool = False) -> list[str]:
    """``duskfall ARGS`` (with the ``slow:MS`` agent kind available if ``slow``)."""
    return [sys.executable, SLOW_PLAY, *args] if slow else [sys.executable, "-m", "duskfall", *args]


def run(*args: str, cwd: Path, slow: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        command(*args, slow=slow), cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def whole_lines(path: Path) -> bytes:
    data = path.read_bytes() if path.exists() else b""
    return data[: data.rfind(b"\n") + 1]


def start_game(tmp_path: Path, log: Path, delay_ms: int) -> subprocess.Popen[bytes]:
    args = ["play", "--seed", str(SEED), "--agents", f"slow:{delay_ms}", "--log", str(log), "-q"]
    return subprocess.Popen(
        command(*args, slow=True), cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def kill_after_lines(process: subprocess.Popen[bytes], log: Path, lines: int) -> None:
    """Kill -9 ``process`` as soon as ``log`` has ``lines`` lines (or it has ended)."""
    deadline = time.monotonic() + 60
    while process.poll() is None and whole_lines(log).count(b"\n") < lines:
        assert time.monotonic() < deadline, "the game did not reach the kill point"
        time.sleep(0.001)  # polling the file: the kill point itself is meant to be random
    process.send_signal(signal.SIGKILL)
    process.wait(10)


def games_json(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    listed = run("games", "--json", *args, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    return [json.loads(line) for line in listed.stdout.splitlines()]


def header_of(log: Path) -> dict[str, Any]:
    first: dict[str, Any] = json.loads(log.read_bytes().split(b"\n", 1)[0])
    return first


KILL_POINTS = sorted(random.Random(2024).sample(range(2, 100), 6))


@pytest.mark.parametrize("lines", KILL_POINTS)
def test_killed_game_resumes_to_an_exact_replay(tmp_path: Path, lines: int) -> None:
    log = tmp_path / "game.jsonl"
    kill_after_lines(start_game(tmp_path, log, delay_ms=3), log, lines)
    kept = whole_lines(log)
    game_id = header_of(log)["game_id"]
    if b'"kind":"game_over"' in kept:
        refused = run("resume", game_id, cwd=tmp_path, slow=True)
        assert refused.returncode == 2 and "already over" in refused.stderr
        return
    [row] = games_json(tmp_path)
    assert (row["id"], row["status"]) == (game_id, "running")

    resumed = run("resume", game_id, "-q", cwd=tmp_path, slow=True)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming after" in resumed.stdout and "wins" in resumed.stdout

    assert log.read_bytes().startswith(kept)
    replayed = run("replay", "-q", str(log), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "replay verified" in replayed.stdout and "warning" not in replayed.stdout
    # signed throughout: what the killed process wrote after its last seal, by the resume
    assert "verified (signed by this operator's key" in replayed.stdout
    assert "after its last signature" not in replayed.stdout
    [row] = games_json(tmp_path)
    assert row["status"] == "finished" and row["winner"] in ("RED", "BLACK")
    records = log.read_bytes().count(b'\n{"type":')  # seals and the end record: no events
    assert row["events"] == log.read_bytes().count(b"\n") - 1 - records


def test_torn_line_is_repaired_on_resume(tmp_path: Path) -> None:
    log = tmp_path / "torn.jsonl"
    kill_after_lines(start_game(tmp_path, log, delay_ms=3), log, 30)
    kept = whole_lines(log)
    with log.open("ab") as handle:  # what a power cut can leave behind
        handle.write(b'{"seq":999,"game_id":"x","da')
    replayed = run("replay", "-q", str(log), cwd=tmp_path)
    assert replayed.returncode == 0 and "ends mid-line" in replayed.stdout
    resumed = run("resume", str(log), "-q", cwd=tmp_path, slow=True)
    assert resumed.returncode == 0, resumed.stderr
    assert "repaired" in resumed.stdout and "ends mid-line" in resumed.stdout
    assert log.read_bytes().startswith(kept)
    assert run("replay", "-q", str(log), cwd=tmp_path).returncode == 0


def test_a_running_game_is_not_resumed_twice(tmp_path: Path) -> None:
    log = tmp_path / "live.jsonl"
    process = start_game(tmp_path, log, delay_ms=200)
    try:
        deadline = time.monotonic() + 60
        while whole_lines(log).count(b"\n") < 3:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        refused = run("resume", str(log), cwd=tmp_path, slow=True)
        assert refused.returncode == 2
        assert f"still running in process {process.pid}" in refused.stderr
        assert "Traceback" not in refused.stderr
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    assert games_json(tmp_path, "--status", "running") == []  # its process is gone
    [row] = games_json(tmp_path, "--status", "interrupted")
    assert row["log_path"] == str(log)
    listed = run("games", cwd=tmp_path)
    assert "interrupted" in listed.stdout


def test_clear_errors(tmp_path: Path) -> None:
    for args, message in [
        (("resume", "nope"), "no such log file, and no game 'nope'"),
        (("resume", "missing.jsonl"), "missing.jsonl: no such log file"),
        (("games", "--db", str(tmp_path / "none" / "x.db")), "no game index at"),
        (("games", "--status", "won"), "unknown status 'won'"),
    ]:
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert message in result.stderr and "Traceback" not in result.stderr
