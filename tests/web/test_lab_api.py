"""The lab on the web: a game's family (parent, forks) numbered in each view, and the god view's
win-probability line."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from duskfall.core.events import visible_to
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import read_log
from duskfall.store.replay import replay

from .conftest import ADMIN, bearer, play_logged


def fork(parent: Path, at: str, out: Path, **options: object) -> Path:
    request = ForkRequest(parent, at=at, log_path=out, **options)  # type: ignore[arg-type]
    with ThreadPoolExecutor(1) as pool:  # the app's test client keeps a loop in this thread
        pool.submit(asyncio.run, run_fork(request)).result()
    return out


def test_a_fork_links_its_parent_and_the_parent_lists_its_forks(
    client: TestClient, games_dir: Path
) -> None:
    parent = play_logged(games_dir, seed=3)
    child = fork(parent, "day:2", games_dir / "child.jsonl", agents="random", seed=9)
    child_log, parent_log = read_log(child), read_log(parent)
    origin = ForkOrigin.of(child_log.header)
    assert origin is not None
    child_id, parent_id = child_log.header.game_id, parent_log.header.game_id
    god = client.get(f"/api/games/{child_id}/family").json()
    assert god["parent"]["game_id"] == parent_id
    assert god["parent"]["here"] == origin.prefix and god["parent"]["there"] == origin.event
    assert god["parent"]["day"] == 2 and god["parent"]["replaced"] is False
    forks = client.get(f"/api/games/{parent_id}/family").json()["forks"]
    assert [(f["game_id"], f["here"], f["day"]) for f in forks] == [(child_id, origin.event, 2)]
    # a seat's view is told numbers of its own view: the events it saw before the fork
    state = replay(parent_log).state
    seen = sum(1 for e in parent_log.events[: origin.event] if visible_to(e, 4, state.channels(4)))
    seat = client.get(f"/api/games/{child_id}/family?seat=4").json()["parent"]
    assert seat["here"] == seat["there"] == seen < origin.event
    public = client.get(f"/api/games/{child_id}/family?seat=-1").json()["parent"]
    assert public["here"] == sum(
        1 for e in parent_log.events[: origin.event] if e.visibility == "public"
    )


def test_the_line_is_the_god_views_and_says_what_it_is(client: TestClient, games_dir: Path) -> None:
    log = read_log(play_logged(games_dir, seed=3, agents="heuristic"))
    game_id = log.header.game_id
    line = client.get(f"/api/games/{game_id}/winline?rollouts=10").json()
    assert line["game_id"] == game_id and line["points"][-1]["exact"]
    assert "an estimate under the 'heuristic' bot policy" in line["note"]
    assert all(0 <= p["low"] <= p["chance"] <= p["high"] <= 1 for p in line["points"])
    assert client.get(f"/api/games/{game_id}/winline?rollouts=10").json() == line  # kept
    assert client.get(f"/api/games/{game_id}/winline?rollouts=3").status_code == 422
    assert client.get("/api/games/nope/winline").status_code == 404


def test_in_a_game_with_people_the_line_and_the_forks_need_the_admin_token(
    client: TestClient, games_dir: Path
) -> None:
    parent = play_logged(
        games_dir,
        seed=4,
        agents="human,random,random,random,random,random,random,random,random,random",
    )
    game_id = read_log(parent).header.game_id
    assert client.get(f"/api/games/{game_id}/winline?rollouts=10").status_code == 403
    assert client.get(f"/api/games/{game_id}/family").status_code == 403
    assert client.get(f"/api/games/{game_id}/family?seat=-1").json()["forks"] == []
    allowed = client.get(f"/api/games/{game_id}/winline?rollouts=10", headers=bearer(ADMIN))
    assert allowed.status_code == 200
