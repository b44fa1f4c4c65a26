"""Numbering is per view: a seat's view and the public view number only the events they show,
so neither the numbers of their events (what moment links carry) nor the game list tells a
viewer how many hidden events a night held."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from duskfall.core.events import visible_to
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.web.feed import PUBLIC_VIEW

from .conftest import ADMIN, bearer


def _werewolf_log(games_dir: Path) -> Path:
    """A werewolf-12 game of bots: many hidden night events (wolves, seer, witch, guard)."""
    setup = GameSetup(
        "werewolf",
        seed=8,
        agents="heuristic",
        config={"preset": "werewolf-12"},
        game_id="werewolf-numbering",
        log_path=games_dir / "werewolf-numbering.jsonl",
    )
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run_game(setup)).result()
    return games_dir / "werewolf-numbering.jsonl"


def _numbers(view: dict[str, Any]) -> list[int]:
    return [event["seq"] for event in view["events"]]


def test_seat_and_public_views_number_only_what_they_show(
    client: TestClient, games_dir: Path
) -> None:
    log = read_log(_werewolf_log(games_dir))
    state = replay(log).state
    hidden = [e for e in log.events if e.visibility != "public"]
    assert len(hidden) > 100  # there is something to hide
    views = {seat: [e for e in log.events if visible_to(e, seat, state.channels(seat))]
             for seat in range(12)}  # fmt: skip
    views[PUBLIC_VIEW] = [e for e in log.events if e.visibility == "public"]
    for seat, shown in views.items():
        view = client.get(f"/api/games/werewolf-numbering?seat={seat}").json()
        assert [e["kind"] for e in view["events"]] == [e.kind for e in shown]
        assert _numbers(view) == list(range(len(shown))), seat  # no gap, no game-wide number
    god = client.get("/api/games/werewolf-numbering").json()
    assert _numbers(god) == [e.seq for e in log.events]  # the god view keeps the log's


def test_the_list_shows_no_running_totals(client: TestClient, games_dir: Path) -> None:
    """A running game's count of events and its tokens grow with hidden actions too."""
    started = client.post(
        "/api/games",
        json={"variant": "sports-mafia", "seed": 3, "agents": "random", "human_seats": [4]},
        headers=bearer(ADMIN),
    ).json()
    listed = {g["game_id"]: g for g in client.get("/api/games").json()["games"]}
    running = listed[started["game_id"]]
    assert running["status"] == "running"
    assert (running["events"], running["tokens"], running["cost_usd"]) == (None, None, None)
    client.post(f"/api/games/{started['game_id']}/abort", headers=bearer(ADMIN))
