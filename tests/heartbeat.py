"""A test run that talks: a line for every test that runs long, and an estimate of what is left.

pytest prints a dot when a test ends, so a test that plays games for minutes looks hung. This
plugin prints, every ``DUSKFALL_HEARTBEAT`` seconds (default 30) that one test is still running,
one line: the test, how long it has run, what it last said it was doing (:func:`say`), and about
how long the rest of the run should take, from the durations measured on a 2-core machine
(``tests/durations.json``; ``pytest --record-durations`` writes it anew).

The line also tells where the test's newest game stands: the last event of the newest game log
written under the run's temporary folder since the test began (day, phase, events and model calls
so far), so a test playing a game says "werewolf day 2 VOTE, 311 events, 40 model calls" with no
code of its own; tests call :func:`say` for anything else ("game 3 of 10").
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import threading
import time
from pathlib import Path

import pytest

DURATIONS = Path(__file__).parent / "durations.json"
INTERVAL_ENV = "DUSKFALL_HEARTBEAT"


class _Current:
    """What the running test last said, and since when it runs."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.nodeid: str | None = None
        self.started = 0.0
        self.doing = ""


_current = _Current()


def say(doing: str) -> None:
    """Tell the heartbeat what the running test is doing now (shown in its next line)."""
    with _current.lock:
        _current.doing = doing


def _minutes(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"


class Heartbeat:
    """The pytest plugin: timing per test, heartbeat lines, the estimate of what is left."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.interval = float(os.environ.get(INTERVAL_ENV, "30") or 30)
        self.expected: dict[str, float] = {}
        if DURATIONS.exists():
            self.expected = {k: float(v) for k, v in json.loads(DURATIONS.read_text()).items()}
        self.typical = statistics.median(self.expected.values()) if self.expected else 0.2
        self.remaining: list[str] = []
        self.measured: dict[str, float] = {}
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def left(self) -> float:
        """Seconds the tests not yet finished should take, by the recorded durations."""
        with _current.lock:
            pending = list(self.remaining)
            running, started = _current.nodeid, _current.started
        total = sum(self.expected.get(nodeid, self.typical) for nodeid in pending)
        if running is not None:
            total -= min(time.monotonic() - started, self.expected.get(running, self.typical))
        return max(total, 0.0)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.remaining = [item.nodeid for item in session.items]
        if len(self.remaining) > 50 and self.expected:
            reporter = self.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(
                    f"duskfall: {len(self.remaining)} tests, about {_minutes(self.left())} "
                    "on an idle 2-core machine (more under load); a test running over "
                    f"{self.interval:.0f} s says so"
                )
        self.thread = threading.Thread(target=self._beat, name="heartbeat", daemon=True)
        self.thread.start()

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        with _current.lock:
            _current.nodeid, _current.started, _current.doing = nodeid, time.monotonic(), ""

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        with _current.lock:
            if _current.nodeid == nodeid:
                self.measured[nodeid] = time.monotonic() - _current.started
                _current.nodeid = None
            if nodeid in self.remaining:
                self.remaining.remove(nodeid)

    def pytest_sessionfinish(self) -> None:
        self.stop.set()
        if self.config.getoption("--record-durations"):
            kept = {k: round(v, 2) for k, v in sorted(self.measured.items())}
            DURATIONS.write_text(json.dumps(kept, indent=0) + "\n")

    def _beat(self) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        while not self.stop.wait(min(self.interval, 5.0)):
            with _current.lock:
                nodeid, started, doing = _current.nodeid, _current.started, _current.doing
            if nodeid is None or reporter is None:
                continue
            ran = time.monotonic() - started
            last = getattr(self, "_said", (None, 0))
            if ran < self.interval or (last[0] == nodeid and ran - last[1] < self.interval):
                continue
            self._said = (nodeid, ran)
            game = self._newest_game(started)
            what = "; ".join(x for x in (doing, game) if x)
            what = f": {what}" if what else ""
            left = f" (about {_minutes(self.left())} left in the run)" if self.expected else ""
            line = f"  .. {nodeid} running {_minutes(ran)}{what}{left}"
            capture = self.config.pluginmanager.get_plugin("capturemanager")
            # the test's output is captured at the file descriptor: step outside for one line
            with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
                reporter.write_line("")
                reporter.write_line(line)
                reporter.flush()

    def _newest_game(self, since: float) -> str:
        """Where the newest game log written since ``since`` (monotonic) stands, or ""."""
        try:
            root = self.config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
        except Exception:
            return ""
        begun = time.time() - (time.monotonic() - since)
        found: list[tuple[float, Path]] = []
        for path in root.rglob("*.jsonl"):
            try:
                mtime = path.stat().st_mtime
            except OSError:
                continue
            if mtime >= begun:
                found.append((mtime, path))
        for _, path in sorted(found, reverse=True)[:8]:  # the newest game log among them
            where = _where(path)
            if where:
                return where
        return ""


def _where(path: Path) -> str:
    """``path``'s game as far as written: its last event's day and phase, events, model calls;
    "" if it is no game log (its first line no log header)."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError:
        return ""
    if not lines or b'"header"' not in lines[0]:
        return ""
    events = calls = 0
    last: dict[str, object] = {}
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "kind" in record:
            events += 1
            calls += record.get("kind") == "llm_call"
            last = record
    if not last:
        return f"{path.name}: started"
    where = f"day {last.get('day')} {last.get('phase')}"
    model = f", {calls} model call{'s' * (calls != 1)}" if calls else ""
    return f"{path.name}: {where}, {events} events{model}"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help="write every test's duration to tests/durations.json (the run's estimate)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Heartbeat(config), "duskfall-heartbeat")
