"""A fork that plants a private result (``--set-result``): the Seer told the other answer.

The rules computed the truth; the fork's log tells the seat otherwise, its header records it,
replay plants the same value and verifies, the seat's prompts and a bot's memory show what it
was told, and a forged record fails."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.core.errors import ReplayMismatch
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.lab.lineage import verify_fork
from duskfall.session import GameSetup, run_game
from duskfall.store.lineage import BrokenLink, ForkOrigin
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import replay


def first_check(log: GameLog) -> int:
    return next(i for i, e in enumerate(log.events) if e.kind == "seer_action")


def seer_of(log: GameLog, seq: int) -> tuple[int, int, str]:
    payload = log.events[seq].payload
    return payload["seat"], payload["target"], payload["result"]


def other(result: str) -> str:
    return "good" if result == "Werewolf" else "evil"


def test_a_planted_check_replays_verifies_and_the_bot_seer_believes_it(
    parent: Path, tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    original = read_log(parent)
    seq = first_check(original)
    seer, target, truth = seer_of(original, seq)
    code, out, err = cli(
        "fork", str(parent), "--set-result", f"{seq}={other(truth)}", "-q", "--log", "f.jsonl"
    )
    assert code == 0, err
    assert f"event {seq} planted" in out
    forked = read_log(tmp_path / "f.jsonl")
    told = forked.events[seq].payload["result"]
    assert told != truth and forked.events[seq].visibility == original.events[seq].visibility
    origin = ForkOrigin.of(forked.header)
    assert origin is not None and origin.plants() == {seq: told}
    code, out, err = cli("replay", "-q", "f.jsonl")
    assert code == 0, err
    flat = out.replace("\n", " ")
    assert "replay verified:" in flat and "1 planted" in flat and "link verified" in flat
    # the heuristic Seer claims its checks on day 1: it says what it was told, not the truth
    word = {"Good": "good", "Werewolf": "a werewolf"}

    def claim(log: GameLog) -> str:
        return next(
            e.payload["text"]
            for e in log.events[seq:]
            if e.kind == "speech" and e.payload["seat"] == seer
        )

    assert f"Seat {target} is {word[truth]}" in claim(original)
    assert f"Seat {target} is {word[told]}" in claim(forked)


def test_the_seats_next_prompt_shows_the_planted_result(parent: Path, tmp_path: Path) -> None:
    original = read_log(parent)
    seq = first_check(original)
    seer, target, truth = seer_of(original, seq)
    out = tmp_path / "s.jsonl"
    agents = f"{seer}=llm:scripted,default=heuristic"
    request = ForkRequest(parent, agents=agents, set_result=f"{seq}={other(truth)}", log_path=out)
    asyncio.run(run_fork(request))
    forked = read_log(out)
    told = forked.events[seq].payload["result"]
    call = next(e for e in forked.events if e.kind == "llm_call" and e.payload["seat"] == seer)
    prompt = json.dumps(call.payload["messages"])
    assert f"night 1: seat {target} (" in prompt
    assert f"is {told}." in prompt and f"is {truth}." not in prompt
    assert replay(forked).actions > 0


def test_changing_the_planted_value_after_the_fork_fails_verification(
    parent: Path, tmp_path: Path
) -> None:
    original = read_log(parent)
    seq = first_check(original)
    truth = seer_of(original, seq)[2]
    out = tmp_path / "f.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, set_result=f"{seq}={other(truth)}", log_path=out)))
    forked = read_log(out)
    # the header says the truth was planted: replay sees the log tell something else
    origin = forked.header.extra["fork"]
    forged = replace(
        forked.header, extra={**forked.header.extra, "fork": {**origin, "planted": []}}
    )
    with pytest.raises(ReplayMismatch):
        replay(GameLog(forged, forked.events, forked.finished))
    # the event says the truth again, the header still a plant: the link check refuses it
    events = list(forked.events)
    events[seq] = original.events[seq]
    retold = GameLog(forked.header, events, forked.finished)
    with pytest.raises(ReplayMismatch):
        replay(retold)
    with pytest.raises(BrokenLink, match="differs from the parent"):
        verify_fork(retold, out, parent)
    # a plant named outside the prefix (in the fork's own play) is refused too
    late = {**origin, "planted": [{"event": origin["prefix"] + 3, "value": "Good"}]}
    moved = replace(forked.header, extra={**forked.header.extra, "fork": late})
    with pytest.raises(BrokenLink, match="outside the fork's prefix"):
        verify_fork(GameLog(moved, forked.events, forked.finished), out, parent)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--set-result", "{seq}=maybe"), "is no check result (evil|good|"),
        (("--set-result", "1=good"), "is not a private result a fork may change"),
        (("--set-result", "99999=good"), "the log has events 0-"),
        (("--set-result", "{seq}={truth}"), "was told"),
        (("--set-result", "soon"), "give SEQ=VALUE"),
        (("--set-result", "{seq}={flip}", "--at", "night:1"), "before the planted result"),
        (("--set-result", "{seq}={flip}", "--replace", "40=x"), "not both"),
    ],
)
def test_planting_errors_are_one_line(
    parent: Path, cli: CliRun, args: tuple[str, ...], needle: str
) -> None:
    original = read_log(parent)
    seq = first_check(original)
    truth = seer_of(original, seq)[2]
    given = [a.format(seq=seq, truth=truth.lower(), flip=other(truth)) for a in args]
    code, out, err = cli("fork", str(parent), *given)
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in out + err


def test_a_mafia_sheriff_told_a_mafioso_is_town_stops_accusing_him(
    index: Path, tmp_path: Path, cli: CliRun
) -> None:
    parent = tmp_path / "mafia.jsonl"
    asyncio.run(run_game(GameSetup("mafia", seed=2, agents="heuristic", log_path=parent)))
    original = read_log(parent)
    seq = next(
        i
        for i, e in enumerate(original.events)
        if e.kind == "investigation" and e.payload["roles"] == ["MAFIA"]
    )
    sheriff, name = (
        original.events[seq].payload["seat"],
        original.events[seq].payload["target_name"],
    )
    out = tmp_path / "told.jsonl"
    code, said, err = cli(
        "fork", str(parent), "--set-result", f"{seq}=town", "-q", "--log", str(out)
    )
    assert code == 0, err
    assert f"event {seq} planted (its seat told VILLAGER)" in said
    code, said, err = cli("replay", "-q", str(out), "--parent", str(parent))
    assert code == 0 and "1 planted" in said.replace("\n", " "), err

    def speeches(log: GameLog) -> list[str]:
        return [
            str(e.payload["action"].get("says"))
            for e in log.events[seq:]
            if e.kind == "action" and e.payload["seat"] == sheriff
        ]

    accusation = f"I investigated {name}: MAFIA"
    assert any(accusation in s for s in speeches(original))
    assert not any(accusation in s for s in speeches(read_log(out)))
    code, said, err = cli("fork", str(parent), "--set-result", f"{seq}=wolf")
    assert code == 2 and "is no investigation result (doctor|mafia|" in err


def test_a_fork_of_a_planted_fork_carries_the_plant_and_may_add_its_own(
    parent: Path, tmp_path: Path, cli: CliRun
) -> None:
    original = read_log(parent)
    seq = first_check(original)
    child = tmp_path / "child.jsonl"
    flip = other(seer_of(original, seq)[2])
    assert (
        cli("fork", str(parent), "--set-result", f"{seq}={flip}", "-q", "--log", str(child))[0] == 0
    )
    child_log = read_log(child)
    later = next(i for i, e in enumerate(child_log.events) if e.kind == "seer_action" and i > seq)
    grandchild = tmp_path / "grandchild.jsonl"
    again = other(child_log.events[later].payload["result"])
    code, _, err = cli(
        "fork", str(child), "--set-result", f"{later}={again}", "-q", "--log", str(grandchild)
    )
    assert code == 0, err
    origin = ForkOrigin.of(read_log(grandchild).header)
    assert origin is not None and sorted(origin.plants()) == [seq, later]
    code, out, err = cli("replay", "-q", str(grandchild))
    assert code == 0 and "2 planted" in out.replace("\n", " "), err
