"""The guard in front of the routes: Host allow-list, WebSocket Origin, token and size checks
before a body is read, security headers; and the WebSocket hello refused in one clear line."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from duskfall.web.access import Access
from duskfall.web.app import WebSettings, create_app
from duskfall.web.guard import DEFAULT_MAX_BODY, HostAllowList, host_name

from .conftest import ADMIN, TEST_HOST, bearer

HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def _start_with_seat(client: TestClient) -> tuple[str, str]:
    started = client.post(
        "/api/games",
        json={"variant": "sports-mafia", "agents": "random", "human_seats": [2]},
        headers=bearer(ADMIN),
    ).json()
    return started["game_id"], started["seats"]["2"]["token"]


# -- headers ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/games/x", "/static/game.js", "/api/games", "/api/nope"])
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy


def test_refusals_carry_the_security_headers_too(client: TestClient) -> None:
    response = client.get("/", headers={"host": "evil.example"})
    assert response.status_code == 400
    assert all(response.headers[name] == value for name, value in HEADERS.items())


def test_pages_have_no_inline_script_or_handler(client: TestClient) -> None:
    for page in ("/", "/games/x"):
        html = client.get(page).text
        assert "<script>" not in html and " onclick=" not in html and " style=" not in html


# -- Host ---------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.2", "[::2]:80"])
def test_unknown_hosts_are_refused(client: TestClient, host: str) -> None:
    response = client.get("/api/games", headers={"host": host})
    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"this server does not answer to the host {host_name(host)!r}"
    )


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.0.0.1:8000", "localhost:1", "LOCALHOST.", "[::1]:8000", TEST_HOST]
)
def test_loopback_and_allowed_hosts_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/games", headers={"host": host}).status_code == 200


def test_the_allow_list() -> None:
    hosts = HostAllowList.of(["Example.org", "[fe80::1]:8000", "10.0.0.5"])
    assert hosts.names >= {"127.0.0.1", "localhost", "::1", "example.org", "fe80::1", "10.0.0.5"}
    assert not hosts.allows(None) and not hosts.allows("example.org.evil")
    assert hosts.allows_origin("https://example.org:8443") and hosts.allows_origin("http://[::1]")
    for origin in ("null", "http://evil.example", "file://", "ftp://localhost", "http://[bad"):
        assert not hosts.allows_origin(origin)


# -- bodies -------------------------------------------------------------------------------


def _call(app: FastAPI, method: str, path: str, headers: dict[str, str], body: Any) -> Any:
    """One raw ASGI request; ``body`` is an iterator of chunks (endless ones are fine).
    Returns the status, the JSON detail and how many body bytes the app read."""
    read = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal read
        chunk = next(body, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (k.lower().encode(), v.encode()) for k, v in {"host": TEST_HOST, **headers}.items()
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], text.decode(), read


def _endless() -> Any:
    while True:
        yield b"x" * 65536


def _app(games_dir: Path, db: Path) -> FastAPI:
    return create_app(WebSettings(games_dir, db, Access(ADMIN), allow_hosts=(TEST_HOST,)))


def test_a_body_without_the_right_token_is_never_read(
    games_dir: Path, isolated_index: Path
) -> None:
    app = _app(games_dir, isolated_index)
    huge = {"content-length": str(400 << 20), "content-type": "application/json"}
    status, text, read = _call(app, "POST", "/api/games", huge, _endless())
    assert (status, read) == (403, 0) and "admin token" in text
    status, text, read = _call(app, "POST", "/api/games", huge | bearer("guess"), _endless())
    assert (status, read) == (403, 0)
    status, text, read = _call(app, "POST", "/api/games/nope/seats/1/action", huge, _endless())
    assert (status, read) == (404, 0) and "not running" in text


def test_a_seat_answer_needs_its_token_before_its_body(client: TestClient) -> None:
    game_id, token = _start_with_seat(client)
    app = client.app
    assert isinstance(app, FastAPI)
    path = f"/api/games/{game_id}/seats/2/action"
    for headers in ({}, bearer("guess"), bearer(ADMIN)):
        status, text, read = _call(app, "POST", path, headers, _endless())
        assert (status, read) == (403, 0), headers
        assert "needs that seat's token" in text
    other = f"/api/games/{game_id}/seats/abc/action"
    assert _call(app, "POST", other, bearer(token), _endless())[::2] == (403, 0)
    json_type = {"content-type": "application/json"}
    answer = iter([b'{"request_id": 999, "action": 1}'])
    right = _call(app, "POST", path, bearer(token) | json_type, answer)
    assert right[0] == 409  # past the guard; no such open request


def test_a_body_over_the_cap_is_refused_with_413(games_dir: Path, isolated_index: Path) -> None:
    app = _app(games_dir, isolated_index)
    declared = {"content-length": str(DEFAULT_MAX_BODY + 1)} | bearer(ADMIN)
    status, text, read = _call(app, "POST", "/api/games", declared, _endless())
    assert (status, read) == (413, 0)
    assert text == f'{{"detail":"the request body is over the limit of {DEFAULT_MAX_BODY} bytes"}}'
    chunked = {"transfer-encoding": "chunked", "content-type": "application/json"}
    status, text, read = _call(app, "POST", "/api/games", chunked | bearer(ADMIN), _endless())
    assert status == 413 and "over the limit" in text
    assert DEFAULT_MAX_BODY < read <= DEFAULT_MAX_BODY + 65536


def test_the_cap_is_configurable_and_answers_over_http(
    games_dir: Path, isolated_index: Path
) -> None:
    settings = WebSettings(games_dir, isolated_index, Access(ADMIN), (TEST_HOST,), max_body=100)
    with TestClient(create_app(settings)) as client:
        response = client.post(
            "/api/games", content=b"{" + b" " * 200 + b"}", headers=bearer(ADMIN)
        )
        assert response.status_code == 413
        assert response.json() == {"detail": "the request body is over the limit of 100 bytes"}
        small = client.post("/api/games", json={"variant": "sports-mafia"}, headers=bearer(ADMIN))
        assert small.status_code == 201


# -- WebSocket ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://localhost.evil.example:8000"},
        {"host": "evil.example"},
    ],
)
def test_sockets_from_other_origins_are_refused_before_accept(
    client: TestClient, headers: dict[str, str]
) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/api/games/x/ws", headers=headers),
    ):
        pass
    assert refused.value.code == 1008


@pytest.mark.parametrize(
    "origin", ["http://127.0.0.1:8000", "https://localhost", f"http://{TEST_HOST}"]
)
def test_sockets_from_allowed_origins_are_served(client: TestClient, origin: str) -> None:
    game_id, token = _start_with_seat(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers={"origin": origin}) as ws:
        ws.send_json({"type": "hello", "seat": 2, "token": token})
        assert ws.receive_json()["type"] == "snapshot"


BAD_HELLOS: list[tuple[str | bytes, str]] = [
    ("[1, 2]", "the first message must be a hello"),
    ('"hello"', "the first message must be a hello"),
    ("42", "the first message must be a hello"),
    ('{"seat": 0}', "the first message must be a hello"),
    ('{"type": "hello", "seat": 0, "token": ["a"]}', "token must be a string or null"),
    ('{"type": "hello", "seat": 0, "token": {"a": 1}}', "token must be a string or null"),
    ('{"type": "hello", "seat": "0"}', "seat must be an integer or null"),
    ('{"type": "hello", "seat": true}', "seat must be an integer or null"),
    ('{"type": "hello", "seat": 1.0}', "seat must be an integer or null"),
    ('{"type": "hello", "seat": 99999999999999999999}', "no seat 99999999999999999999"),
    ('{"type": "hello", "seat": -2}', "no seat -2"),
    ("{not json", "the hello is not valid JSON"),
    ("[" * 100_000, "the hello is not valid JSON"),
    (b'{"type": "hello"}', "the hello must be a JSON text message"),
]


@pytest.mark.parametrize(("hello", "error"), BAD_HELLOS)
def test_a_malformed_hello_gets_one_clear_error(
    client: TestClient, caplog: pytest.LogCaptureFixture, hello: str | bytes, error: str
) -> None:
    game_id, _ = _start_with_seat(client)
    with (
        caplog.at_level(logging.WARNING),
        client.websocket_connect(f"/api/games/{game_id}/ws") as ws,
    ):
        if isinstance(hello, bytes):
            ws.send_bytes(hello)
        else:
            ws.send_text(hello)
        message = ws.receive_json()
        assert message["type"] == "error" and message["message"].startswith(error)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_message_after_the_hello_is_refused(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, token = _start_with_seat(client)
    with (
        caplog.at_level(logging.WARNING),
        client.websocket_connect(f"/api/games/{game_id}/ws") as ws,
    ):
        ws.send_json({"type": "hello", "seat": 2, "token": token})
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_bytes(b"\x00\xff")
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["message"] == "nothing is expected after the hello"
        with pytest.raises(WebSocketDisconnect):
            while True:
                ws.receive_json()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_only_the_schema_page_may_load_swagger_ui(client: TestClient) -> None:
    docs = client.get("/api/docs").headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in docs and "frame-ancestors 'none'" in docs
    schema = client.get("/openapi.json").headers["content-security-policy"]
    assert "cdn.jsdelivr.net" not in schema
