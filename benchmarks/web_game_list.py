"""The game list over a 100,000-game index with 10,000-game tournaments: this tree beside the
code before it, in one run.

One index is made (direct inserts through the index API, no game played): ``--games`` rows of
every kind (``duskfall.testing.index_rows``), of which ``--tournaments`` tournaments of
``--tournament-games`` games each (``duplicate`` schedule: two games a deal, every deal over,
as its driver marks them; each tournament's config copy beside its games' logs, where the code
before reads it). Each code serves a copy with ``duskfall web`` in a child process. Printed per
code: ``GET /api/games`` once just after start (the index's repair and counts are due then),
then for every filter a user meets (none, a tournament, an agent, a deep page), median of
``--rounds`` (the code before: one try, cut at ``--cut`` seconds), and the list
page in Chromium, navigation start to its first rows (cut at ``--cut`` seconds: the code before
never shows them when an answer takes longer than its 3-second refresh), with the server's CPU
time. Ratios are the code before's time over this tree's (a cut time counts as the cut). The
machine's load is printed beside the figures.

    python benchmarks/web_game_list.py
    python benchmarks/web_game_list.py --games 100000 --tournament-games 10000 --rounds 5
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import psutil

from baseline import baseline_src, current_src, load_average, python_with
from duskfall.store.deals import DealTable
from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow, SeatRow
from duskfall.testing.index_rows import make_rows
from duskfall.testing.ports import free_port
from duskfall.testing.web_server import chromium

# main before the deals' release state was stored (issues 36 and 42): "today's code".
BEFORE = "8859672"
ROWS = "#games tbody tr"
ENTRANTS = {"smart": "heuristic", "naive": "random"}
# what a user asks the list for (issue 42: these stayed empty with no message)
ASKS: dict[str, dict[str, Any]] = {
    "front page": {},
    "a tournament": {"tournament": "t0"},
    "an agent": {"agent": "random"},
    "a model": {"agent": "openai:gpt-4o-mini"},
    "200 a page, offset 2,000": {"limit": 200, "offset": 2000},
    "last page": {"offset": -50},  # from the end: filled in from the total
}
PAGES = {
    "front page": "/",
    "a tournament": "/?tournament=t0",
    "offset 2,000": "/?limit=200&offset=2000",
}


def tournament_rows(folder: Path, number: int, games: int, start: int) -> list[GameRow]:
    """Tournament ``t{number}``'s finished games, its config copy written where its logs are."""
    name = f"t{number}"
    games_dir = folder / "tournaments" / name
    games_dir.mkdir(parents=True)
    config = {"name": name, "entrants": ENTRANTS, "variants": [{"variant": "sports-mafia"}],
              "games": games, "seed": number + 1, "schedule": "duplicate"}  # fmt: skip
    fingerprint = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]
    (games_dir / "tournament.json").write_text(
        json.dumps({"fingerprint": fingerprint, "salt": "0" * 32, "config": config})
    )
    rows = []
    for slot in range(games):
        evil, village = ("heuristic", "random") if slot % 2 == 0 else ("random", "heuristic")
        seats = tuple(SeatRow(s, evil if s < 3 else village, None) for s in range(10))
        rows.append(
            GameRow(
                id=f"sports-mafia-{name}-{slot:05d}",
                variant="sports-mafia",
                config={},
                seed=10**12 + start + slot // 2,
                seats=seats,
                status="finished",
                winner=("mafia", "village")[slot % 3 == 0],
                days=3,
                events=120,
                started_at=f"2025-02-{1 + number:02d}T{slot // 3600 % 24:02d}:"
                f"{slot // 60 % 60:02d}:{slot % 60:02d}",
                finished_at="2025-03-01T00:00:00",
                log_path=str(games_dir / f"sports-mafia-{name}-{slot:05d}.jsonl"),
                tournament=name,
                tournament_slot=slot,
            )
        )
    return rows


