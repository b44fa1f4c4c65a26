"""The game list over a 10,000-game index: this tree's paged list beside the code before it.

One index of ``--games`` made-up rows of every kind (``duskfall.testing.index_rows``) is
served by ``duskfall web`` in a child process on each code. Printed per code: the time of
``GET /api/games`` (the list's first request; median of ``--rounds``), how many distinct
games the list API can reach at all, the list page's load in Chromium (navigation start to
the table's first rows, median), and the server's CPU time. For this tree also the time of
the pages a user turns to: the last page, a search by one game's id, an agent, a tournament,
a sort by cost. Ratios are the code before's time over this tree's (above 1: this tree is
faster). The machine's load is printed beside the figures.

    python benchmarks/web_game_list.py
    python benchmarks/web_game_list.py --games 10000 --rounds 9 --before 869a061
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil

from baseline import baseline_src, current_src, load_average, python_with
from duskfall.store.index import GameIndex
from duskfall.testing.index_rows import make_rows
from duskfall.testing.ports import free_port
from duskfall.testing.web_server import chromium

# The last commit of main before the paged game list (issue 30): "today's code".
BEFORE = "869a061"
ROWS = "#games tbody tr"


@contextlib.contextmanager
def web_server(src: Path, folder: Path) -> Iterator[tuple[str, psutil.Process]]:
    """``duskfall web`` on the code in ``src`` over ``folder``'s index; its URL and process."""
    port = free_port()
    command = [sys.executable, "-c", "from duskfall.cli import main; main()", "web"]
    command += ["--port", str(port), "--games-dir", str(folder), "--db", str(folder / "index.db")]
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


def timed_get(
    url: str, rounds: int, params: dict[str, Any] | None = None
) -> tuple[float, Any, int]:
    """Median seconds of ``rounds`` GETs of ``url``, the last answer's JSON and its bytes."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        answer = httpx.get(url, params=params, timeout=120)
        times.append(time.perf_counter() - start)
        answer.raise_for_status()
    return statistics.median(times), answer.json(), len(answer.content)


def listed(body: Any) -> list[dict[str, Any]]:
    """The games of an ``/api/games`` answer: a page (this tree) or a bare list (before)."""
    return body["games"] if isinstance(body, dict) else body


def reachable(url: str) -> int:
    """How many distinct games the list API can show: every page of it, or its one list."""
    body = httpx.get(f"{url}/api/games", timeout=120).json()
    if not isinstance(body, dict):
        return len({g["game_id"] for g in body})
    seen: set[str] = set()
    for offset in range(0, body["total"], 500):
        page = httpx.get(f"{url}/api/games", params={"limit": 500, "offset": offset}, timeout=120)
        seen.update(g["game_id"] for g in page.json()["games"])
    return len(seen)


def page_load(browser: Any, url: str, rounds: int) -> float:
    """Median milliseconds from navigation start to the list's first rows in Chromium."""
    times = []
    for _ in range(rounds):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{url}/")
        page.wait_for_selector(ROWS, timeout=60_000)
        times.append(float(page.evaluate("performance.now()")))
        context.close()
    return statistics.median(times)


def measure(name: str, src: Path, index: Path, browser: Any, rounds: int) -> dict[str, float]:
    """The figures of one code over a copy of ``index``."""
    folder = Path(tempfile.mkdtemp(prefix="duskfall-list-"))
    try:
        shutil.copy(index, folder / "index.db")
        with web_server(src, folder) as (url, process):
            first, body, size = timed_get(f"{url}/api/games", rounds)
            before = cpu_seconds(process)
            load_ms = page_load(browser, url, rounds)
            cpu_ms = (cpu_seconds(process) - before) / rounds * 1000
            shown = len(listed(body))
            print(f"{name}: GET /api/games {first * 1000:.1f} ms median ({shown} games, "
                  f"{size / 1024:.0f} KiB); list page in Chromium {load_ms:.0f} ms median to "
                  f"its rows (server CPU {cpu_ms:.0f} ms per load); games the list can reach: "
                  f"{reachable(url)}")  # fmt: skip
            figures = {"first": first, "load": load_ms}
            if isinstance(body, dict):
                figures |= pages_a_user_turns_to(url, body, rounds)
            return figures
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def pages_a_user_turns_to(url: str, body: dict[str, Any], rounds: int) -> dict[str, float]:
    """Times of the paged list's other requests (this tree only)."""
    some = body["games"][len(body["games"]) // 2]
    asks = {
        "last page": {"offset": body["total"] - 50},
        "one game by its id": {"q": some["game_id"]},
        "agent llm": {"agent": "llm"},
        "tournament cup": {"tournament": "cup"},
        "sorted by cost, page 100": {"sort": "cost_usd", "offset": 4950},
    }
    figures = {}
    for what, params in asks.items():
        seconds, answer, _ = timed_get(f"{url}/api/games", rounds, params)
        found = [g["game_id"] for g in answer["games"]]
        note = " (found)" if what == "one game by its id" and some["game_id"] in found else ""
        print(f"    {what}: {seconds * 1000:.1f} ms median, {answer['total']} match{note}")
        figures[what] = seconds
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="duskfall-list-index-"))
    try:
        index = folder / "index.db"
        with GameIndex(index) as made:
            made.add_rows(make_rows(args.games, seed=1))
        print(f"{args.games} games in the index; {load_average()}")
        with chromium() as browser:
            now = measure("this tree", current_src(), index, browser, args.rounds)
            then = measure(f"before ({args.before})", baseline_src(args.before), index,
                           browser, args.rounds)  # fmt: skip
        print(f"before / this tree: GET /api/games {then['first'] / now['first']:.2f}x, "
              f"list page load {then['load'] / now['load']:.2f}x; {load_average()}")  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
