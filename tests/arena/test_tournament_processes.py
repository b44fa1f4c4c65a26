"""Full tier: a tournament killed with SIGKILL resumes to the same leaderboard; Ctrl-C stops
a run with the command that resumes it; a second driver is refused while the first lives;
the Ray backend and worker processes give the same results as the local event loop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.tournament_kit import bot_config, outcomes, report, run
from duskfall.store.index import GameIndex
from duskfall.testing.require import require

CONFIG = """
name = "killed"
games = 80
seed = 21
schedule = "mixed"
parallel_games = 2

[entrants]
smart = "heuristic"
naive = "random"

[[variants]]
variant = "werewolf"
preset = "werewolf-6"
"""


def _duskfall(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    return subprocess.Popen(
        [sys.executable, "-m", "duskfall", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group: Ctrl-C (SIGINT) reaches it, and its workers
    )


def _finished_games(db: Path) -> int:
    if not db.exists():
        return 0
    with GameIndex(db, repair=False) as index:
        return sum(r.status == "finished" for r in index.tournament_games("killed"))


def _wait_for_games(db: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and _finished_games(db) < count:
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


def _leaderboard(cwd: Path) -> list[dict[str, object]]:
    done = _duskfall(
        "tournament", "report", "t.toml", "--db", "i.db", "--json", "--bootstrap", "50", cwd=cwd
    )
    out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    data = json.loads(out)
    board = data["board"]["entrants"]
    return [{k: e[k] for k in ("name", "overall", "openskill", "win_rates")} for e in board] + [
        {"games": [(g["slot"], g["winner_side"]) for g in data["games"]]}
    ]


@pytest.mark.subprocess
def test_resume_after_kill_9_ends_with_the_same_leaderboard(tmp_path: Path) -> None:
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    for where in (whole, killed):
        where.mkdir()
        (where / "t.toml").write_text(CONFIG)
    done = _duskfall("tournament", "run", "t.toml", "--db", "i.db", cwd=whole)
    assert done.wait(timeout=300) == 0
    victim = _duskfall("tournament", "run", "t.toml", "--db", "i.db", cwd=killed)
    deadline = time.monotonic() + 120
    finished = 0
    while time.monotonic() < deadline and finished < 5:
        time.sleep(0.02)
        if (killed / "i.db").exists():
            with GameIndex(killed / "i.db", repair=False) as index:
                rows = index.tournament_games("killed")
            finished = sum(r.status == "finished" for r in rows)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=30)
    # opened as resume opens it: a game whose log ended just before the kill, its row not yet
    # closed, is repaired into a finished one (and is not played again)
    with GameIndex(killed / "i.db") as index:
        rows = index.tournament_games("killed")
    played_before = sum(r.status == "finished" for r in rows)
    in_flight = sum(r.status == "running" for r in rows)
    assert in_flight <= 2  # parallel_games: only the games in flight were lost
    assert 5 <= played_before < 80
    resumed = _duskfall("tournament", "resume", "t.toml", "--db", "i.db", cwd=killed)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"{80 - played_before} game(s) played" in out
    assert _leaderboard(killed) == _leaderboard(whole)


@pytest.mark.subprocess
def test_ctrl_c_stops_workers_and_says_how_to_resume(tmp_path: Path) -> None:
    # 240 games: at any load the run is far from its end when the signal comes (with 80, a
    # busy machine's poll saw the 5th game late and the run had ended with 0 before Ctrl-C)
    config = CONFIG.replace("parallel_games = 2", "workers = 2")
    config = config.replace("games = 80", "games = 240")
    (tmp_path / "t.toml").write_text(config)
    victim = _duskfall("tournament", "run", "t.toml", "--db", "i.db", cwd=tmp_path)
    _wait_for_games(tmp_path / "i.db", 5, victim)
    assert _finished_games(tmp_path / "i.db") < 200, "the run was nearly over before Ctrl-C"
    os.killpg(victim.pid, signal.SIGINT)  # what the terminal sends to the whole group
    out, err = victim.communicate(timeout=60)
    assert victim.returncode == 130, err
    hint = f"duskfall tournament resume t.toml --db {tmp_path / 'i.db'}"
    assert "interrupted" in out and hint in out and "Traceback" not in out + err, err
    status = _duskfall("tournament", "status", "t.toml", "--db", "i.db", cwd=tmp_path)
    shown, _ = status.communicate(timeout=60)
    assert "no driver running" in shown or "0 in flight" in shown
    resumed = _duskfall("tournament", "resume", "t.toml", "--db", "i.db", cwd=tmp_path)
    assert resumed.wait(timeout=600) == 0
    assert _finished_games(tmp_path / "i.db") == 240


@pytest.mark.subprocess
def test_a_second_driver_is_refused_while_the_first_lives(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(CONFIG.replace("games = 80", "games = 2000"))
    first = _duskfall("tournament", "run", "t.toml", "--db", "i.db", cwd=tmp_path)
    try:
        _wait_for_games(tmp_path / "i.db", 1, first)
        second = _duskfall("tournament", "resume", "t.toml", "--db", "i.db", cwd=tmp_path)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2 and f"being played by process {first.pid}" in err
        status = _duskfall("tournament", "status", "t.toml", "--db", "i.db", cwd=tmp_path)
        shown, _ = status.communicate(timeout=60)
        assert f"driver: process {first.pid}" in shown
    finally:
        first.kill()
        first.wait(30)
    after = _duskfall("tournament", "status", "t.toml", "--db", "i.db", cwd=tmp_path)
    shown, _ = after.communicate(timeout=60)
    assert "no driver running" in shown  # a dead driver is known as dead at once


@pytest.mark.slow
def test_worker_processes_give_the_same_results_as_the_event_loop(tmp_path: Path) -> None:
    config = bot_config("sides")
    run(config, tmp_path / "loop")
    run(bot_config("sides", workers=2), tmp_path / "pool")
    assert outcomes(report(config, tmp_path / "pool")) == outcomes(
        report(config, tmp_path / "loop")
    )


@pytest.mark.slow
def test_the_ray_backend_gives_the_same_results_as_local(tmp_path: Path) -> None:
    ray = require("ray", "pip install 'duskfall[ray]'")
    config = bot_config("mixed")
    run(config, tmp_path / "local")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        summary = run(config, tmp_path / "ray", backend="ray")
    finally:
        ray.shutdown()
    assert summary.played == 8 and not summary.failed
    assert outcomes(report(config, tmp_path / "ray")) == outcomes(
        report(config, tmp_path / "local")
    )
