"""``duskfall fork`` and ``duskfall replay`` of a fork, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.store.log import read_log


def test_fork_plays_on_and_replay_verifies_the_fork_and_its_link(
    parent: Path, tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(
        "fork", str(parent), "--at", "day:2", "--agents", "random", "--log", "f.jsonl"
    )
    assert code == 0, err
    parent_id = read_log(parent).header.game_id
    assert f"forked from {parent_id} at its event" in out and "(day 2, DAY)" in out
    assert "log written to f.jsonl" in out
    code, out, err = cli("replay", "-q", "f.jsonl")
    assert code == 0, err
    assert "replay verified:" in out
    assert "link verified: the parent's first" in out.replace("\n", " ")


def test_replay_says_when_the_parent_is_nowhere(
    parent: Path, tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("fork", str(parent), "--at", "night:2", "-q", "--log", "f.jsonl")[0] == 0
    monkeypatch.setenv("DUSKFALL_DB", "off")
    parent.rename(tmp_path / "gone.jsonl")
    code, out, _ = cli("replay", "-q", "f.jsonl")
    assert code == 0 and "link is unchecked" in out.replace("\n", " ")
    code, out, _ = cli("replay", "-q", "f.jsonl", "--parent", "gone.jsonl")
    assert code == 0 and "link verified" in out.replace("\n", " ")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--at", "day:7"), "no such moment"),
        (("--replace", "1=hi"), "not chosen by a seat"),
        (("--at", "day:2", "--agents", "wizard"), "unknown agent"),
        (("--at", "day:2", "--seed", "-1"), "seed"),
    ],
)
def test_fork_errors_are_one_line(
    parent: Path, cli: CliRun, args: tuple[str, ...], needle: str
) -> None:
    code, out, err = cli("fork", str(parent), *args)
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in out + err


def test_replay_numbers_events_and_games_lists_a_games_forks(
    parent: Path, tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")
    code, out, _ = cli("replay", str(parent), "--numbers")
    speech = next(
        e for e in read_log(parent).events if e.kind == "speech" and e.visibility == "public"
    )
    line = next(line for line in out.splitlines() if line.startswith(f"{speech.seq:>5} "))
    assert code == 0 and speech.payload["text"] in line
    assert cli("fork", str(parent), "--at", "day:2", "-q", "--log", "a.jsonl")[0] == 0
    assert cli("fork", "a.jsonl", "--at", "day:3", "-q", "--log", "b.jsonl")[0] == 0
    parent_id = read_log(parent).header.game_id
    a_id = read_log(tmp_path / "a.jsonl").header.game_id
    code, out, _ = cli("games", "--forks-of", str(parent))
    assert code == 0 and a_id in out and "1 of 1 games" in out
    code, out, _ = cli("games", "--forks-of", a_id[:14])
    assert code == 0 and read_log(tmp_path / "b.jsonl").header.game_id in out
    code, out, _ = cli("games")
    assert f"{parent_id} @" in out
