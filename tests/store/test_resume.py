"""Resuming from cut logs, in process: every cut point, torn lines, half-settled votes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from duskfall.core.errors import LogCorrupt
from duskfall.session import GameSetup, prepare_resume, resume_game, run_game
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.store.paths import DB_ENV
from duskfall.store.replay import replay
from duskfall.store.resume import CannotResume, log_path_for
from duskfall.testing.logs import parse_lines, rechain

SEED = 11


@pytest.fixture
async def finished_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """The bytes of one finished game's log (header line first), unsigned (played without an
    operator key), so that its lines are its events (signed logs resume in test_signatures)."""
    path = tmp_path / "full.jsonl"
    with monkeypatch.context() as unindexed:
        unindexed.setenv(DB_ENV, "off")
        unindexed.delenv("DUSKFALL_KEY_FILE", raising=False)
        await run_game(GameSetup("sports-mafia", seed=SEED, agents="random", log_path=path))
    return path.read_bytes()


def cut_after(data: bytes, events: int, torn: int = 0) -> bytes:
    """The header, ``events`` whole events and the first ``torn`` bytes of the next line."""
    lines = data.splitlines(keepends=True)
    return b"".join(lines[: 1 + events]) + lines[1 + events][:torn]


async def resume_and_check(path: Path, kept: bytes) -> None:
    """Resume ``path`` to the end; the kept bytes survive and the result replays exactly."""
    await resume_game(path)
    data = path.read_bytes()
    assert data.startswith(kept)
    log = read_log(path)  # strict: every line whole
    assert log.finished
    replay(log)


async def test_resume_from_every_cut_point(
    finished_log: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # durability is the kill tests' business; here only the logic, so skip fsync and index
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setenv(DB_ENV, "off")
    total = len(finished_log.splitlines()) - 2  # the header and the end record are no events
    for events in range(total):
        path = tmp_path / f"cut-{events}.jsonl"
        kept = cut_after(finished_log, events)
        path.write_bytes(kept)
        await resume_and_check(path, kept)


async def test_torn_last_line_is_cut(finished_log: bytes, tmp_path: Path) -> None:
    path = tmp_path / "torn.jsonl"
    kept = cut_after(finished_log, 40)
    path.write_bytes(cut_after(finished_log, 40, torn=17))
    with pytest.raises(LogCorrupt, match="ends mid-line") as caught:
        read_log(path)
    assert caught.value.good_events == 40
    partial = read_log(path, strict=False)
    assert len(partial.events) == 40 and replay(partial).actions > 0
    resumed = prepare_resume(path)
    assert resumed.repaired is not None and resumed.kept_events == 40
    await resumed.run()
    assert path.read_bytes().startswith(kept)
    replay(read_log(path))


async def test_half_settled_vote_asks_only_the_rest(finished_log: bytes, tmp_path: Path) -> None:
    events = [json.loads(line) for line in finished_log.splitlines()[1:-1]]  # no end record
    votes = [
        e["seq"]
        for e in events
        if e["kind"] == "action" and e["payload"]["action"]["type"] == "VOTE"
    ]
    assert votes, "the game has no vote to cut"
    first = votes[0]
    voted = events[first]["payload"]["seat"]
    path = tmp_path / "vote.jsonl"
    kept = cut_after(finished_log, first + 1)  # the first vote of the batch and nothing after
    path.write_bytes(kept)
    resumed = prepare_resume(path)
    alive = resumed.game.state.alive()
    assert voted not in resumed.waiting
    assert set(resumed.waiting) == set(alive) - {voted}
    await resumed.run()
    log = read_log(path)
    later = [e.payload["seat"] for e in log.events[first + 1 :] if e.kind == "action"]
    assert sorted(later[: len(alive) - 1]) == sorted(set(alive) - {voted})
    replay(log)


async def test_rules_events_lost_after_an_action_are_restored(
    finished_log: bytes, tmp_path: Path
) -> None:
    events = [json.loads(line) for line in finished_log.splitlines()[1:-1]]  # no end record
    action = next(
        e["seq"]
        for e in events
        if e["kind"] == "action" and events[e["seq"] + 1]["source"] == "rules"
    )
    path = tmp_path / "lost.jsonl"
    kept = cut_after(finished_log, action + 1)  # the action, not the events it caused
    path.write_bytes(kept)
    resumed = prepare_resume(path)
    assert resumed.game.record.events[action + 1].kind == events[action + 1]["kind"]
    await resumed.run()
    assert path.read_bytes().startswith(kept)
    replay(read_log(path))


async def test_finished_game_is_refused(finished_log: bytes, tmp_path: Path) -> None:
    path = tmp_path / "done.jsonl"
    path.write_bytes(finished_log)
    with pytest.raises(CannotResume, match="already over"):
        prepare_resume(path)
    assert path.read_bytes() == finished_log


async def test_unknown_agent_is_refused(finished_log: bytes, tmp_path: Path) -> None:
    items = parse_lines(cut_after(finished_log, 30))
    items[0]["roster"][2]["agent"] = "remote:alice"
    path = tmp_path / "remote.jsonl"
    path.write_bytes(rechain(items))
    with pytest.raises(CannotResume, match="seat 2 was played by 'remote:alice'"):
        prepare_resume(path)


def test_corrupt_middle_line_is_reported_and_not_cut(finished_log: bytes, tmp_path: Path) -> None:
    lines = cut_after(finished_log, 60).splitlines(keepends=True)
    lines[21] = b'{"seq": 20, "kind": \n'
    path = tmp_path / "corrupt.jsonl"
    damaged = b"".join(lines)
    path.write_bytes(damaged)
    with pytest.raises(LogCorrupt, match=r"corrupt.jsonl:22: corrupt line"):
        read_log(path)
    partial = read_log(path, strict=False)
    assert len(partial.events) == 20 and replay(partial).actions > 0
    with pytest.raises(CannotResume, match="more lines follow it"):
        prepare_resume(path)
    assert path.read_bytes() == damaged


async def test_resume_updates_the_index(
    finished_log: bytes, tmp_path: Path, private_index: Path
) -> None:
    path = tmp_path / "indexed.jsonl"
    path.write_bytes(cut_after(finished_log, 50))
    game_id = read_log(path, strict=False).header.game_id
    assert log_path_for(str(path)) == path
    with pytest.raises(CannotResume, match="no such log file, and no game"):
        log_path_for("no-such-game")
    resumed = await resume_game(path)
    row = GameIndex(private_index).get(game_id)
    assert row.status == "finished"
    assert row.events == len(resumed.game.record.events)
    assert log_path_for(game_id) == path.resolve()
