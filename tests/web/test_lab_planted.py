"""A fork with a planted result on the web: the god view's family line names the planted
event; a seat's view names it only once the game is over (a seat believes what it was told)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from duskfall.lab.fork import ForkRequest, plan_fork, run_fork
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log


def in_thread(coro: object) -> object:
    with ThreadPoolExecutor(1) as pool:  # the app's test client keeps a loop in this thread
        return pool.submit(asyncio.run, coro).result()  # type: ignore[arg-type]


def test_the_family_line_names_the_planted_event(client: TestClient, games_dir: Path) -> None:
    parent = games_dir / "werewolf-planted-parent.jsonl"
    setup = GameSetup("werewolf", seed=3, agents="heuristic", config={"preset": "werewolf-12"},
                      game_id="werewolf-planted-parent", log_path=parent)  # fmt: skip
    in_thread(run_game(setup))
    seq = next(i for i, e in enumerate(read_log(parent).events) if e.kind == "seer_action")
    told = "good" if read_log(parent).events[seq].payload["result"] == "Werewolf" else "evil"
    done = games_dir / "done.jsonl"
    in_thread(run_fork(ForkRequest(parent, set_result=f"{seq}={told}", log_path=done)))
    done_id = read_log(done).header.game_id
    god = client.get(f"/api/games/{done_id}/family").json()["parent"]
    seat = client.get(f"/api/games/{done_id}/family?seat=0").json()["parent"]
    assert god["planted"] == seat["planted"] == [seq]  # the game is over: every view may know
    # a fork still being played: only the god view is told
    planned = plan_fork(
        ForkRequest(parent, set_result=f"{seq}={told}", log_path=games_dir / "live.jsonl")
    )
    planned.start()
    live_id = planned.plan.header.game_id
    god = client.get(f"/api/games/{live_id}/family").json()["parent"]
    seat = client.get(f"/api/games/{live_id}/family?seat=0").json()["parent"]
    assert god["planted"] == [seq] and seat["planted"] == []
