"""The win line's first view on the game page: cold (computed when asked) against kept (computed
ahead), on a baseline commit's code and on today's, in one run.

Each side runs in a child Python on its own code, over the web app (its real routes, a real
games folder), with the page's rollouts (100 a point) on a werewolf-12 game of heuristic bots:

1. **logged, first view**: a game's log is opened for the first time and its line asked for
   (baseline: ``GET /winline``, which the page's button asks; today: the page opens the game,
   which starts the line, then asks ``GET /moments`` until it is there);
2. **logged, after a restart**: the same game viewed again from a new server process's app;
3. **played here, viewed after its end**: a game started through the app, viewed once it has
   ended (today the line is computed when the game ends; the viewer arrives once it is kept).

    python benchmarks/winline_first_view.py                    # against d95d54c
    python benchmarks/winline_first_view.py --baseline HEAD~3 --rollouts 50 --rounds 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from baseline import baseline_src, current_src, load_average, run_python

BASELINE = "d95d54c"
SEED = 3
CONFIG = {"preset": "werewolf-12"}
ADMIN = "bench-admin-token"
PATIENCE = 600.0


def _play(games_dir: Path) -> str:
    from duskfall.session import GameSetup, run_game

    setup = GameSetup(
        "werewolf", seed=SEED, agents="heuristic", config=CONFIG,
        game_id="werewolf-bench", log_path=games_dir / "werewolf-bench.jsonl",
    )  # fmt: skip
    asyncio.run(run_game(setup))
    return "werewolf-bench"


def _client(games_dir: Path, rollouts: int) -> Any:
    from fastapi.testclient import TestClient

    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app

    options: dict[str, Any] = {
        "games_dir": games_dir,
        "access": Access(ADMIN),
        "allow_hosts": ("testserver",),  # the test client's Host
    }
    if "line_rollouts" in WebSettings.__dataclass_fields__:
        options["line_rollouts"] = rollouts
    return TestClient(create_app(WebSettings(**options)))


def _has_moments() -> bool:
    try:
        import duskfall.web.moments  # noqa: F401
    except ImportError:
        return False
    return True


def _view_line(client: Any, game_id: str, rollouts: int) -> float:
    """Seconds from opening the game (as the page does) to holding its line."""
    headers = {"Authorization": f"Bearer {ADMIN}"}
    started = time.perf_counter()
    client.get(f"/api/games/{game_id}", headers=headers).raise_for_status()
    if not _has_moments():
        reply = client.get(f"/api/games/{game_id}/winline?rollouts={rollouts}", headers=headers)
        reply.raise_for_status()
        assert reply.json()["points"]
        return time.perf_counter() - started
    while True:  # the page asks again every 1.5 s; here every 0.1 s: the figure is the work's
        reply = client.get(f"/api/games/{game_id}/moments", headers=headers).json()
        if reply["status"] == "ready":
            assert reply["line"]["points"]
            return time.perf_counter() - started
        assert time.perf_counter() - started < PATIENCE, "the line never came"
        time.sleep(0.1)


def _played_here(games_dir: Path, rollouts: int) -> float:
    headers = {"Authorization": f"Bearer {ADMIN}"}
    body = {"variant": "werewolf", "preset": "werewolf-12", "agents": "heuristic", "seed": SEED}
    with _client(games_dir, rollouts) as client:
        game_id = client.post("/api/games", json=body, headers=headers).json()["game_id"]
        deadline = time.monotonic() + PATIENCE
        while client.get(f"/api/games/{game_id}", headers=headers).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the game never ended"
            time.sleep(0.05)
        if _has_moments():  # the viewer comes once the line computed at the end is kept
            from duskfall.web.moments import CACHE_DIR

            while not list((games_dir / CACHE_DIR).glob("*.json")):
                assert time.monotonic() < deadline, "the line was never computed ahead"
                time.sleep(0.05)
        return _view_line(client, game_id, rollouts)


def child(rollouts: int) -> None:
    """Measure the three views on the code this process imports; print them as JSON."""
    from duskfall.store.paths import use_db

    use_db(None)
    root = Path(tempfile.mkdtemp(prefix="winline-view-"))
    logged, here = root / "logged", root / "here"
    logged.mkdir()
    here.mkdir()
    game_id = _play(logged)
    with _client(logged, rollouts) as client:
        first = _view_line(client, game_id, rollouts)
    with _client(logged, rollouts) as client:  # a new app: nothing in memory
        again = _view_line(client, game_id, rollouts)
    played = _played_here(here, rollouts)
    print(json.dumps({"first": first, "restart": again, "played": played}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.rollouts)
        return
    print(f"win line, first view: werewolf-12, heuristic bots, {args.rollouts} rollouts a point")
    print(f"before: {load_average()}")
    runs: dict[str, list[dict[str, float]]] = {}
    sides = (("baseline " + args.baseline, baseline_src(args.baseline)), ("today", current_src()))
    for round_ in range(args.rounds):  # the two sides alternate: the load is shared alike
        for name, src in sides:
            out = run_python(src, __file__, "--child", "--rollouts", str(args.rollouts))
            runs.setdefault(name, []).append(json.loads(out.strip().splitlines()[-1]))
            print(f"  round {round_ + 1}, {name}: {runs[name][-1]}", flush=True)
    (before_name, before_runs), (after_name, after_runs) = runs.items()
    before = {k: statistics.median(r[k] for r in before_runs) for k in before_runs[0]}
    after = {k: statistics.median(r[k] for r in after_runs) for k in after_runs[0]}
    rows = (
        ("logged game, first view", "first"),
        ("logged game, after a server restart", "restart"),
        ("game played in the app, viewed after its end", "played"),
    )
    print(f"medians of {args.rounds} round(s):")
    print(f"{'':48} {before_name:>18} {after_name:>10}  ratio")
    for label, key in rows:
        ratio = before[key] / max(after[key], 1e-6)
        print(f"{label:48} {before[key]:17.3f}s {after[key]:9.3f}s  {ratio:7.1f}x")
    print(f"after: {load_average()}")


if __name__ == "__main__":
    sys.exit(main())
