"""The API around people at the table: the public view (also of games with people), seat links
shown again, stopping a game, the decision's deadline and form, presets in the catalogue."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from duskfall.store.log import read_log
from duskfall.web.feed import PUBLIC_VIEW

from .conftest import ADMIN, bearer
from .test_api import _play_to_the_end, _start


def test_the_public_view_of_a_game_with_people(client: TestClient, games_dir: Any) -> None:
    started = _start(client, seed=11, agents="random", human_seats=[5])
    game_id, token = started["game_id"], started["seats"]["5"]["token"]
    assert client.get(f"/api/games/{game_id}").status_code == 403  # the god view stays closed
    during = client.get(f"/api/games/{game_id}", params={"seat": PUBLIC_VIEW}).json()
    assert during["view"] == "public" and "roles" not in during
    assert all(e["visibility"] == "public" for e in during["events"])
    _play_to_the_end(client, game_id, 5, token)
    after = client.get(f"/api/games/{game_id}", params={"seat": PUBLIC_VIEW}).json()
    log = read_log(games_dir / f"{game_id}.jsonl")
    public = [e.kind for e in log.events if e.visibility == "public"]
    assert [e["kind"] for e in after["events"]] == public
    assert [e["seq"] for e in after["events"]] == list(range(len(public)))
    assert len(after["roles"]) == 10  # every role once the game has ended
    seat = client.get(f"/api/games/{game_id}", params={"seat": 5}, headers=bearer(token)).json()
    assert seat["roles"] == after["roles"]  # the seat's view too, once the game has ended


def test_decisions_carry_a_form_a_card_and_a_deadline(client: TestClient) -> None:
    started = _start(client, seed=11, agents="random", human_seats=[5], human_timeout=90)
    game_id, token = started["game_id"], started["seats"]["5"]["token"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "seat": 5, "token": token})
        message = ws.receive_json()
        request = message["request"]
        while request is None:
            message = ws.receive_json()
            request = message.get("request")
    assert request["timeout"] == 90 and request["deadline"] > 0
    assert request["knows"]["headline"].startswith("You are seat 5, the ")
    assert request["form"]["fields"] or request["form"]["choices"]
    client.post(f"/api/games/{game_id}/abort", headers=bearer(ADMIN))


def test_seat_links_again_and_stopping_need_the_admin(client: TestClient, games_dir: Any) -> None:
    started = _start(client, seed=12, agents="random", human_seats=[2])
    game_id = started["game_id"]
    assert client.get(f"/api/games/{game_id}/seats").status_code == 403
    links = client.get(f"/api/games/{game_id}/seats", headers=bearer(ADMIN)).json()
    assert links == started["seats"]
    assert client.post(f"/api/games/{game_id}/abort").status_code == 403
    stopped = client.post(f"/api/games/{game_id}/abort", headers=bearer(ADMIN))
    assert stopped.json() == {"status": "aborted"}
    last = read_log(games_dir / f"{game_id}.jsonl").events[-1]
    assert last.payload["termination"] == "aborted"
    assert last.payload["reason"] == "stopped by the admin"


def test_presets_and_timeouts_are_checked(client: TestClient) -> None:
    variants = {v["id"]: v for v in client.get("/api/variants").json()}
    werewolf = variants["werewolf"]
    assert werewolf["presets"]["werewolf-6"] == 6 and werewolf["presets"]["werewolf-12"] == 12
    assert "llm:local" in werewolf["agent_choices"] and werewolf["teams"]
    body = {"variant": "werewolf", "agents": "random", "preset": "werewolf-6", "pace": 0}
    started = client.post("/api/games", json=body, headers=bearer(ADMIN))
    assert started.status_code == 201
    view = client.get(f"/api/games/{started.json()['game_id']}").json()
    assert len(view["game"]["seats"]) == 6
    too_long = {**body, "human_timeout": 99999}
    assert client.post("/api/games", json=too_long, headers=bearer(ADMIN)).status_code == 422
    bad = {**body, "preset": "werewolf-5"}
    refused = client.post("/api/games", json=bad, headers=bearer(ADMIN))
    assert refused.status_code == 400 and "unknown preset" in refused.text


def test_the_per_team_spec_the_form_suggests_is_accepted(client: TestClient) -> None:
    for variant in client.get("/api/variants").json():
        if len(variant["teams"]) < 2:
            continue  # GM games have no teams: the form suggests no per-team spec
        first, second = variant["teams"][:2]
        body = {"variant": variant["id"], "agents": f"{first}=heuristic,{second}=random"}
        started = client.post("/api/games", json=body, headers=bearer(ADMIN))
        assert started.status_code == 201, (variant["id"], started.text)
        client.post(f"/api/games/{started.json()['game_id']}/abort", headers=bearer(ADMIN))
