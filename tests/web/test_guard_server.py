"""``duskfall web`` in a process of its own, sent large bodies over a real socket: its memory
stays flat, since a body is refused before it is read (or cut at the cap)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from duskfall.testing.ports import free_port
from duskfall.web.guard import DEFAULT_MAX_BODY

from .conftest import ADMIN

pytestmark = [pytest.mark.subprocess]
psutil = pytest.importorskip("psutil")

CHUNK = b"x" * (1 << 20)
SENT_MIB = 256
MAX_GROWTH = 50 << 20


@dataclass
class WebProcess:
    port: int
    pid: int

    def rss(self) -> int:
        rss: int = psutil.Process(self.pid).memory_info().rss
        return rss

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        return sock


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebProcess]:
    port = free_port()
    env = {**os.environ, "DUSKFALL_ADMIN_TOKEN": ADMIN}
    command = [sys.executable, "-m", "duskfall", "web", "--port", str(port)]
    command += ["--games-dir", str(tmp_path / "games"), "--db", str(tmp_path / "index.db")]
    command += ["--allow-host", "duskfall.test"]
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL) as process:
        try:
            deadline = time.monotonic() + 30
            while True:
                assert process.poll() is None, "duskfall web exited"
                assert time.monotonic() < deadline, "duskfall web did not start"
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            yield WebProcess(port, process.pid)
        finally:
            process.terminate()
            process.wait(timeout=10)


def _request(method: str, path: str, headers: dict[str, str], host: str = "127.0.0.1") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _status(sock: socket.socket) -> tuple[int, bytes]:
    """The status and the body of the response on ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        piece = sock.recv(65536)
        assert piece, f"connection closed before a response: {data!r}"
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length: *(\d+)", head)
    assert length, head
    while len(body) < int(length.group(1)):
        body += sock.recv(65536)
    return int(head.split(b" ", 2)[1]), body


def _flood(web: WebProcess, sock: socket.socket, chunked: bool) -> int:
    """Send SENT_MIB more MiB of body (until the server stops taking it); return the peak RSS."""
    peak = web.rss()
    try:
        for n in range(SENT_MIB):
            sock.sendall(b"100000\r\n" + CHUNK + b"\r\n" if chunked else CHUNK)
            if n % 8 == 0:
                peak = max(peak, web.rss())
    except OSError:  # the server closed the connection after its refusal
        pass
    return max(peak, web.rss())


@pytest.mark.parametrize("token", [None, "guess"])
def test_a_large_body_without_the_token_costs_no_memory(web: WebProcess, token: str | None) -> None:
    headers = {"Content-Type": "application/json", "Content-Length": str(400 << 20)}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    with web.connect() as warm:
        warm.sendall(_request("GET", "/api/games", {}))
        assert _status(warm)[0] == 200
    before = web.rss()
    with web.connect() as sock:
        sock.sendall(_request("POST", "/api/games", headers) + CHUNK)
        status, response = _status(sock)
        assert status == 403 and b"admin token" in response
        peak = _flood(web, sock, chunked=False)
    assert peak - before < MAX_GROWTH, f"server RSS grew by {(peak - before) >> 20} MiB"


def test_a_chunked_body_with_the_token_is_cut_at_the_cap(web: WebProcess) -> None:
    headers = {"Transfer-Encoding": "chunked", "Authorization": f"Bearer {ADMIN}"}
    before = web.rss()
    with web.connect() as sock:
        sock.sendall(_request("POST", "/api/games", headers))
        sock.sendall(b"100000\r\n" + CHUNK + b"\r\n" + b"100000\r\n" + CHUNK + b"\r\n")
        status, response = _status(sock)
        assert status == 413
        assert f"over the limit of {DEFAULT_MAX_BODY} bytes".encode() in response
        peak = _flood(web, sock, chunked=True)
    assert peak - before < MAX_GROWTH, f"server RSS grew by {(peak - before) >> 20} MiB"


def test_a_declared_length_over_the_cap_is_refused_at_once(web: WebProcess) -> None:
    headers = {"Content-Length": str(DEFAULT_MAX_BODY + 1), "Authorization": f"Bearer {ADMIN}"}
    with web.connect() as sock:
        sock.sendall(_request("POST", "/api/games", headers))
        assert _status(sock)[0] == 413


def test_hosts_given_with_allow_host_are_served(web: WebProcess) -> None:
    for host, expected in [("duskfall.test:80", 200), ("localhost", 200), ("evil.test", 400)]:
        with web.connect() as sock:
            sock.sendall(_request("GET", "/api/games", {}, host=host))
            assert _status(sock)[0] == expected, host
