"""Full tier: tournaments on a real two-node Ray cluster that lose a node, a driver, a worker.

The cluster is two ``ray start`` on this machine, each with its own temporary folder and
ports, and (as root, with ``unshare``) its own PID and UTS namespaces: node-b has its own
host name, and killing it ends all its processes at once, as a machine dies. Every
tournament is checked against the same tournament played uninterrupted on the local event
loop: every slot played exactly once, the same games, the same leaderboard. The index and
the logs are the driver's alone, on its disk; the test only reads them.

The tests print what they are doing (the cluster takes about 20 seconds to start).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.conftest import StubMaker
from arena.tournament_kit import outcomes, report, run
from conftest import InBackground
from duskfall.arena.tournament_config import parse_tournament
from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow
from duskfall.store.slots import slot_records
from duskfall.testing.ray_cluster import (
    FAST_FAILURE_DETECTION,
    LocalRayCluster,
    Node,
    index_rows,
    namespaces_available,
)
from duskfall.testing.require import require
from duskfall.testing.stub_server import StubServer

pytestmark = pytest.mark.subprocess

SRC = Path(__file__).parents[2] / "src"
NODE_B = Node("node-b", cpus=1)
SECRET_NAME = "OPENAI_API_KEY"

Say = Callable[[str], None]


@pytest.fixture(scope="module")
def say(request: pytest.FixtureRequest) -> Say:
    """Print on the terminal as the test goes (past pytest's capture)."""
    capture = request.config.pluginmanager.getplugin("capturemanager")

    def say(text: str) -> None:
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            print(f"\n    [ray cluster] {text}", end="", flush=True)

    return say


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, say: Say) -> Iterator[LocalRayCluster]:
    require("ray", "pip install 'duskfall[ray]'")
    root = tmp_path_factory.mktemp("ray")
    env = {k: v for k, v in os.environ.items() if k != SECRET_NAME}  # the nodes lack the key
    env["PYTHONPATH"] = str(SRC)
    say(
        "starting node-a (head) and node-b"
        + (" in their own PID/UTS namespaces" if namespaces_available() else "")
    )
    with LocalRayCluster(
        root,
        [Node("node-a", cpus=1), NODE_B],
        system_config=FAST_FAILURE_DETECTION,
        env=env,
        say=say,
    ) as started:
        yield started
    say("cluster stopped")


@pytest.fixture
def two_nodes(cluster: LocalRayCluster, say: Say) -> LocalRayCluster:
    """The cluster with node-b up (a test before may have killed it)."""
    if NODE_B.name not in cluster.alive():
        say("starting node-b again")
        cluster.start_node(NODE_B)
    return cluster


