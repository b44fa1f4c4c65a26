"""``GET /api/games`` pages, filters and sorts on the server: every game of the index is
reachable (by paging and by its id), logs the index does not know and games running here are
listed with the others, and a bad query gets a one-line 400."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from duskfall.store.index import GameIndex
from duskfall.testing.index_rows import make_rows

from .conftest import ADMIN, bearer, play_logged

ROWS = make_rows(1200, seed=5)


@pytest.fixture
def filled(client: TestClient, isolated_index: Path, games_dir: Path) -> TestClient:
    with GameIndex(isolated_index) as index:
        index.add_rows(ROWS)
    return client


def _listed(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get("/api/games", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_paging_reaches_every_game_of_the_index(filled: TestClient) -> None:
    first = _listed(filled, limit=500)
    assert first["total"] == len(ROWS) and len(first["games"]) == 500
    seen = [g["game_id"] for offset in range(0, len(ROWS), 500)
            for g in _listed(filled, limit=500, offset=offset)["games"]]  # fmt: skip
    assert sorted(seen) == sorted(r.id for r in ROWS)
    oldest = min(ROWS, key=lambda r: (r.started_at, r.id))
    last = _listed(filled, limit=50, offset=len(ROWS) - 1)["games"]
    assert [g["game_id"] for g in last] == [oldest.id]
    for row in ROWS[::97]:
        assert row.id in [g["game_id"] for g in _listed(filled, q=row.id)["games"]]


def test_filters_and_sorts_are_the_servers(filled: TestClient) -> None:
    simulated = _listed(filled, source="simulated", variant="mafia", limit=500)
    want = [r for r in ROWS if r.log_path is None and r.variant == "mafia"]
    assert simulated["total"] == len(want)
    assert all(not g["has_log"] and g["variant"] == "mafia" for g in simulated["games"])
    cup = _listed(filled, tournament="cup", limit=500)
    assert cup["total"] == sum(r.tournament == "cup" for r in ROWS)
    assert all(g["tournament"] == "cup" for g in cup["games"])
    llm = _listed(filled, agent="llm")
    assert llm["total"] == sum(any(s.agent.startswith("llm:") for s in r.seats) for r in ROWS)
    days = [g["days"] for g in _listed(filled, sort="days", order="asc", limit=500)["games"]]
    assert days == sorted(days) and days[0] == min(r.days for r in ROWS)
    facets = filled.get("/api/games").json()["facets"]
    assert facets["tournaments"] == ["cup", "league"] and "interrupted" in facets["statuses"]
    assert {"mafia", "werewolf", "sports-mafia"} <= set(facets["variants"])


def test_logs_the_index_does_not_know_and_live_games_are_listed(
    filled: TestClient, games_dir: Path, isolated_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")  # a game played without the index
    play_logged(games_dir, seed=11)
    found = _listed(filled, source="logged", q="sports-mafia-test-11")
    assert [g["game_id"] for g in found["games"]] == ["sports-mafia-test-11"]
    assert found["games"][0]["status"] == "finished" and found["games"][0]["days"] is None
    started = filled.post(
        "/api/games",
        json={"variant": "sports-mafia", "agents": "random", "human_seats": [1]},
        headers=bearer(ADMIN),
    ).json()
    live = _listed(filled, q=started["game_id"])["games"]
    assert [g["live"] for g in live] == [True]
    assert _listed(filled)["total"] == len(ROWS) + 2
    filled.post(f"/api/games/{started['game_id']}/abort", headers=bearer(ADMIN))


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"sort": "seed"}, "cannot sort by 'seed'"),
        ({"status": "lost"}, "unknown status 'lost'"),
        ({"limit": 0}, "a page holds 1 to 500 games, not 0"),
        ({"limit": 501}, "not 501"),
        ({"offset": -3}, "the offset is 0 or more"),
        ({"source": "dreamt"}, "unknown source"),
        ({"order": "up"}, "order is asc or desc"),
        ({"q": "x" * 201}, "at most 200 characters"),
    ],
)
def test_a_bad_query_is_refused_in_one_line(
    filled: TestClient, params: dict[str, Any], words: str
) -> None:
    response = filled.get("/api/games", params=params)
    assert response.status_code == 400 and "\\n" not in response.json()["detail"]
    assert words in response.text


def test_a_server_without_an_index_lists_its_logs(
    games_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app

    monkeypatch.setenv("DUSKFALL_DB", "off")
    play_logged(games_dir, seed=4)
    settings = WebSettings(games_dir=games_dir, db=None, access=Access(ADMIN),
                           allow_hosts=("testserver",))  # fmt: skip
    with TestClient(create_app(settings)) as client:
        listed = client.get("/api/games").json()
    assert [g["game_id"] for g in listed["games"]] == ["sports-mafia-test-4"]
    assert listed["total"] == 1 and listed["facets"]["variants"] == ["sports-mafia"]
