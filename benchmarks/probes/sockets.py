"""Item 15: sockets anyone can open. From outside: 60 spectator sockets from one address on a
``duskfall web`` capped at 40 connections leave every honest request answered (the extra
sockets closed with 1013); ``serve --ws`` cuts a message trickled a byte at a time at its read
deadline, closes an oversized one with 1009, and refuses pages of another site and
``Origin: null`` while a program (no ``Origin``) and a local page are served."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
import traceback
from collections import Counter

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from duskfall.testing.ws_frames import text_frame, upgrade_request
from hardening_probes import Background, Duskfall, Tally, http_get, web_server

ITEM = 15
TITLE = "sockets anyone can open"
OUTSIDE = True

SPECTATORS = 60
CONNECTIONS = 40
READ_TIMEOUT = 2.0
TRICKLE = 0.25  # seconds between the bytes of a trickled message


def _watch(url: str) -> tuple[ClientConnection | None, str]:
    """A spectator socket on the public view and what became of it: ``snapshot`` (open),
    ``closed CODE``, or ``refused STATUS`` (no upgrade)."""
    try:
        ws = connect(url, open_timeout=10)
    except InvalidStatus as exc:
        return None, f"refused {exc.response.status_code}"
    except Exception as exc:  # closed in the handshake (the client library may trip on it)
        return None, f"refused {type(exc).__name__}"
    try:
        with contextlib.suppress(ConnectionClosed):  # a refused socket may be closed already
            ws.send(json.dumps({"type": "hello", "seat": -1}))
        first = json.loads(ws.recv(timeout=10))
        if first.get("type") == "snapshot":
            return ws, "snapshot"
        ws.recv(timeout=10)
    except (ConnectionClosed, TimeoutError):
        pass
    with contextlib.suppress(Exception):
        ws.close()
    return None, f"closed {ws.close_code}"


def _spectators(duskfall: Duskfall, tally: Tally) -> None:
    games = duskfall.work / "sockets-games"
    games.mkdir()
    played = duskfall.run("play", "--seed", "4", "--log", str(games / "g.jsonl"), "-q")
    tally.check(played.code == 0, f"a game to watch: {played.err[-200:]}")
    game_id = json.loads((games / "g.jsonl").read_text().split("\n", 1)[0])["game_id"]
    with web_server(duskfall, games, "--max-connections", str(CONNECTIONS)) as port:
        url = f"ws://127.0.0.1:{port}/api/games/{game_id}/ws"
        opened = [_watch(url) for _ in range(SPECTATORS)]
        fates = Counter(fate for _, fate in opened)
        print(f"    {SPECTATORS} spectator sockets from one address: {dict(fates)}")
        kept = [ws for ws, _ in opened if ws is not None]
        tally.check(0 < len(kept) < CONNECTIONS, f"{len(kept)} sockets kept of {CONNECTIONS}")
        tally.check(
            fates["closed 1013"] == SPECTATORS - len(kept), f"extra sockets refused: {fates}"
        )
        answered = [http_get(port, "/api/games", None)[0] for _ in range(20)]
        for number, status in enumerate(answered):
            tally.check(status == 200, f"honest request {number}: {status}")
        for ws in kept:
            with contextlib.suppress(Exception):
                ws.close()


def _upgraded(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(upgrade_request(port))
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    return sock


def _trickled(port: int) -> tuple[int, int, bytes]:
    """Trickle a message a byte at a time; (bytes sent, of, what came back until the close)."""
    frame = text_frame(json.dumps({"type": "HELLO", "name": "slow" * 8}).encode())
    sock = _upgraded(port)
    sock.settimeout(TRICKLE)
    received, sent, closed = b"", 0, False
    with sock:
        for byte in frame:
            try:
                sock.sendall(bytes([byte]))
                sent += 1
                while chunk := sock.recv(1 << 16):
                    received += chunk
                closed = True
            except TimeoutError:
                continue
            except OSError:
                closed = True
            if closed:
                break
    return sent, len(frame), received


def _serve_ws(duskfall: Duskfall, tally: Tally) -> None:
    process = duskfall.start(
        "serve", "--port", "0", "--ws", "0", "--no-log", "--max-frame", "4096",
        "--read-timeout", str(READ_TIMEOUT), "--fill-bots-after", "600",
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"ws://[^:]+:(\d+)/", line)
        tally.check(found is not None, f"serve --ws started: {line!r}")
        if found is None:
            return
        port = int(found.group(1))
        url = f"ws://127.0.0.1:{port}/"
        for origin in ("http://evil.example", "null", "http://127.0.0.1.evil.example"):
            try:
                connect(url, origin=origin, open_timeout=10).close()  # type: ignore[arg-type]
                status = 101
            except InvalidStatus as exc:
                status = exc.response.status_code
            tally.check(status == 403, f"Origin {origin}: {status}")
        for origin in (None, f"http://127.0.0.1:{port}"):
            with connect(url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
                tally.check(json.loads(ws.recv(timeout=10))["type"] == "HELLO", f"{origin}")
        start = time.monotonic()
        sent, of, received = _trickled(port)
        print(
            f"    trickled message: {sent}/{of} bytes sent in {time.monotonic() - start:.1f} s "
            f"before the server closed ({len(received)} bytes back)"
        )
        tally.check(sent < of, "a message trickled a byte at a time was not cut")
        tally.check(b"read_timeout" in received, "no read_timeout ERROR before the close")
        with connect(url, open_timeout=10, max_size=None) as ws:
            ws.recv(timeout=10)
            with contextlib.suppress(ConnectionClosed):
                ws.send("x" * 5000)
                while True:
                    ws.recv(timeout=10)
            tally.check(ws.close_code == 1009, f"an oversized message: close {ws.close_code}")
    finally:
        process.terminate()
        process.wait(10)


def probe(duskfall: Duskfall, background: Background, tally: Tally) -> None:
    for part in (_spectators, _serve_ws):
        try:
            part(duskfall, tally)
        except Exception as exc:  # a part that broke is a probe that did not hold
            where = traceback.extract_tb(exc.__traceback__)[-1]
            tally.check(False, f"{part.__name__} broke: {exc!r} at {where.name}:{where.lineno}")
