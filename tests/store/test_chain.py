"""Tamper-evident logs: every line is chained by hash, and parsed strictly.

Any change to a log (a byte flipped anywhere, a line edited, removed or moved, rules event
or not) is caught by ``read_log`` (strict) or ``replay``; resume still cuts a damaged last
line only.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

import pytest

from duskfall.cli import main
from duskfall.core.errors import DuskfallError, LogCorrupt
from duskfall.session import GameSetup, prepare_resume, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.store.resume import CannotResume
from duskfall.testing.logs import parse_lines, rechain

BOT_GAMES = [("sports-mafia", "random"), ("mafia", "random"), ("werewolf", "random")]
LLM_GAMES = [("sports-mafia", "llm:scripted"), ("werewolf", "llm:scripted")]


def play(directory: Path, variant: str, agents: str, seed: int) -> bytes:
    path = directory / f"{variant}-{seed}-{agents.replace(':', '_')}.jsonl"
    asyncio.run(run_game(GameSetup(variant, seed=seed, agents=agents, log_path=path)))
    return path.read_bytes()


def detected(path: Path) -> bool:
    """Whether reading (strictly) and replaying the log at ``path`` reports a problem."""
    try:
        replay(read_log(path))
    except DuskfallError:
        return True
    return False


def flips_detected(tmp_path: Path, logs: list[bytes], flips: int, rng: random.Random) -> int:
    """Flip one random byte of each log ``flips`` times; assert each is caught; return count."""
    path = tmp_path / "flipped.jsonl"
    checked = 0
    for data in logs:
        for _ in range(flips):
            where = rng.randrange(len(data))
            new = rng.choice([b for b in range(256) if b != data[where]])
            path.write_bytes(data[:where] + bytes([new]) + data[where + 1 :])
            assert detected(path), f"byte {where}: {data[where]:#x} -> {new:#x} not detected"
            checked += 1
    return checked


def test_random_byte_flips_are_all_detected(tmp_path: Path) -> None:
    logs = [play(tmp_path, v, a, 1) for v, a in BOT_GAMES]
    logs.append(play(tmp_path, *LLM_GAMES[0], seed=3))
    assert flips_detected(tmp_path, logs, 15, random.Random(7)) == 4 * 15


@pytest.mark.slow
def test_random_byte_flips_in_100_logs_are_all_detected(tmp_path: Path) -> None:
    logs = [play(tmp_path, v, a, seed) for seed in range(30) for v, a in BOT_GAMES]
    logs += [play(tmp_path, v, a, seed) for seed in range(5) for v, a in LLM_GAMES]
    assert len(logs) == 100
    assert flips_detected(tmp_path, logs, 20, random.Random(13)) == 2000


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return play(tmp_path_factory.mktemp("chain"), "werewolf", "random", 4)


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def test_the_clean_log_reads_and_replays(game_log: bytes, tmp_path: Path) -> None:
    path = tmp_path / "clean.jsonl"
    path.write_bytes(game_log)
    log = read_log(path)
    assert log.chained and log.finished and not detected(path)
    assert all('"h":"' in line.decode() for line in lines_of(game_log))


@pytest.mark.parametrize(
    "edit",
    ["admin to public", "delete a line", "swap two lines", "edit the header", "drop a hash"],
)
def test_edited_lines_are_detected(game_log: bytes, tmp_path: Path, edit: str) -> None:
    lines = lines_of(game_log)
    admin = next(i for i, line in enumerate(lines) if b'"visibility":"admin"' in line)
    if edit == "admin to public":  # still valid JSON, not a rules event
        lines[admin] = lines[admin].replace(b'"visibility":"admin"', b'"visibility":"public"')
    elif edit == "delete a line":
        del lines[admin]
    elif edit == "swap two lines":
        lines[admin], lines[admin + 1] = lines[admin + 1], lines[admin]
    elif edit == "edit the header":
        lines[0] = lines[0].replace(b'"agent":"random"', b'"agent":"heuristic"', 1)
    else:
        lines[5] = lines[5][: lines[5].rindex(b',"h":')] + b"}\n"
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b"".join(lines))
    with pytest.raises(LogCorrupt, match=r"edited.jsonl:\d+: (hash mismatch|the line has no hash)"):
        read_log(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e.pop("visibility"), "has no 'visibility'"),
        (lambda e: e.update(payload=None), "'payload' must be a dict"),
        (lambda e: e.update(visibility="everyone"), "bad visibility 'everyone'"),
        (lambda e: e.update(seq="3"), "'seq' must be a int"),
        (lambda e: e.update(day=True), "'day' must be a int"),
    ],
)
def test_strict_parsing_of_rechained_lines(
    game_log: bytes, tmp_path: Path, change: object, message: str
) -> None:
    """Even with a valid chain (someone redid the hashes), a malformed event is refused."""
    items = parse_lines(game_log)
    change(items[3])  # type: ignore[operator]
    path = tmp_path / "malformed.jsonl"
    path.write_bytes(rechain(items))
    with pytest.raises(LogCorrupt, match=message):
        read_log(path)
    assert read_log(path, strict=False).events == read_log(path, strict=False).events[:2]


def test_a_null_action_payload_is_a_replay_error_not_a_crash(
    game_log: bytes, tmp_path: Path
) -> None:
    items = parse_lines(game_log)
    action = next(i for i, e in enumerate(items) if e.get("kind") == "action")
    items[action]["payload"] = {"seat": "1", "action": None}
    path = tmp_path / "bad-action.jsonl"
    path.write_bytes(rechain(items))
    with pytest.raises(DuskfallError, match="not a well-formed action"):
        replay(read_log(path))


def format_1(data: bytes) -> bytes:
    """The same log as duskfall wrote it before the chain (format 1)."""
    items = [item for item in parse_lines(data) if item.get("type") not in ("end", "seal")]
    header = items[0]
    header["format"] = 1
    header["seed"] = int(header.pop("admin")["seed"])
    return b"".join(json.dumps(item).encode() + b"\n" for item in items)


def test_format_1_logs_are_read_without_the_chain(game_log: bytes, tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(format_1(game_log))
    log = read_log(path)
    assert not log.chained and log.finished
    replay(log)
    # a chained log made to look like format 1 by flipping its format byte is refused
    path.write_bytes(game_log.replace(b'"format":4', b'"format":1', 1))
    with pytest.raises(LogCorrupt, match=r"old\.jsonl:1: "):
        read_log(path)


def test_resume_cuts_a_damaged_last_line_only(tmp_path: Path) -> None:
    log_path = tmp_path / "cut.jsonl"
    data = play(tmp_path, "mafia", "random", 5)
    lines = lines_of(data)[:40]
    damaged = lines[-1].replace(b'"source"', b'"sourcE"')
    log_path.write_bytes(b"".join(lines[:-1]) + damaged)
    resumed = prepare_resume(log_path)
    assert resumed.repaired is not None and "cut.jsonl:40" in str(resumed.repaired)
    asyncio.run(resumed.run())
    log = read_log(log_path)  # the chain goes on from the last whole line
    assert log.finished and log.chained
    replay(log)
    lines[20] = lines[20].replace(b'"source"', b'"sourcE"')
    log_path.write_bytes(b"".join(lines))
    with pytest.raises(CannotResume, match="more lines follow it"):
        prepare_resume(log_path)


def test_a_resumed_format_1_log_stays_format_1(tmp_path: Path) -> None:
    data = play(tmp_path, "sports-mafia", "random", 6)
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"".join(lines_of(format_1(data))[:30]))
    asyncio.run(prepare_resume(path).run())
    log = read_log(path)
    assert log.finished and not log.chained
    replay(log)


def test_lines_cut_off_the_end_are_found_by_the_index_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What is left of a cut log is a valid chain; its index row still knows the full count."""
    log = play(tmp_path, "werewolf", "random", 8)  # indexed: the store tests' private index
    path = tmp_path / "werewolf-8-random.jsonl"
    copy = tmp_path / "copy.jsonl"
    lines = log.splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-3]))  # game_over and two events before it: gone
    copy.write_bytes(b"".join(lines[:-3]))
    replay(read_log(path))  # the chain alone cannot tell
    with pytest.raises(LogCorrupt, match="lines were cut from its end"):
        prepare_resume(path)
    monkeypatch.setattr(sys, "argv", ["duskfall", "replay", str(path)])
    with pytest.raises(SystemExit) as exited:
        main()
    out = capsys.readouterr()
    assert exited.value.code == 2
    assert "holds" in out.err + out.out and "lines were cut from its end" in out.err + out.out
    prepare_resume(copy)  # a copy elsewhere is not the game's log of record: it may go on
