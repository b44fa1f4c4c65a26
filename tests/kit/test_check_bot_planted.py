"""check-bot against planted bots: a bot thinking 2 s per answer passes; a bot answering state
updates, one naming an illegal target, one ignoring request ids, one that crashes and one past
its deadline each fail at the row that names their fault (one check-bot run per bot, on the
fewest games that reach the fault)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).with_name("planted_bot.py")
WOLF, SLOW = "werewolf-wolf", "sports-slow"


def check(*options: str, fault: tuple[str, ...] = (), games: tuple[str, ...] = (WOLF,)) -> Any:
    """One ``check-bot --json`` run of the planted bot: (exit status, report)."""
    scenarios = [arg for game in games for arg in ("--scenario", game)]
    command = [sys.executable, "-m", "duskfall", "check-bot", "--json", *scenarios, *options]
    command += ["--", sys.executable, str(PLANTED), *fault]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    print(result.stdout[-3000:], result.stderr[-1000:])
    return result.returncode, json.loads(result.stdout)


def failures(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f"{r['variant']} {r['check']}": r for r in report["rows"] if r["result"] == "FAIL"}


@pytest.mark.subprocess
def test_a_bot_answering_in_two_seconds_passes() -> None:
    status, report = check(fault=("--delay", "2"), games=(WOLF, SLOW))
    assert status == 0 and report["ok"] and report["failed"] == 0
    passed = {f"{r['variant']} {r['check']}" for r in report["rows"] if r["result"] == "pass"}
    assert {"werewolf WOLF_KILL", "sports-mafia slow answer", "sports-mafia stale id"} <= passed
    assert report["summary"].startswith("check-bot: PASS; ")


@pytest.mark.subprocess
def test_a_bot_past_its_deadline_fails_at_its_decisions() -> None:
    status, report = check("--deadline", "0.3", fault=("--delay", "0.6"))
    assert status == 1 and not report["ok"]
    failed = failures(report)
    detail = failed["werewolf WOLF_KILL"]["detail"]
    assert "no answer within its deadline, 300 ms (TIMEOUT)" in detail
    assert "werewolf state updates" not in failed


@pytest.mark.subprocess
def test_a_silent_bot_costs_a_few_deadlines_not_one_per_request() -> None:
    status, report = check("--deadline", "0.5", fault=("--silent",))
    assert status == 1
    failed = failures(report)
    assert (
        "no answer within its deadline, 500 ms (TIMEOUT)" in failed["werewolf WOLF_CHAT"]["detail"]
    )
    timeouts = [row for row in failed.values() if "(TIMEOUT)" in row["detail"]]
    assert len(timeouts) <= 3  # then a stand-in plays its seat: it is asked no more


@pytest.mark.subprocess
def test_a_bot_answering_state_updates_fails_at_the_state_updates_row() -> None:
    status, report = check(fault=("--answer-updates",))
    assert status == 1
    failed = failures(report)
    row = failed.pop("werewolf state updates")
    assert "answered a state update" in row["detail"] and "not_your_turn" in row["detail"]
    assert row["docs"] == "docs/protocol.md#action_request"
    assert failed == {}  # its decisions were played right


@pytest.mark.subprocess
def test_a_bot_naming_an_illegal_target_fails_at_that_decision() -> None:
    status, report = check(fault=("--illegal-target",))
    assert status == 1
    failed = failures(report)
    assert "werewolf WOLF_KILL" in failed
    assert all("invalid_target" in row["detail"] for row in failed.values())
    assert '"target": 99' in failed["werewolf WOLF_KILL"]["detail"]


@pytest.mark.subprocess
def test_a_bot_ignoring_request_ids_fails_at_stale_id() -> None:
    status, report = check(fault=("--no-request-id",), games=(SLOW,))
    assert status == 1
    row = failures(report)["sports-mafia stale id"]
    assert "answers without request_id" in row["detail"]


@pytest.mark.subprocess
def test_a_crashing_bot_fails_fast_with_its_stderr_shown() -> None:
    status, report = check(fault=("--crash",), games=(WOLF, SLOW))
    assert status == 1
    row = failures(report)["werewolf game werewolf-wolf"]
    assert "exited with status 1" in row["detail"] and "valid_actoins" in row["detail"]
    assert report["stderr"][WOLF][-2:] == [
        "Traceback (most recent call last):",
        "KeyError: 'valid_actoins'",
    ]


@pytest.mark.subprocess
def test_a_bot_that_cannot_play_ends_the_check_at_its_first_game(tmp_path: Path) -> None:
    script = tmp_path / "gone.py"
    script.write_text("import sys\nprint('cannot import my_llm', file=sys.stderr)\nsys.exit(3)\n")
    command = [sys.executable, "-m", "duskfall", "check-bot", "--", sys.executable, str(script)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[-1].startswith("check-bot: FAIL; 0 passed, 1 failed")
    assert "  | cannot import my_llm" in lines
    header = next(line for line in lines if line.startswith("result "))
    assert header.split() == ["result", "check", "answers", "detail"]


@pytest.mark.subprocess
def test_over_websocket_a_fault_is_caught_and_the_rest_passes() -> None:
    status, report = check(
        "--ws", fault=("--break", "NIGHT_DON"), games=("sports-don", "sports-reconnect")
    )
    assert status == 1
    (row,) = failures(report).values()
    assert row["check"] == "NIGHT_DON" and "unknown field 'targte'" in row["detail"]
    passed = {r["check"] for r in report["rows"] if r["result"] == "pass"}
    assert {"DECLARATION", "VOTING", "state updates", "reconnect"} <= passed