def make_index(folder: Path, games: int, tournaments: int, per_tournament: int) -> Path:
    """The index the codes are measured on (see the module's docstring)."""
    index = folder / "index.db"
    others = games - tournaments * per_tournament
    rows = [replace(r, tournament=None) for r in make_rows(others, seed=1)]
    for number in range(tournaments):
        rows += tournament_rows(folder, number, per_tournament, number * per_tournament)
    with GameIndex(index) as made:
        for start in range(0, len(rows), 10_000):
            made.add_rows(rows[start : start + 10_000])
    with DealTable(index) as deals:  # every deal is over, as its driver marked it
        for number in range(tournaments):
            deals.release(f"t{number}", [(s, s // 2) for s in range(per_tournament)])
    return index


@contextlib.contextmanager
def web_server(src: Path, folder: Path) -> Iterator[tuple[str, psutil.Process]]:
    """``duskfall web`` on the code in ``src`` over ``folder``'s index; its URL and process."""
    port = free_port()
    command = [sys.executable, "-c", "from duskfall.cli import main; main()", "web"]
    command += ["--port", str(port), "--games-dir", str(folder / "games")]
    command += ["--db", str(folder / "index.db")]
    (folder / "games").mkdir(exist_ok=True)
    child = subprocess.Popen(
        command, env=python_with(src), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:  # the child's start-up: poll its port
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"{url}/api/variants", timeout=5).raise_for_status()
                break
            if time.monotonic() > deadline or child.poll() is not None:
                raise SystemExit(f"duskfall web did not start on {src}")
            time.sleep(0.1)
        yield url, psutil.Process(child.pid)
    finally:
        child.terminate()
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def timed_get(url: str, rounds: int, params: dict[str, Any], cut: float) -> tuple[float, Any]:
    """Median seconds of ``rounds`` GETs of ``url`` (``cut`` for one cut off) and the last
    answer's JSON (None when cut)."""
    times, body = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        try:
            answer = httpx.get(url, params=params, timeout=cut)
            answer.raise_for_status()
            body = answer.json()
            times.append(time.perf_counter() - start)
        except httpx.TimeoutException:
            times.append(cut)
            break  # one cut try says enough
    return statistics.median(times), body


def first_rows(browser: Any, url: str, rounds: int, cut: float) -> float:
    """Median seconds from navigation start to the list's first rows in Chromium (``cut``
    when none came by then)."""
    times = []
    for _ in range(rounds):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(url)
        try:
            page.wait_for_selector(ROWS, timeout=cut * 1000)
            times.append(float(page.evaluate("performance.now()")) / 1000)
        except Exception:
            times.append(cut)
            context.close()
            break
        context.close()
    return statistics.median(times)


def shown(seconds: float, cut: float) -> str:
    return f"over {cut:.0f} s (cut)" if seconds >= cut else f"{seconds * 1000:.0f} ms"


def as_schema_5(index: Path) -> None:
    """The index as the code before reads it (schema 5: without the list's order index)."""
    with sqlite3.connect(index) as raw:
        if raw.execute("PRAGMA user_version").fetchone()[0] == 6:
            raw.executescript("DROP INDEX games_by_start_id; PRAGMA user_version = 5;")


def measure(
    name: str, src: Path, index: Path, browser: Any, rounds: int, cut: float, before: bool
) -> dict[str, float]:
    """The figures of one code over a copy of ``index`` (and its tournaments' folders)."""
    folder = Path(tempfile.mkdtemp(prefix="duskfall-list-"))
    figures: dict[str, float] = {}
    try:
        shutil.copytree(index.parent, folder, dirs_exist_ok=True)
        if before:
            as_schema_5(folder / index.name)
        with web_server(src, folder) as (url, process):
            cpu_start = cpu_seconds(process)
            # the first answer after start (the index's repair and counts are due then)
            seconds, _ = timed_get(f"{url}/api/games", 1, {}, cut)
            figures["GET first after start"] = seconds
            print(f"{name}: GET /api/games first after start: {shown(seconds, cut)}", flush=True)
            total = None
            for what, params in ASKS.items():
                if params.get("offset") == -50:
                    params = {"offset": max(0, (total or 50) - 50)}
                seconds, body = timed_get(f"{url}/api/games", rounds, params, cut)
                figures[f"GET {what}"] = seconds
                if isinstance(body, dict) and total is None:
                    total = body["total"]
                count = "" if not isinstance(body, dict) else f", {body['total']:,} match"
                print(f"{name}: GET /api/games {what}: {shown(seconds, cut)}{count}", flush=True)
            for what, path in PAGES.items():
                seconds = first_rows(browser, url + path, rounds, cut)
                figures[f"rows {what}"] = seconds
                print(f"{name}: list page ({what}) in Chromium: first rows {shown(seconds, cut)}",
                      flush=True)  # fmt: skip
            print(f"{name}: server CPU {cpu_seconds(process) - cpu_start:.1f} s in all")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--tournaments", type=int, default=3)
    parser.add_argument("--tournament-games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cut", type=float, default=60.0, help="seconds before a try is cut")
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="duskfall-list-index-"))
    try:
        start = time.perf_counter()
        index = make_index(folder, args.games, args.tournaments, args.tournament_games)
        print(f"{args.games:,} games in the index ({args.tournaments} tournaments of "
              f"{args.tournament_games:,}), made in {time.perf_counter() - start:.0f} s; "
              f"{load_average()}", flush=True)  # fmt: skip
        with chromium() as browser:
            now = measure("this tree", current_src(), index, browser, args.rounds, args.cut, False)
            then = measure(f"before ({args.before})", baseline_src(args.before), index,
                           browser, 1, args.cut, True)  # fmt: skip
        for what in now:
            print(f"before / this tree, {what}: {then[what] / now[what]:.1f}x"
                  + (" (before: cut)" if then[what] >= args.cut else ""))  # fmt: skip
        print(load_average())
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
