"""The JSON API and the WebSocket: listing, views and their tokens, controls, human seats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from duskfall.core.events import visible_to
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.web.app import variant_catalog
from duskfall.web.gm_live import GM_VARIANT

from .conftest import ADMIN, answer_for, answer_until_finished, bearer, play_logged


def _start(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"variant": "sports-mafia", **body}, headers=bearer(ADMIN)
    )
    assert response.status_code == 201, response.text
    return response.json()


def _hello(ws: WebSocketTestSession, seat: int | None, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seat": seat, "token": token})
    message: dict[str, Any] = ws.receive_json()
    return message


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    assert "New game" in client.get("/").text
    assert "timeline" in client.get("/games/anything").text
    assert client.get("/static/game.js").status_code == 200


def test_lists_logged_games_and_variants(client: TestClient, finished_log: Path) -> None:
    games = client.get("/api/games").json()["games"]
    row = next(g for g in games if g["game_id"] == "sports-mafia-test-3")
    assert row["status"] == "finished" and row["winner"] and not row["protected"]
    variants = {v["id"]: v for v in client.get("/api/variants").json()}
    assert variants["sports-mafia"]["seats"] == 10 and "random" in variants["sports-mafia"]["bots"]


def test_bots_game_views_are_open_and_filtered(client: TestClient, finished_log: Path) -> None:
    god = client.get("/api/games/sports-mafia-test-3").json()
    assert god["view"] == "god" and len(god["events"]) == len(read_log(finished_log).events)
    assert set(god["roles"].values()) >= {"SHERIFF", "DON", "MAFIA", "CITIZEN"}
    log = read_log(finished_log)
    state = replay(log).state
    seat = client.get("/api/games/sports-mafia-test-3?seat=4").json()
    expected = [e.kind for e in log.events if visible_to(e, 4, state.channels(4))]
    assert [e["kind"] for e in seat["events"]] == expected
    assert [e["seq"] for e in seat["events"]] == list(range(len(expected)))  # its own numbers
    assert seat["roles"] == god["roles"]  # every view learns every role once the game has ended


def test_unknown_game_and_seat(client: TestClient, finished_log: Path) -> None:
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/../../etc/passwd").status_code == 404
    assert client.get("/api/games/sports-mafia-test-3?seat=10").status_code == 404


def test_starting_needs_the_admin_token(client: TestClient) -> None:
    assert client.post("/api/games", json={"variant": "sports-mafia"}).status_code == 403
    wrong = client.post("/api/games", json={"variant": "sports-mafia"}, headers=bearer("guess"))
    assert wrong.status_code == 403
    assert client.get("/api/session", headers=bearer(ADMIN)).json() == {"admin": True}
    assert client.get("/api/session").json() == {"admin": False}


def test_bad_requests_get_one_clear_line(client: TestClient) -> None:
    bad_variant = client.post("/api/games", json={"variant": "chess"}, headers=bearer(ADMIN))
    assert (
        bad_variant.status_code == 400 and "unknown variant 'chess'" in bad_variant.json()["detail"]
    )
    bad_agent = client.post(
        "/api/games", json={"variant": "sports-mafia", "agents": "wizard"}, headers=bearer(ADMIN)
    )
    assert bad_agent.status_code == 400 and "unknown agent" in bad_agent.json()["detail"]
    bad_seat = client.post(
        "/api/games", json={"variant": "sports-mafia", "human_seats": [12]}, headers=bearer(ADMIN)
    )
    assert bad_seat.status_code == 400 and "seat 12" in bad_seat.json()["detail"]


def test_a_model_that_cannot_play_is_refused_before_the_game(
    client: TestClient, games_dir: Path
) -> None:
    agents = "1=llm:openai:x@http://127.0.0.1:9/v1,default=random"
    refused = client.post(
        "/api/games", json={"variant": "sports-mafia", "agents": agents}, headers=bearer(ADMIN)
    )
    detail = refused.json()["detail"]
    assert refused.status_code == 400 and detail.startswith("seat 1 (llm:openai:x@"), detail
    assert "cannot reach http://127.0.0.1:9/v1" in detail
    assert not list(games_dir.iterdir()) and client.get("/api/games").json()["games"] == []


def test_games_with_people_keep_hidden_views_behind_tokens(client: TestClient) -> None:
    started = _start(client, seed=7, agents="random", human_seats=[2])
    game_id, token = started["game_id"], started["seats"]["2"]["token"]
    assert started["seats"]["2"]["url"].endswith(f"?seat=2#token={token}")
    assert client.get(f"/api/games/{game_id}").status_code == 403
    assert client.get(f"/api/games/{game_id}", headers=bearer(token)).status_code == 403
    assert client.get(f"/api/games/{game_id}?seat=3", headers=bearer(token)).status_code == 403
    assert client.get(f"/api/games/{game_id}?seat=2").status_code == 403
    mine = client.get(f"/api/games/{game_id}?seat=2", headers=bearer(token)).json()
    assert mine["request"] is not None and mine["request"]["seat"] == 2
    assert "roles" not in mine and all(e["scope"] != "admin" for e in mine["events"])
    assert client.get(f"/api/games/{game_id}", headers=bearer(ADMIN)).status_code == 200
    listed = next(g for g in client.get("/api/games").json()["games"] if g["game_id"] == game_id)
    assert listed["protected"] and listed["live"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        assert _hello(ws, None, token) == {
            "type": "error",
            "message": "the god view of this game needs its token",
        }


def test_role_based_agents_are_masked_for_players(client: TestClient) -> None:
    started = _start(client, seed=8, agents="2=human,mafia=random,default=heuristic")
    game_id, token = started["game_id"], started["seats"]["2"]["token"]
    mine = client.get(f"/api/games/{game_id}?seat=2", headers=bearer(token)).json()
    assert {s["agent"] for s in mine["game"]["seats"]} == {"ai", "human:browser"}
    god = client.get(f"/api/games/{game_id}", headers=bearer(ADMIN)).json()
    assert {s["agent"] for s in god["game"]["seats"]} == {"random", "heuristic", "human:browser"}


def test_pause_and_resume(client: TestClient) -> None:
    started = _start(client, seed=9, agents="random", human_seats=[0])
    game_id = started["game_id"]
    assert client.post(f"/api/games/{game_id}/pause").status_code == 403
    assert client.post(f"/api/games/{game_id}/pause", headers=bearer(ADMIN)).json() == {
        "status": "paused"
    }
    god = client.get(f"/api/games/{game_id}", headers=bearer(ADMIN)).json()
    assert god["status"] == "paused"
    assert client.post(f"/api/games/{game_id}/resume", headers=bearer(ADMIN)).json() == {
        "status": "running"
    }
    assert client.post("/api/games/sports-mafia-x/pause", headers=bearer(ADMIN)).status_code == 404


def _play_to_the_end(
    client: TestClient, game_id: str, seat: int, token: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Answer every decision of ``seat`` over the API; return the events seen and the end."""
    url = f"/api/games/{game_id}/seats/{seat}/action"

    def answer(request: dict[str, Any]) -> None:
        body = {"request_id": request["request_id"], "action": answer_for(request)}
        assert client.post(url, json=body, headers=bearer(token)).status_code == 200
        stale = client.post(url, json=body, headers=bearer(token))
        assert stale.status_code == 409

    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        return answer_until_finished(ws, _hello(ws, seat, token), answer)


