"""Nothing a seat or spectator sees on the web gives away a game's seed while it runs.

Every integer in every id, field and frame a viewer receives (digit runs and hex runs in
strings included) is tried as the seed with the game's config; none may reproduce the deal
and the bots' random streams. Once the game has ended the seed is served, so that people can
play it again.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from duskfall.session import GameSetup, PreparedGame, new_game_id, prepare_game
from duskfall.store.paths import DB_ENV
from duskfall.testing.secrecy import leaked_seeds
from duskfall.web.follow import read_header

from .conftest import ADMIN, bearer

VARIANTS = ["sports-mafia", "mafia", "werewolf"]


def _start(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body, headers=bearer(ADMIN))
    assert response.status_code == 201, response.text
    return response.json()


def _spectated(client: TestClient, game_id: str, seats: dict[int, str | None]) -> list[Any]:
    """What the list, the views of ``seats`` (with their tokens) and their sockets show."""
    seen: list[Any] = [
        game_id,
        client.get("/api/games").json()["games"],
        client.get(f"/games/{game_id}").text,
    ]
    for seat, token in seats.items():
        query = "" if seat < 0 else f"?seat={seat}"
        headers = bearer(token) if token else {}
        response = client.get(f"/api/games/{game_id}{query}", headers=headers)
        assert response.status_code == 200, response.text
        seen.append(response.json())
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            ws.send_json({"type": "hello", "seat": None if seat < 0 else seat, "token": token})
            seen.append(ws.receive_json())
    return seen


def _no_seed_in(seen: list[Any], log: Path) -> None:
    header = read_header(log)
    assert leaked_seeds(seen, header.variant, header.config, header.seed) == []
    # the probe itself finds a seed wherever it is put
    planted = [f"{header.variant}-{header.seed}-x", {"id": format(header.seed, "x")}]
    assert leaked_seeds(planted, header.variant, header.config, header.seed) == [header.seed]


def test_a_human_seat_and_spectators_see_no_seed(client: TestClient, games_dir: Path) -> None:
    started = _start(client, variant="sports-mafia", agents="heuristic", human_seats=[0])
    game_id, token = started["game_id"], started["seats"]["0"]["token"]
    seen = _spectated(client, game_id, {0: token})  # other views need tokens here
    assert seen[1][0]["status"] == "running" and seen[1][0]["seed"] is None
    _no_seed_in(seen, games_dir / f"{game_id}.jsonl")


def test_a_bots_game_shows_its_seed_only_once_over(client: TestClient, games_dir: Path) -> None:
    started = _start(client, variant="werewolf", agents="random", pace=1)
    game_id = started["game_id"]
    seen = _spectated(client, game_id, {-1: None, 2: None})
    assert seen[3]["game"]["seed"] is None and seen[3]["status"] == "running"
    _no_seed_in(seen, games_dir / f"{game_id}.jsonl")

    fast = _start(client, variant="mafia", agents="random")
    with client.websocket_connect(f"/api/games/{fast['game_id']}/ws") as ws:
        ws.send_json({"type": "hello", "seat": None, "token": None})
        while ws.receive_json().get("status") != "finished":
            pass
    view = client.get(f"/api/games/{fast['game_id']}?seat=1").json()
    assert view["game"]["seed"] == fast["seed"]
    row = next(
        g for g in client.get("/api/games").json()["games"] if g["game_id"] == fast["game_id"]
    )
    assert row["seed"] == fast["seed"]


def _half_played(games_dir: Path, variant: str) -> PreparedGame:
    """A game another process is playing: a few rounds logged (and indexed if the index is on)."""
    game_id = new_game_id(variant)
    game = prepare_game(
        GameSetup(
            variant, agents="heuristic", game_id=game_id, log_path=games_dir / f"{game_id}.jsonl"
        )
    )

    async def some_rounds() -> None:
        game.scheduler.start()
        for _ in range(6):
            await game.scheduler.step()
        game.record.phase_end()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, some_rounds()).result()
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_logs_being_written_show_no_seed(
    client: TestClient,
    games_dir: Path,
    isolated_index: Path,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
) -> None:
    indexed = _half_played(games_dir, variant)
    monkeypatch.setenv(DB_ENV, "off")
    unindexed = _half_played(games_dir, variant)
    monkeypatch.setenv(DB_ENV, str(isolated_index))
    for game in (indexed, unindexed):
        seen = _spectated(client, game.game_id, {-1: None, 0: None, 4: None})
        row = next(g for g in seen[1] if g["game_id"] == game.game_id)
        assert row["status"] == "running" and row["seed"] is None
        assert game.log_path is not None
        _no_seed_in(seen, game.log_path)


@pytest.mark.parametrize("seed", [2**128, 2**63, -1, "12x", "9" * 5000])
def test_a_seed_out_of_range_is_a_400(client: TestClient, seed: object) -> None:
    response = client.post(
        "/api/games", json={"variant": "mafia", "seed": seed}, headers=bearer(ADMIN)
    )
    if seed == 2**63:  # in range: 64 bits are fine (it was a 500 when the index held 64)
        assert response.status_code == 201 and response.json()["seed"] == str(2**63)
        return
    assert response.status_code == 400, response.text
    assert "0 to 2**128-1" in response.json()["detail"]
