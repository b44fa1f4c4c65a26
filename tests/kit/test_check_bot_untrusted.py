"""check-bot trusts nothing of the program it checks: a child it forks does not outlive the
check, fifty megabytes of its standard error cost no memory, a million-character field prints
as one short line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from duskfall.kit.check_bot import (
    DETAIL_CHARS,
    FAIL,
    Played,
    Request,
    Row,
    _grade,
    check,
    scenarios_for,
)
from duskfall.testing.programs import FORKS_AND_SHOUTS, LAST_WORDS, gone

HUGE = 1_000_000
SCENARIO = "sports-don"


def test_a_huge_field_prints_as_one_short_line() -> None:
    row = Row("sports-mafia", "T" * HUGE + "\nsecond line", FAIL, detail=("a\nb" * HUGE))
    line = row.line(len(row.name()))
    assert "\n" not in line and line.isprintable()
    assert len(line) < DETAIL_CHARS + 300


def test_a_refusal_quoting_a_huge_frame_grades_to_a_short_detail() -> None:
    request = Request(3, "VOTING", answers=[{"action": {"type": "V" * HUGE}}])
    request.refusal = {"code": "unknown_type\n" * 1000, "detail": "D\n" * HUGE}
    row = Row("sports-mafia", "VOTING")
    run = Played(scenarios_for(None, [SCENARIO])[0], [], 0, "", True)
    _grade(row, request, run)
    assert row.result == FAIL and len(row.detail) < 4 * DETAIL_CHARS and "\n" not in row.detail


@pytest.mark.subprocess
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_forked_child_dies_with_the_check_and_stderr_is_a_tail(tmp_path: Path) -> None:
    script = tmp_path / "forks.py"
    script.write_text(FORKS_AND_SHOUTS)
    pid_file = tmp_path / "child.pid"
    report = asyncio.run(
        check(
            [sys.executable, str(script), str(pid_file), "50", "{port}"],
            scenarios_for(None, [SCENARIO]),
            timeout=60,
        )
    )
    assert gone(int(pid_file.read_text())), "the program's child outlived the check"
    failed = [row for row in report.rows if row.check == f"game {SCENARIO}"]
    assert failed and f"its last error line: {LAST_WORDS}" in failed[0].detail
    assert LAST_WORDS in report.stderr[SCENARIO][-1]


def _peak_rss_kb(megabytes: int, folder: Path) -> int:
    """The peak memory (kB) of a ``check-bot`` process checking a program that writes
    ``megabytes`` MB to its standard error."""
    script = folder / "forks.py"
    script.write_text(FORKS_AND_SHOUTS)
    command = [
        sys.executable, "-m", "duskfall", "check-bot", "--scenario", SCENARIO, "--timeout", "60",
        "--", sys.executable, str(script), str(folder / f"pid-{megabytes}"), str(megabytes),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    _pid, _status, usage = os.wait4(process.pid, 0)
    assert LAST_WORDS in out and max(map(len, out.splitlines())) < 1000, out[-2000:]
    return int(usage.ru_maxrss)


@pytest.mark.subprocess
@pytest.mark.skipif(sys.platform == "darwin", reason="ru_maxrss is in bytes there")
def test_fifty_megabytes_of_stderr_cost_no_memory(tmp_path: Path) -> None:
    quiet = _peak_rss_kb(0, tmp_path)
    loud = _peak_rss_kb(50, tmp_path)
    print(f"check-bot peak RSS: {quiet / 1024:.0f} MB quiet, {loud / 1024:.0f} MB with 50 MB")
    assert loud - quiet < 20 * 1024  # the whole of it would be 50 MB, its text 100 MB more
