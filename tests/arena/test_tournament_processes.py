"""Full tier: a tournament killed with SIGKILL resumes to the same leaderboard; the Ray
backend and worker processes give the same results as the local event loop."""

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
    )


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
    ray = pytest.importorskip("ray") if os.environ.get("CI") != "true" else __import__("ray")
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
