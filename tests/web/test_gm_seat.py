"""GM games in the web app, over the API: started like rules games, a person's seat answered
in free text, what the seat's view holds, bad requests and replies, silence on the deadline."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from duskfall.store.log import read_log
from duskfall.testing.gm_games import build_game
from duskfall.web.gm_seat import BrowserPlayer

from .conftest import ADMIN, answer_until_finished, bearer

OPTIONS = {"language": "en", "gm_model": "scripted", "gm_format": "structured", "max_steps": 30}


def _start(client: TestClient, **body: Any) -> Any:
    body = {"variant": "gm", "preset": "werewolf6", "agents": "scripted", **body}
    return client.post("/api/games", json=body, headers=bearer(ADMIN))


def _play(client: TestClient, game_id: str, seat: int, token: str) -> list[dict[str, Any]]:
    """Answer every turn of ``seat`` in words; return the events its view was sent."""
    url = f"/api/games/{game_id}/seats/{seat}/action"
    answered = 0

    def answer(request: dict[str, Any]) -> None:
        nonlocal answered
        answered += 1
        assert request["form"]["fields"][0]["kind"] == "text"
        assert request["deadline"] > 0 and "turn" in request["describe"]
        lines = request["knows"]["lines"]
        assert lines[0].startswith("secret: ") and "role" in lines[0]  # its own role
        role = request["knows"]["headline"].partition(", the ")[2]  # and on its headline
        assert role and role in lines[0], (request["knows"]["headline"], lines[0])
        body = {"request_id": request["request_id"], "action": {"text": f"mine {answered}"}}
        assert client.post(url, json=body, headers=bearer(token)).status_code == 200

    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "seat": seat, "token": token})
        events, _ = answer_until_finished(ws, ws.receive_json(), answer)
    assert answered > 0
    return events


def test_a_person_plays_a_gm_seat_over_the_api(client: TestClient, games_dir: Path) -> None:
    started = _start(client, human_seats=[1], config=OPTIONS, seed=5)
    assert started.status_code == 201, started.text
    game_id, token = started.json()["game_id"], started.json()["seats"]["1"]["token"]
    assert client.get(f"/api/games/{game_id}").status_code == 403  # people: god view closed
    seen = _play(client, game_id, 1, token)
    log = read_log(games_dir / f"{game_id}.jsonl")
    visible = [e.payload for e in log.events if e.visibility in ("public", "seats:1")]
    assert [e["payload"] for e in seen] == visible  # no admin event, no other seat's secret
    assert [e["seq"] for e in seen] == list(range(len(visible)))  # numbered in its own view
    chat = [e.payload for e in log.events if e.kind == "chat"]
    said = [p["text"] for p in chat if p["speaker"] == "AI-Beta"]
    assert said and all(text.startswith("mine ") for text in said)
    assert log.header.roster[1]["agent"] == "human:browser"
    row = next(g for g in client.get("/api/games").json()["games"] if g["game_id"] == game_id)
    assert row["protected"] and row["agents"][1] == "human:browser"
    assert token not in (games_dir / f"{game_id}.jsonl").read_text()


def test_gm_games_are_offered_and_bad_requests_refused(client: TestClient) -> None:
    gm = next(v for v in client.get("/api/variants").json() if v["id"] == "gm")
    assert gm["presets"] == {"werewolf6": 6, "avalon5": 5} and gm["agents"] == "local"
    assert next(iter(gm["presets"])) == "werewolf6" and gm["seats"] == 6
    refused = {
        "seat 9 does not exist": _start(client, human_seats=[9], config=OPTIONS),
        "unknown rule card 'chess'": _start(client, preset="chess", config=OPTIONS),
        "invalid gm config: colour": _start(client, config={**OPTIONS, "colour": "red"}),
        "unknown model provider": _start(client, agents="nonsense:x", config=OPTIONS),
        "give the card of a GM game as the preset": _start(client, config={"card": "avalon5"}),
    }
    for words, response in refused.items():
        assert response.status_code == 400 and words in response.json()["detail"], response.text


def test_a_reply_must_be_text(client: TestClient) -> None:
    started = _start(client, human_seats=[0], config=OPTIONS, seed=3).json()
    game_id, token = started["game_id"], started["seats"]["0"]["token"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": token})
        message = ws.receive_json()
        while not message.get("request"):
            message = ws.receive_json()
    url = f"/api/games/{game_id}/seats/0/action"
    body = {"request_id": message["request"]["request_id"], "action": 7}
    refused = client.post(url, json=body, headers=bearer(token))
    assert refused.status_code == 400 and "a reply is" in refused.json()["detail"]
    assert client.post(url, json=body, headers=bearer(ADMIN)).status_code == 403
    client.post(f"/api/games/{game_id}/abort", headers=bearer(ADMIN))


async def test_a_silent_browser_seat_is_recorded_as_silent() -> None:
    person = BrowserPlayer(0, "Ann", timeout=0.05)
    shown: list[dict[str, Any] | None] = []
    person.listeners.append(shown.append)
    game, events = build_game(
        ["[TURN: Ann]", "[TURN: Bob]", "[GAME OVER]"],
        {"Ann": person.as_model()},
        names=["Ann", "Bob"],
    )
    outcome = await asyncio.wait_for(game.run(), 30)
    assert outcome.termination.value == "win"
    [silent] = [e for e in events if e.kind == "player_silent"]
    assert silent.payload["player"] == "Ann"
    assert "(silent)" in [e.payload["text"] for e in events if e.kind == "chat"]
    assert shown[0] is not None and shown[0]["seat"] == 0 and shown[-1] is None  # closed
    assert person.request is None


def test_a_scripted_gm_plays_structured_turns_and_the_form_says_so(
    client: TestClient, games_dir: Path
) -> None:
    """Issue 30: a GM game started here with the scripted model and no ``gm_format`` aborted at
    once (a scripted GM only fills in the structured turn's schema), and the form said nothing
    of the formats."""
    options = {k: v for k, v in OPTIONS.items() if k != "gm_format"}
    started = _start(client, human_seats=[1], config=options, seed=5)
    assert started.status_code == 201, started.text
    game_id, token = started.json()["game_id"], started.json()["seats"]["1"]["token"]
    _play(client, game_id, 1, token)
    log = read_log(games_dir / f"{game_id}.jsonl")
    assert log.events[0].payload["format"] == "structured"
    assert log.events[-1].payload["termination"] != "aborted"
    [gm] = [v for v in client.get("/api/variants").json() if v["id"] == "gm"]
    assert '"structured"' in gm["options_help"] and '"markers"' in gm["options_help"]
