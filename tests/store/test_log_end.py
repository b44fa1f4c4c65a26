"""A log carries its own end: a finished game's log ends with an end record (its count of events
and the chain hash of the last), so lines cut off its end are seen without the game index.
Without the index, ``replay`` of a log cut at any line boundary is an error (the end record or
``game_over`` with it gone) or says the game did not finish or was cut; never a plain
"verified". A log from before end records is read, with a note of what it cannot show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.session import GameSetup, run_game
from duskfall.store.log import END, MissingEnd, read_log
from duskfall.testing.logs import parse_lines, rechain

DOUBT = "did not finish, or lines were cut"


@pytest.fixture
async def finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setenv("DUSKFALL_DB", "off")  # no index row to vouch for anything
    monkeypatch.delenv("DUSKFALL_KEY_FILE", raising=False)  # and no operator key: unsigned
    path = tmp_path / "whole.jsonl"
    await run_game(GameSetup("werewolf", seed=5, agents="heuristic", log_path=path,
                             config={"preset": "werewolf-6"}))  # fmt: skip
    return path.read_bytes()


def test_a_finished_log_ends_with_its_end_record(finished: bytes) -> None:
    lines = [json.loads(line) for line in finished.splitlines()]
    end = lines[-1]
    assert end["type"] == END and end["events"] == len(lines) - 2
    assert end["last"] == lines[-2]["h"] and lines[-2]["kind"] == "game_over"


async def test_every_cut_is_seen_without_the_index(
    finished: bytes, tmp_path: Path, cli: CliRun
) -> None:
    lines = finished.splitlines(keepends=True)
    code, out, err = cli("replay", "-q", str(_write(tmp_path / "whole.jsonl", lines)))
    assert code == 0 and "replay checked" in out and "warning" not in out + err
    assert "integrity only: the log is unsigned" in out  # played without an operator key
    # cut at every line boundary from the end record back to a few events after the start
    for keep in range(len(lines) - 1, 3, -7):
        path = _write(tmp_path / f"cut-{keep}.jsonl", lines[:keep])
        code, out, err = cli("replay", "-q", str(path))
        if keep == len(lines) - 1:  # only the end record is gone: game_over is there
            assert code == 2 and "no end record" in err and "cut from its end" in err, err
            with pytest.raises(MissingEnd):
                read_log(path)
        else:
            assert code == 0 and DOUBT in out, out


def test_an_old_log_without_end_records_is_read_and_said_so(
    finished: bytes, tmp_path: Path, cli: CliRun
) -> None:
    items = [item for item in parse_lines(finished) if item.get("type") != END]
    items[0]["format"] = 2
    path = tmp_path / "format2.jsonl"
    path.write_bytes(rechain(items))
    log = read_log(path)
    assert log.finished and log.end is None and not log.has_end_records
    code, out, _err = cli("replay", "-q", str(path))
    assert code == 0 and "replay checked" in out
    assert "format 2 log has no end record" in out


def test_a_line_after_the_end_record_is_refused(finished: bytes, tmp_path: Path) -> None:
    items = parse_lines(finished)
    items.append(dict(items[-2], seq=len(items) - 2))  # an event written after the end
    path = tmp_path / "after.jsonl"
    path.write_bytes(rechain(items))
    with pytest.raises(Exception, match="after the log's end record"):
        read_log(path)


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(lines))
    return path
