"""Loopback TCP ports that nothing listens on now, for servers started by tests and benchmarks."""

from __future__ import annotations

import socket


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports nothing listens on now (all held open until all are found)."""
    sockets, ports = [], []
    for _ in range(count):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        sockets.append(probe)
        ports.append(int(probe.getsockname()[1]))
    for probe in sockets:
        probe.close()
    return ports


def free_port() -> int:
    """One port nothing listens on now."""
    return free_ports(1)[0]
