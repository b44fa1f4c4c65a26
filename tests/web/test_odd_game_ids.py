"""Any game id a URL can carry gets a clear 404 naming it in short, never a 500: a 5,000-character
id, one too long for the file system in UTF-8, a NUL byte, a path."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .conftest import ADMIN, bearer

ODD_IDS = ["a" * 5000, "é" * 300, "x%00y", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "%20"]


@pytest.mark.parametrize("game_id", ODD_IDS)
@pytest.mark.parametrize("route", ["", "/seats"])
def test_an_odd_game_id_is_a_short_404(client: TestClient, game_id: str, route: str) -> None:
    reply = client.get(f"/api/games/{game_id}{route}", headers=bearer(ADMIN))
    assert reply.status_code == 404, reply.text
    assert len(reply.text) < 300


@pytest.mark.parametrize("game_id", ODD_IDS[:3])
def test_a_socket_for_an_odd_game_id_is_refused_in_words(client: TestClient, game_id: str) -> None:
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "seat": None, "token": ADMIN})
        message = ws.receive_json()
    assert message["type"] == "error" and "no game" in message["message"]
    assert len(message["message"]) < 200
