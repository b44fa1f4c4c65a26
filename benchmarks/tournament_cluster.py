"""Bot tournaments on one process, a process pool and a real two-node Ray cluster, and the
time a tournament takes to recover from losing a node.

The cluster is two ``ray start`` on this machine (:mod:`duskfall.testing.ray_cluster`: own
temporary folders and ports, and as root own PID/UTS namespaces), one CPU each, so all three
backends have the same two cores. Figures (``heuristic`` against ``random``, sports mafia,
every game logged and indexed by the driver; best of ``--rounds`` alternating runs; the
driver is a ``duskfall tournament run`` process, as a user runs it):

* games per second: one process (``workers = 1``), two worker processes (``workers = 2``),
  Ray with the automatic batching (several games a task), and Ray with one game a task (as
  before batching), and their ratios to one process;
* recovery after a node loss: a Ray tournament loses node-b (every process of it killed at
  once) mid-run; *detected* is the time until the driver recorded the first game lost with
  it, *recovered* the time until every game lost with it was played again on node-a. With
  Ray's own failure detection (a node is declared dead after missed health checks, about 15
  seconds by default) and with a faster one (``--system-config``, about 2 seconds).

    python benchmarks/tournament_cluster.py                  # 2000 games, 2 rounds
    python benchmarks/tournament_cluster.py --games 500 --rounds 1 --recovery-games 1500
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from baseline import current_src, load_average
from duskfall.store.slots import slot_records
from duskfall.testing.ray_cluster import (
    FAST_FAILURE_DETECTION,
    LocalRayCluster,
    Node,
    index_rows,
)

CONFIG = """
name = "bench"
games = {games}
seed = 1
workers = {workers}

[entrants]
first = "heuristic"
second = "random"

[[variants]]
variant = "sports-mafia"
"""


def _say(text: str) -> None:
    print(f"  .. {text}", file=sys.stderr, flush=True)


def _driver(
    folder: Path, games: int, workers: int, extra: list[str], env: dict[str, str], tail: str = ""
) -> subprocess.Popen[str]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.toml").write_text(CONFIG.format(games=games, workers=workers) + tail)
    command = [sys.executable, "-m", "duskfall", "tournament", "run", "t.toml", "--db", "i.db"]
    return subprocess.Popen(
        [*command, *extra],
        cwd=folder,
        env={**env, "PYTHONPATH": str(current_src())},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(driver: subprocess.Popen[str]) -> None:
    out, err = driver.communicate(timeout=3600)
    if driver.returncode != 0:
        raise RuntimeError(f"the tournament failed:\n{out[-1500:]}\n{err[-1500:]}")


def games_per_second(
    root: Path, games: int, workers: int, extra: list[str], env: dict[str, str], tail: str = ""
) -> float:
    """One whole ``tournament run`` (start-up included), in games per second."""
    folder = Path(tempfile.mkdtemp(dir=root))
    try:
        start = time.perf_counter()
        _finish(_driver(folder, games, workers, extra, env, tail))
        return games / (time.perf_counter() - start)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def throughput(root: Path, cluster: LocalRayCluster, games: int, rounds: int) -> None:
    ray = ["--backend", "ray", "--address", cluster.address]
    env = cluster.driver_env()
    one_a_task = "\n[execution]\ngames_per_task = 1\n"
    ways = {
        "1 process": (1, [], ""),
        "2 worker processes": (2, [], ""),
        "Ray, 2 nodes x 1 CPU, batched": (1, ray, ""),
        "Ray, 2 nodes x 1 CPU, 1 game a task": (1, ray, one_a_task),
    }
    _say("warming the Ray workers up")
    games_per_second(root, min(200, games), 1, ray, env)
    best: dict[str, float] = {}
    for number in range(rounds):
        for name, (workers, extra, tail) in ways.items():
            rate = games_per_second(root, games, workers, extra, env, tail)
            _say(f"round {number + 1}: {name}: {rate:.1f} games/s")
            best[name] = max(best.get(name, 0.0), rate)
    local = best["1 process"]
    for name, rate in best.items():
        print(f"{name:38s} {rate:6.1f} games/s  ({rate / local:.2f}x one process)")


def _epoch(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def recovery(root: Path, games: int, fast: bool) -> None:
    """Lose node-b mid-run; how long until the driver knew, and until its games were redone."""
    label = "fast detection" if fast else "Ray's default detection"
    folder = root / ("recovery-fast" if fast else "recovery-default")
    config = FAST_FAILURE_DETECTION if fast else None
    nodes = [Node("node-a", cpus=1), Node("node-b", cpus=1)]
    with LocalRayCluster(root / f"cluster-{fast}", nodes, system_config=config, say=_say) as cl:
        ray, env = ["--backend", "ray", "--address", cl.address], cl.driver_env()
        games_per_second(root, 100, 1, ray, env)  # warm the workers up
        driver = _driver(folder, games, 1, ray, env)
        db = folder / "i.db"
        while sum(host == "node-b" for _, _, host in index_rows(db)) < 50:
            if driver.poll() is not None:
                raise RuntimeError("the tournament ended before node-b played 50 games")
            time.sleep(0.05)
        recorded = len(index_rows(db))
        killed = time.time()
        cl.kill("node-b")
        _say(f"{label}: killed node-b after {recorded} of {games} games")
        detected = None
        while detected is None and driver.poll() is None:
            if any(r.attempts for r in slot_records(db, "bench").values()):
                detected = time.time() - killed  # the driver recorded a lost game
            time.sleep(0.05)
        _finish(driver)
        ended = time.time() - killed
    lost = [r for r in slot_records(db, "bench").values() if r.attempts]
    if not lost or detected is None:
        print(f"recovery ({label}): node-b had no game in flight when it died")
        return
    recovered = max(_epoch(r.updated_at) for r in lost) - killed  # when each was played again
    hosts = {slot: host for slot, _, host in index_rows(db)}
    print(
        f"recovery ({label}): {len(lost)} game(s) in flight on node-b lost; the driver knew "
        f"after {detected:.1f}s, had played them all again (on "
        f"{', '.join(sorted({hosts[r.slot] for r in lost}))}) after {recovered:.1f}s; "
        f"the run of {games} games ended {ended:.1f}s after the kill"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--recovery-games", type=int, default=3000)
    parser.add_argument("--skip-default-detection", action="store_true")
    args = parser.parse_args()
    print(f"bot tournaments, heuristic vs random, sports mafia; {load_average()}")
    root = Path(tempfile.mkdtemp(prefix="duskfall-cluster-bench-"))
    try:
        nodes = [Node("node-a", cpus=1), Node("node-b", cpus=1)]
        with LocalRayCluster(root / "cluster", nodes, say=_say) as cluster:
            throughput(root, cluster, args.games, args.rounds)
        recovery(root, args.recovery_games, fast=True)
        if not args.skip_default_detection:
            recovery(root, args.recovery_games, fast=False)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(load_average())


if __name__ == "__main__":
    os.environ.pop("RAY_ADDRESS", None)
    main()
