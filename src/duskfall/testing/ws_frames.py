"""A WebSocket client by hand, for probing a server's limits below what a client library lets
one send: the opening handshake's request and a client's masked text frame, to be written a
byte at a time (``tests/server/test_websocket_limits.py``, ``benchmarks/probes/sockets.py``)."""

from __future__ import annotations

import base64
import os


def upgrade_request(port: int, path: str = "/") -> bytes:
    """The opening handshake's request to a server on loopback ``port``."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def text_frame(payload: bytes) -> bytes:
    """A client's masked text frame holding ``payload`` (under 126 bytes)."""
    if len(payload) > 125:
        raise ValueError("a payload of at most 125 bytes")
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked
