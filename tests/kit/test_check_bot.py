"""check-bot: the project's own clients pass every check; a planted fault fails exactly the
decision it was planted at, with the frame and the doc section; the judge reads frames right."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from duskfall.kit.check_bot import (
    FAIL,
    PASS,
    Played,
    Row,
    command_for,
    judge,
    scenarios_for,
    state_update_rows,
)
from duskfall.kit.proxy import Frame
from duskfall.testing import require_program

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).with_name("planted_bot.py")
DUSKFALL = [sys.executable, "-m", "duskfall"]
ROW = re.compile(r"^(?P<result>pass|FAIL|not reached)\s+(?P<name>.+?)\s+\d+(  |$)")


# the checks the steering bots force, whatever the program chooses (a badge pass, a badge vote
# and a candidate's speech depend on whether it runs for sheriff)
FORCED = {
    *(f"sports-mafia {k}" for k in ("DECLARATION", "VOTING", "VOTING (re-vote among tied)",
                                    "VOTING (eliminate-all)", "NIGHT_KILL", "NIGHT_DON",
                                    "NIGHT_SHERIFF", "reconnect", "slow answer", "stale id",
                                "state updates")),
    *(f"werewolf {k}" for k in ("WOLF_CHAT", "WOLF_KILL", "WITCH", "GUARD", "SEER",
                                "BADGE_RUN", "LAST_WORDS", "HUNTER_SHOT", "SPEECH", "VOTE",
                                "state updates")),
    *(f"mafia {k}" for k in ("MAFIA_CHAT", "MAFIA_VOTE", "DOCTOR_ACTION", "DOCTOR_COORDINATION",
                             "DOCTOR_PROTECTION_VOTE", "SHERIFF_ACTION", "SHERIFF_COORDINATION",
                             "SHERIFF_INVESTIGATION_ASSIGNMENT", "VIGILANTE_ACTION",
                             "VIGILANTE_COORDINATION", "DAY_DISCUSSION", "DAY_VOTE",
                             "state updates")),
}  # fmt: skip


def run_check(*args: str) -> tuple[int, list[str]]:
    result = subprocess.run(
        [*DUSKFALL, "check-bot", *args], capture_output=True, text=True, timeout=600, cwd=ROOT
    )
    print(result.stdout[-4000:], result.stderr[-2000:])
    return result.returncode, result.stdout.splitlines()


def failed(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(FAIL)]


@pytest.mark.subprocess
@pytest.mark.parametrize(
    "command",
    [
        ["node", "examples/node/client.mjs"],
        ["perl", "examples/perl/client.pl"],
        [*DUSKFALL, "connect", "--host", "{host}", "--port", "{port}", "--quiet"],
        [
            *DUSKFALL,
            "run-bot",
            "--host",
            "{host}",
            "--port",
            "{port}",
            "--",
            sys.executable,
            "examples/stdio/bot.py",
        ],
    ],
    ids=["node", "perl", "python-connect", "stdio-run-bot"],
)
def test_the_projects_own_clients_pass(command: list[str]) -> None:
    require_program(command[0])
    status, lines = run_check("--", *command)
    assert failed(lines) == [] and status == 0
    summary = lines[-1]
    assert summary.startswith("check-bot: PASS; ") and " 0 failed" in summary
    passed = {m["name"] for line in lines if (m := ROW.match(line)) and m["result"] == PASS}
    assert passed >= FORCED, sorted(FORCED - passed)  # reached whatever the program chooses


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("variant", "kind", "field"),
    [("werewolf", "HUNTER_SHOT", "targte"), ("sports-mafia", "NIGHT_DON", "targte"),
     ("werewolf", "WITCH", "potino")],
)  # fmt: skip
def test_a_planted_fault_fails_at_its_decision(variant: str, kind: str, field: str) -> None:
    status, lines = run_check(
        "--variant", variant, "--", sys.executable, str(PLANTED), "--break", kind
    )
    assert status == 1
    (line,) = failed(lines)
    assert f"{variant} {kind} " in line
    assert f"unknown field '{field}'" in line and "bad_format" in line
    assert "docs/" in line  # the section to read
    passed = [row for row in lines if row.startswith(PASS)]
    assert len(passed) >= 8


def test_host_and_port_fill_placeholders_or_are_appended() -> None:
    assert command_for(["bot", "--port={port}"], "h", 5) == ["bot", "--port=5"]
    assert command_for(["bot"], "h", 5) == ["bot", "h", "5"]
    assert command_for(["bot", "{ws_url}"], "h", 5, "ws://h:5/") == ["bot", "ws://h:5/"]
    assert command_for(["bot"], "h", 5, "ws://h:5/") == ["bot", "ws://h:5/"]


def frame(up: bool, message: dict, at: float = 0.0) -> Frame:
    return Frame(1, up, at, message)


def test_the_judge_reads_refusals_timeouts_and_cases() -> None:
    request = {
        "type": "ACTION_REQUEST",
        "phase": "VOTING",
        "request_id": 1,
        "valid_actions": {"vote": [1, 2]},
        "observation": {"tied_players": [1, 2]},
    }
    refusal = {"type": "ERROR", "code": "bad_format", "request_id": 1, "detail": "no target"}
    kill = {**request, "request_id": 2, "phase": "NIGHT_KILL", "valid_actions": {"kill": [-1]}}
    frames = [
        frame(False, request),
        frame(True, {"type": "ACTION_RESPONSE", "request_id": 1, "action": {"type": "VOTE"}}),
        frame(False, refusal),
        frame(False, {**kill, "observation": {}}),
        frame(False, {"type": "TIMEOUT", "request_id": 2}),
    ]
    (vote, night) = judge(frames)
    assert vote.check == "VOTING (re-vote among tied)" and vote.refusal == refusal
    assert night.check == "NIGHT_KILL" and night.timed_out and not night.answers


def test_an_answer_to_a_state_update_is_its_own_row_not_the_decisions_refusal() -> None:
    update = {"type": "ACTION_REQUEST", "phase": "DAY", "valid_actions": {}, "observation": {}}
    request = {**update, "phase": "VOTE", "request_id": 4, "valid_actions": {"target": [1]}}
    wrong = {"type": "ACTION_RESPONSE", "action": {"type": "DAY"}}
    refused = {"type": "ERROR", "code": "not_your_turn", "request_id": 4, "detail": "not taken"}
    right = {"type": "ACTION_RESPONSE", "request_id": 4, "action": {"type": "VOTE", "target": 1}}
    frames = [
        frame(False, update),
        frame(False, request),
        frame(True, wrong),
        frame(False, refused),
        frame(True, right),
    ]
    (vote,) = judge(frames)
    assert vote.refusal is None and len(vote.answers) == 2  # its own answer was taken
    run = Played(scenarios_for(None, ["werewolf-wolf"])[0], frames, 0, "", True)
    (row,) = state_update_rows([run])
    assert row.result == FAIL and row.answered == 1 and row.scenario == "werewolf-wolf"
    assert row.detail.startswith("1 ERRORs for answers to state updates") and '"DAY"' in row.detail
    clean = Played(run.scenario, frames[:2], 0, "", True)
    assert state_update_rows([clean])[0].result == PASS


def test_every_column_has_a_header() -> None:
    row = Row("werewolf", "VOTE", PASS, 3, "fine")
    header, line = Row.header(12), row.line(12)
    assert header.split() == ["result", "check", "answers", "detail"]
    assert line.index("3") <= header.index("answers") + len("answers")