def _duskfall(
    args: list[str], cwd: Path, env: dict[str, str], host: str | None = None
) -> subprocess.Popen[str]:
    """``duskfall ARGS`` in a child process; on ``host`` (its own UTS namespace) if given."""
    command = [sys.executable, "-m", "duskfall", *args]
    if host is not None and namespaces_available():
        inner = " ".join(_quoted(part) for part in command)
        command = ["unshare", "--uts", "sh", "-c", f"hostname {host} && exec {inner}"]
    return subprocess.Popen(
        command,
        cwd=cwd,
        env={**env, "PYTHONPATH": str(SRC)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _quoted(part: str) -> str:
    import shlex

    return shlex.quote(part)


def _wait_for(what: str, check: Callable[[], bool], timeout: float, driver: Any) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        if driver.poll() is not None:
            out, err = driver.communicate()
            pytest.fail(f"the driver ended before {what}:\n{out[-2000:]}\n{err[-2000:]}")
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _finish(driver: subprocess.Popen[str], timeout: float = 300) -> str:
    out, err = driver.communicate(timeout=timeout)
    assert driver.returncode == 0, f"{out[-3000:]}\n{err[-3000:]}"
    return out


def _config_file(where: Path, data: dict[str, Any]) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    path = where / "t.toml"
    lines = []
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    arrays = {k: v for k, v in data.items() if isinstance(v, list)}
    for key, value in data.items():
        if key not in tables and key not in arrays:
            lines.append(f"{key} = {json.dumps(value)}")
    for key, table in tables.items():
        lines.append(f"[{key}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in table.items()]
    for key, items in arrays.items():
        for item in items:
            lines.append(f"[[{key}]]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in item.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def _each_slot_once(db: Path, games: int) -> None:
    rows = index_rows(db)
    assert sorted(slot for slot, _, _ in rows) == list(range(games))
    assert {status for _, status, _ in rows} == {"finished"}


def _model_tournament(stub: StubServer, name: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "games": 8,
        "seed": 4,
        "schedule": "sides",
        "parallel_games": 4,
        "entrants": {"model": f"llm:openai:stub@{stub.url}", "bot": "heuristic"},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
        **extra,
    }


@pytest.fixture
def stub(stub_server: StubMaker) -> StubServer:
    return stub_server(latency=0.05)


def test_a_node_lost_mid_run_costs_only_its_games_in_flight(
    two_nodes: LocalRayCluster,
    stub_server: StubMaker,
    in_background: InBackground[Any],
    tmp_path: Path,
    say: Say,
) -> None:
    """node-b dies while it plays a game (one of its model calls is held at the endpoint, so
    it certainly has a game in flight): that game is played again on node-a, and the
    tournament ends as it would have on one process."""
    psutil = require("psutil")
    caught = threading.Event()
    release = asyncio.Event()
    armed = [False]

    def b_played() -> int:
        return sum(host == NODE_B.name for _, _, host in index_rows(where / "index.db"))

    async def on_call(peer: tuple[str, int]) -> None:
        if armed[0] and not caught.is_set() and b_played() >= 2:
            try:
                caller = _process_of(psutil, peer, stub.port).pid
            except (AssertionError, psutil.Error):  # its connection is gone already
                return
            if caller in two_nodes.pids(NODE_B.name):
                caught.set()
                await release.wait()

    stub = stub_server(latency=0.01, on_call=on_call)
    data = _model_tournament(stub, "lost-node", games=16)
    config = parse_tournament({**data, "log_dir": "games"})
    say("an LLM tournament (a stub endpoint) on the local event loop, uninterrupted")
    run(config, tmp_path / "local")
    armed[0] = True
    where = tmp_path / "ray"
    _config_file(where, data)
    db = where / "index.db"
    args = ["tournament", "run", "t.toml", "--db", "index.db", "--backend", "ray"]
    driver = _duskfall([*args, "--address", two_nodes.address], where, two_nodes.driver_env())
    say("the same on node-a and node-b; node-b dies in the middle of its third game")
    try:
        _wait_for("a call from node-b after two of its games", caught.is_set, 240, driver)
        before = len(index_rows(db))
        killed_at = time.time()
        two_nodes.kill(NODE_B.name)
        say(f"killed node-b (all its processes) after {before} games, {b_played()} its own")
    finally:
        in_background(_set(release))
    out = _finish(driver)
    after = time.time() - killed_at
    _each_slot_once(db, 16)
    records = slot_records(db, "lost-node")
    retried = {slot: r for slot, r in records.items() if r.attempts}
    nodes = sorted({host for _, _, host in index_rows(db)})
    say(
        f"all 16 games recorded once, {after:.1f}s after the kill; played on "
        f"{', '.join(nodes)}; {len(retried)} game(s) lost with node-b and played again"
    )
    for record in list(retried.values())[:2]:
        say(f"  slot {record.slot}: {record.reason}")
    unplayed = [(r.slot, r.state, r.reason) for r in records.values() if r.state != "played"]
    assert not unplayed
    assert retried, "node-b's game in flight was not played again"
    reasons = {r.reason or "" for r in retried.values()}
    assert all("died" in reason or "lost" in reason for reason in reasons), reasons
    assert all(index_host == "node-a" for slot, _, index_host in index_rows(db) if slot in retried)
    assert "node-b" in nodes and "16 game(s) played" in out
    assert outcomes(report(config, where)) == outcomes(report(config, tmp_path / "local"))


def _rows(db: Path, name: str) -> list[GameRow]:
    with GameIndex(db) as index:
        return index.tournament_games(name)


def _files_holding(root: Path, needle: str) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        with contextlib.suppress(OSError):
            if path.is_file() and not path.is_symlink() and needle.encode() in path.read_bytes():
                found.append(path)
    return found


def test_a_killed_driver_resumes_from_another_host_to_the_same_results(
    two_nodes: LocalRayCluster,
    stub: StubServer,
    tmp_path: Path,
    say: Say,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "sk-duskfall-test-" + os.urandom(8).hex()
    data = _model_tournament(stub, "killed-driver")
    config = parse_tournament({**data, "log_dir": "games"})
    say("an LLM tournament (a stub endpoint) on the local event loop, uninterrupted")
    monkeypatch.setenv(SECRET_NAME, secret)
    run(config, tmp_path / "local")
    where = tmp_path / "ray"
    _config_file(where, data)
    db = where / "index.db"
    env = two_nodes.driver_env({**os.environ, SECRET_NAME: secret})
    args = ["tournament", "run", "t.toml", "--db", "index.db", "--backend", "ray"]
    args += ["--address", two_nodes.address, "--env", SECRET_NAME]
    say("the same on the cluster; its key only in the driver's shell (--env OPENAI_API_KEY)")
    driver = _duskfall(args, where, env)
    _wait_for("2 games", lambda: len(index_rows(db)) >= 2, 240, driver)
    driver.send_signal(signal.SIGKILL)
    driver.wait(30)
    played = len(index_rows(db))
    elsewhere = tmp_path / "elsewhere"  # its machine is gone; a copy of its folder is here
    shutil.copytree(where, elsewhere)
    shutil.rmtree(where)
    say(f"kill -9 of the driver after {played} games; resuming on host 'elsewhere' from a copy")
    args[1] = "resume"
    out = _finish(_duskfall(args, elsewhere, env, host="elsewhere"))
    say(out.strip().splitlines()[0] if out.strip() else "(no output)")
    _each_slot_once(elsewhere / "index.db", 8)
    assert f"{8 - played} game(s) played" in out
    assert outcomes(report(config, elsewhere)) == outcomes(report(config, tmp_path / "local"))
    logs = [Path(row.log_path or "") for row in _rows(elsewhere / "index.db", config.name)]
    assert all(log.is_relative_to(elsewhere) and log.exists() for log in logs)
    assert stub.credentials[f"Bearer {secret}"] > 0  # the workers had the key
    assert all(key == f"Bearer {secret}" for key in stub.credentials)
    folders = [two_nodes.root, *two_nodes.ray_dirs, elsewhere]
    leaks = [path for folder in folders for path in _files_holding(folder, secret)]
    files = sum(1 for folder in folders for path in folder.rglob("*") if path.is_file())
    say(
        f"the key is in none of the {files} files of the nodes' and the tournament's folders"
        if not leaks
        else f"leaked: {leaks}"
    )
    assert not leaks


def _one_call_at_a_time(
    stub: StubServer, name: str, cluster: LocalRayCluster, where: Path
) -> tuple[dict[str, Any], subprocess.Popen[str]]:
    """A four-game LLM tournament whose endpoint takes one call at a time (leases of 3 s),
    started on the cluster: its config data and its driver."""
    data = _model_tournament(
        stub,
        name,
        games=4,
        agent_options={"concurrency": 1},
        execution={"lease_seconds": LEASE},
    )
    _config_file(where, data)
    args = ["tournament", "run", "t.toml", "--db", "index.db", "--backend", "ray"]
    return data, _duskfall([*args, "--address", cluster.address], where, cluster.driver_env())


def _as_uninterrupted(data: dict[str, Any], where: Path, tmp_path: Path) -> None:
    """Every slot played once, and the same games as the tournament played uninterrupted."""
    _each_slot_once(where / "index.db", data["games"])
    config = parse_tournament({**data, "log_dir": "games"})
    run(config, tmp_path / "local")
    assert outcomes(report(config, where)) == outcomes(report(config, tmp_path / "local"))


LEASE = 3.0


def test_a_worker_killed_holding_an_endpoint_slot_gives_it_back_after_its_lease(
    two_nodes: LocalRayCluster,
    stub_server: StubMaker,
    in_background: InBackground[Any],
    tmp_path: Path,
    say: Say,
) -> None:
    psutil = require("psutil")
    held: dict[str, Any] = {"calls": 0, "peer": None, "served_after": None}
    arrived = threading.Event()
    release = asyncio.Event()
    killed_at: list[float] = []

    async def on_call(peer: tuple[str, int]) -> None:
        held["calls"] += 1
        if killed_at and held["served_after"] is None:
            held["served_after"] = time.monotonic() - killed_at[0]
        if held["calls"] == 12:  # hold the 12th call: its worker holds the only slot
            held["peer"] = peer
            arrived.set()
            await release.wait()

    stub = stub_server(latency=0.02, on_call=on_call)
    where = tmp_path / "ray"
    try:
        data, driver = _one_call_at_a_time(stub, "killed-worker", two_nodes, where)
        say("an LLM tournament, one call at a time to its endpoint; the 12th call is held")
        _wait_for("the 12th call", arrived.is_set, 240, driver)
        worker = _process_of(psutil, held["peer"], stub.port)
        say(f"killing its worker (pid {worker.pid}: {' '.join(worker.cmdline())[:40]})")
        worker.kill()
        killed_at.append(time.monotonic())
    finally:
        in_background(_set(release))
    _finish(driver)
    waited = held["served_after"]
    say(f"the next call was served {waited:.1f}s after the kill (lease {LEASE:g}s)")
    assert waited is not None and waited < LEASE + 5
    assert stub.max_in_flight == 1  # the slot was never handed out twice
    records = slot_records(where / "index.db", "killed-worker")
    assert any("worker" in (r.reason or "") for r in records.values() if r.attempts)
    stub.on_call = None
    _as_uninterrupted(data, where, tmp_path)


async def _set(event: asyncio.Event) -> None:
    event.set()


def _process_of(psutil: Any, peer: tuple[str, int], server_port: int) -> Any:
    """The process whose connection to the stub server comes from ``peer``."""
    for connection in psutil.net_connections(kind="tcp"):
        local, remote = connection.laddr, connection.raddr
        if local and remote and local.port == peer[1] and remote.port == server_port:
            return psutil.Process(connection.pid)
    raise AssertionError(f"no process has the connection from {peer}")


def test_the_endpoint_limit_service_killed_mid_run_comes_back_and_the_run_goes_on(
    two_nodes: LocalRayCluster, stub_server: StubMaker, tmp_path: Path, say: Say
) -> None:
    """The actor keeping an endpoint's slots is killed while games are in flight: Ray starts
    it again on the driver's node, the holders tell it what they hold, and the tournament
    ends as it would have, the endpoint never seeing two calls at once."""
    psutil = require("psutil")
    arrived = threading.Event()

    async def on_call(peer: tuple[str, int]) -> None:
        if stub.stats["ok"] >= 15:
            arrived.set()

    stub = stub_server(latency=0.05, on_call=on_call)
    where = tmp_path / "ray"
    data, driver = _one_call_at_a_time(stub, "killed-limits", two_nodes, where)
    say("an LLM tournament, one call at a time to its endpoint; its limit service is killed")
    _wait_for("15 calls", arrived.is_set, 240, driver)
    keepers = [
        process
        for process in psutil.process_iter(["cmdline"])
        if any("RayLeaseKeeper" in part for part in process.info["cmdline"] or ())
    ]
    assert len(keepers) == 1, keepers
    keepers[0].kill()
    out = _finish(driver)
    say(f"Ray started it again and the run went on: {out.strip().splitlines()[0]}")
    records = slot_records(where / "index.db", "killed-limits")
    assert not [r.reason for r in records.values() if r.attempts]  # no game was lost to it
    assert stub.max_in_flight == 1
    _as_uninterrupted(data, where, tmp_path)
