"""A real Ray cluster of several nodes on this machine, for tests and benchmarks.

Each node is one ``ray start --block`` with its own temporary folder and its own ports (free
ones, none of Ray's defaults, so nothing collides with another cluster). Where the machine
allows it (root, ``unshare``), each node also runs in its own PID and UTS namespaces: it has
its own host name, so a game played there says so, and :meth:`LocalRayCluster.kill` ends
the node the way a machine dies, every process of it at once (SIGKILL to the namespace's
first process). Elsewhere a node is a process group (same host name; killed by group).

    with LocalRayCluster(tmp_path, [Node("node-a", cpus=1), Node("node-b", cpus=1)]) as cluster:
        ... duskfall tournament run t.toml --backend ray --address {cluster.address} ...
        cluster.kill("node-b")
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from duskfall.testing.ports import free_ports

READY = "Ray runtime started"
START_TIMEOUT = 120.0
# notice a lost node within about 2 seconds (Ray's defaults take about 15)
FAST_FAILURE_DETECTION = {
    "health_check_period_ms": 500,
    "health_check_timeout_ms": 500,
    "health_check_failure_threshold": 3,
}


@dataclass(frozen=True)
class Node:
    """A node to start: its host name (in its own UTS namespace) and CPUs."""

    name: str
    cpus: int = 1


def namespaces_available() -> bool:
    """Whether nodes can get their own PID and UTS namespaces here (root and ``unshare``)."""
    return sys.platform == "linux" and os.geteuid() == 0 and shutil.which("unshare") is not None


class LocalRayCluster:
    """Ray nodes started here; ``address`` is the head's. Stop with :meth:`close` (``with``)."""

    def __init__(
        self,
        root: Path,
        nodes: list[Node],
        *,
        system_config: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        say: Any = print,
    ) -> None:
        if not nodes:
            raise ValueError("a cluster needs a head node")
        self.root = root
        self.nodes = nodes
        self.system_config = dict(system_config or {})
        token = root / "auth_token"  # the cluster's own token: only its drivers get in
        root.mkdir(parents=True, exist_ok=True)
        token.write_text(secrets.token_hex(32))
        token.chmod(0o600)
        self.auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
        self.env = {**(env if env is not None else os.environ), **self.auth}
        self.say = say
        self.isolated = namespaces_available()
        self.ray = str(Path(sys.executable).with_name("ray"))
        self.ray_dirs: list[Path] = []  # Ray's own folders (short paths: its sockets live there)
        self._processes: dict[str, subprocess.Popen[bytes]] = {}
        self._outputs: dict[str, IO[bytes]] = {}
        self.address = ""
        self._worker_ports = random.Random().randrange(20_000, 30_000, 500)

    def __enter__(self) -> LocalRayCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def driver_env(self, env: Mapping[str, str] | None = None) -> dict[str, str]:
        """``env`` (default: this process's) with what a driver needs to join the cluster."""
        return {**(env if env is not None else os.environ), **self.auth}

    def start(self) -> None:
        head, *others = self.nodes
        port = free_ports(1)[0]
        self.address = f"{socket.gethostbyname(socket.gethostname())}:{port}"
        self._start_node(head, ["--head", f"--port={port}", "--include-dashboard=false"])
        for node in others:
            self._start_node(node, [f"--address={self.address}"])

    def start_node(self, node: Node) -> None:
        """Start (again) a node of the cluster, e.g. one that was killed."""
        self._start_node(node, [f"--address={self.address}"])

    def _start_node(self, node: Node, role: list[str]) -> None:
        folder = self.root / node.name
        folder.mkdir(parents=True, exist_ok=True)
        # a Unix socket's path has at most 107 bytes: Ray's folder gets a short one
        ray_dir = Path(tempfile.mkdtemp(prefix=f"ray-{node.name[:8]}-"))
        self.ray_dirs.append(ray_dir)
        ports = free_ports(6)
        low = self._worker_ports
        self._worker_ports += 500
        command = [
            self.ray,
            "start",
            *role,
            "--block",
            f"--temp-dir={ray_dir}",
            f"--num-cpus={node.cpus}",
            f"--node-manager-port={ports[0]}",
            f"--object-manager-port={ports[1]}",
            f"--dashboard-agent-listen-port={ports[2]}",
            f"--dashboard-agent-grpc-port={ports[3]}",
            f"--runtime-env-agent-port={ports[4]}",
            f"--metrics-export-port={ports[5]}",
            f"--min-worker-port={low}",
            f"--max-worker-port={low + 499}",
            "--object-store-memory=100000000",
            "--disable-usage-stats",
        ]
        if "--head" in role and self.system_config:
            command.append(f"--system-config={json.dumps(self.system_config)}")
        if self.isolated:
            shell = f"hostname {node.name} && exec " + " ".join(_quote(part) for part in command)
            command = ["unshare", "--uts", "--pid", "--mount", "--fork", "--mount-proc"]
            command += ["--kill-child=SIGKILL"]  # the node dies with this process
            command += ["sh", "-c", shell]
        output = (folder / "node.out").open("wb")
        self._outputs[node.name] = output
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,
        )
        self._processes[node.name] = process
        self._wait_ready(node, process, folder / "node.out")
        self.say(f"ray node {node.name} up in {time.monotonic() - started:.1f}s")

    def _wait_ready(self, node: Node, process: subprocess.Popen[bytes], log: Path) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if READY in log.read_text(errors="replace"):
                return
            if process.poll() is not None:
                break
            time.sleep(0.2)
        tail = log.read_text(errors="replace")[-2000:]
        self.close()
        raise RuntimeError(f"ray node {node.name} did not start:\n{tail}")

    def kill(self, name: str) -> None:
        """End node ``name`` at once, every process of it (as its machine would die)."""
        process = self._processes.pop(name)
        if self.isolated:
            process.kill()  # its child, the namespace's first process, and all the rest die too
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait(30)
        self._outputs.pop(name).close()

    def pids(self, name: str) -> set[int]:
        """The process ids (as this machine sees them) of every process of node ``name``."""
        import psutil

        process = self._processes.get(name)
        if process is None:
            return set()
        try:
            family = psutil.Process(process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return set()
        return {process.pid, *(child.pid for child in family)}

    def alive(self) -> list[str]:
        return [name for name, process in self._processes.items() if process.poll() is None]

    def close(self) -> None:
        """Kill every node (the head last) and remove Ray's folders."""
        for name in reversed(list(self._processes)):
            self.kill(name)
        for folder in self.ray_dirs:
            shutil.rmtree(folder, ignore_errors=True)


def _quote(part: str) -> str:
    import shlex

    return shlex.quote(part)


def index_rows(db: Path) -> list[tuple[int, str, str]]:
    """(tournament slot, status, host) of every game in the index at ``db``, read-only: a
    driver owns the file; a test or benchmark only looks."""
    import sqlite3

    if not db.exists():
        return []
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as raw:
            return raw.execute(
                "SELECT tournament_slot, status, host FROM games ORDER BY tournament_slot"
            ).fetchall()
    except sqlite3.OperationalError:  # the driver is creating it
        return []