def test_a_human_seat_plays_to_the_end(client: TestClient, games_dir: Path) -> None:
    started = _start(client, seed=11, agents="random", human_seats=[5])
    game_id, token = started["game_id"], started["seats"]["5"]["token"]
    answer = {"request_id": 1, "action": {"type": "VOTE", "target": 0}}
    other = client.post(f"/api/games/{game_id}/seats/5/action", json=answer, headers=bearer(ADMIN))
    assert other.status_code == 403
    events, end = _play_to_the_end(client, game_id, 5, token)
    assert end["outcome"]["winner"] in ("RED", "BLACK")
    assert len(end["roles"]) == 10  # the seat learns every role at the end
    log = read_log(games_dir / f"{game_id}.jsonl")
    assert log.finished and log.header.roster[5]["agent"] == "human:browser"
    state = replay(log).state
    expected = [e.kind for e in log.events if visible_to(e, 5, state.channels(5))]
    assert [e["kind"] for e in events] == expected
    assert [e["seq"] for e in events] == list(range(len(expected)))  # numbered in its view
    human_actions = [e for e in log.events if e.kind == "action" and e.payload["seat"] == 5]
    assert human_actions and all(e.payload["by"] == "agent" for e in human_actions)


def test_live_events_reach_each_view_filtered(client: TestClient, games_dir: Path) -> None:
    started = _start(client, seed=12, agents="random")
    game_id = started["game_id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        message = _hello(ws, 3, None)
        events = list(message["events"])
        status = message["status"]
        while status != "finished":
            message = ws.receive_json()
            if message["type"] == "event":
                events.append(message["event"])
            elif message["type"] == "status":
                status = message["status"]
    log = read_log(games_dir / f"{game_id}.jsonl")
    state = replay(log).state
    shown = [e.kind for e in log.events if visible_to(e, 3, state.channels(3))]
    assert [e["kind"] for e in events] == shown
    assert [e["seq"] for e in events] == list(range(len(shown)))  # snapshot and live alike
    assert json.dumps(events).count("ROLE_ASSIGNED") == 1


def test_a_game_written_by_another_process_is_followed(
    client: TestClient,
    games_dir: Path,
    tmp_path: Path,
    isolated_index: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")  # the web app finds it in the log directory
    with monkeypatch.context() as unsigned:  # no operator key: a line per event, no seals
        unsigned.delenv("DUSKFALL_KEY_FILE", raising=False)
        source = play_logged(tmp_path, seed=21)
    monkeypatch.setenv("DUSKFALL_DB", str(isolated_index))
    lines = source.read_bytes().splitlines(keepends=True)
    target = games_dir / source.name
    target.write_bytes(b"".join(lines[:10]))
    game_id = source.stem
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        first = _hello(ws, None, None)
        assert len(first["events"]) == 9 and first["status"] == "running"
        target.write_bytes(b"".join(lines))
        seqs = []
        while True:
            message = ws.receive_json()
            if message["type"] == "event":
                seqs.append(message["event"]["seq"])
            elif message["type"] == "status" and message["status"] == "finished":
                break
    assert seqs == list(range(9, len(lines) - 2))  # the header and the end record: no events


RULES_VARIANTS = [v["id"] for v in variant_catalog() if v["id"] != GM_VARIANT]  # GM: test_gm_seat


@pytest.mark.parametrize("variant", RULES_VARIANTS)
def test_every_variant_runs_and_filters_on_the_web(
    client: TestClient, games_dir: Path, variant: str
) -> None:
    started = _start(client, variant=variant, seed=5, agents="random")
    game_id = started["game_id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        message = _hello(ws, None, None)
        while message.get("status") != "finished":
            message = ws.receive_json()
    god = client.get(f"/api/games/{game_id}").json()
    assert god["game"]["problem"] is None and god["outcome"] is not None
    assert all(e["text"] for e in god["events"])
    log = read_log(games_dir / f"{game_id}.jsonl")
    state = replay(log).state
    seat = client.get(f"/api/games/{game_id}?seat=1").json()
    shown = [e.kind for e in log.events if visible_to(e, 1, state.channels(1))]
    assert [e["kind"] for e in seat["events"]] == shown
    assert [e["seq"] for e in seat["events"]] == list(range(len(shown)))
