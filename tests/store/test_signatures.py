"""Signed records: a log and its index row carry the operator key's MAC, so ``replay`` says
"verified" only for what the key holder wrote, refuses a forgery whose hash chain was
recomputed, and says "integrity only" when it has no key (or the log is unsigned, or another
key's). A copied log verifies anywhere with its key file."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun
from duskfall.core.errors import LogCorrupt
from duskfall.lab.fork import ForkRequest, plan_fork
from duskfall.session import GameSetup, prepare_resume, run_game
from duskfall.store.log import END, SEAL, LogHeader, read_log
from duskfall.store.operator_key import KEY_ENV, key_path, operator_key
from duskfall.store.packed import LogBuffer, write_log_file
from duskfall.store.resume import CannotResume
from duskfall.store.signatures import LogForged, Signer, Trust, check_log, record_signer
from duskfall.testing.logs import parse_lines, rechain, unsigned

VERIFIED = "verified (signed by this operator's key"
FORGED = "forged or altered"


async def play(path: Path, seed: int = 5) -> Path:
    await run_game(
        GameSetup("werewolf", seed=seed, agents="heuristic", log_path=path,
                  config={"preset": "werewolf-6"})
    )  # fmt: skip
    return path


@pytest.fixture(autouse=True)
def key_beside_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests keep their keys beside their indexes, not in the suite's fixed key file."""
    monkeypatch.delenv("DUSKFALL_KEY_FILE", raising=False)


@pytest.fixture
async def game(tmp_path: Path) -> Path:
    """A finished werewolf game, logged and indexed (its key beside the test's index)."""
    return await play(tmp_path / "game.jsonl")


def forged(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items`` with one speech rewritten everywhere it appears (the action and the rules'
    echo of it), so that the rules still reproduce the forged log."""
    speech = next(i for i in items if i.get("kind") == "speech")
    text = speech["payload"]["text"]
    assert len(text) > 3
    said = json.dumps(text)[1:-1]
    changed = [json.loads(json.dumps(i).replace(said, "I am the seer")) for i in items]
    assert changed != items
    return changed


def test_a_signed_log_has_seals_and_a_signed_end(game: Path) -> None:
    items = parse_lines(game.read_bytes())
    seals = [i for i in items if i.get("type") == SEAL]
    end = items[-1]
    assert end["type"] == END and "mac" in end and end["key"] == seals[0]["key"]
    assert len(seals) >= 2  # one per phase (day and night)
    log = read_log(game)
    verdict = check_log(log, record_signer())
    assert verdict.trust is Trust.SIGNED and verdict.unsigned_tail == 0


def test_the_signed_log_replays_verified(game: Path, cli: CliRun) -> None:
    code, out, err = cli("replay", "-q", "--signed", str(game))
    assert code == 0, err
    assert "replay verified:" in out and VERIFIED in out


def test_a_forgery_with_a_recomputed_chain_is_refused(
    game: Path, tmp_path: Path, cli: CliRun
) -> None:
    game.write_bytes(rechain(forged(parse_lines(game.read_bytes()))))
    read_log(game)  # the chain is whole again: only the signatures tell
    code, out, err = cli("replay", "-q", str(game))
    assert code == 2 and "verified" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and FORGED in lines[0], err


def test_a_forgery_without_signatures_is_refused_by_its_index_row(game: Path, cli: CliRun) -> None:
    original = parse_lines(game.read_bytes())
    for format in (None, 3):  # stripped, and passed off as a log from before signatures
        game.write_bytes(rechain(unsigned(forged(original), format)))
        code, _, err = cli("replay", "-q", str(game))
        assert code == 2 and FORGED in err and "index row" in err, err


def test_a_copied_log_verifies_on_another_machine_with_its_key(
    game: Path, tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    copied = shutil.copy(game, elsewhere / "game.jsonl")
    key = shutil.copy(key_path(), elsewhere / "operator.key")
    monkeypatch.setenv("DUSKFALL_DB", "off")  # no index there
    monkeypatch.chdir(elsewhere)
    code, out, err = cli("replay", "-q", "--key", str(key), str(copied))
    assert code == 0 and VERIFIED in out, out + err
    monkeypatch.setenv(KEY_ENV, str(key))
    code, out, err = cli("replay", "-q", "--signed", str(copied))
    assert code == 0 and VERIFIED in out, out + err
    # without the key: integrity only, said plainly, and not an error
    monkeypatch.delenv(KEY_ENV)
    code, out, err = cli("replay", "-q", str(copied))
    assert code == 0 and "verified" not in out
    assert "integrity only: no operator key" in out and "--key FILE" in out
    assert cli("replay", "-q", "--signed", str(copied))[0] == 3
    # a forgery there is refused with the key
    Path(copied).write_bytes(rechain(forged(parse_lines(Path(copied).read_bytes()))))
    code, out, err = cli("replay", "-q", "--key", str(key), str(copied))
    assert code == 2 and FORGED in err


def test_a_log_signed_by_another_key_says_so(
    game: Path, tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other.key"
    operator_key(other.with_suffix(""))  # a key file of its own, beside another "index"
    code, out, err = cli("replay", "-q", "--key", str(other), str(game))
    assert code == 0 and "verified" not in out
    assert "signed by another key" in out
    assert cli("replay", "-q", "--signed", "--key", str(other), str(game))[0] == 3
    code, out, err = cli("replay", "-q", "--key", str(tmp_path / "missing.key"), str(game))
    assert code == 2 and err.startswith("error: no key file"), err


def test_a_tampered_index_row_is_detected(game: Path, private_index: Path, cli: CliRun) -> None:
    game_id = read_log(game).header.game_id
    with sqlite3.connect(private_index) as db:
        winner = db.execute("SELECT winner FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        assert winner and db.execute("SELECT seal FROM games").fetchone()[0]
        other = "werewolves" if winner == "village" else "village"
        db.execute("UPDATE games SET winner = ? WHERE id = ?", (other, game_id))
    code, _, err = cli("replay", "-q", str(game))
    assert code == 2 and "index row" in err and "does not match its signature" in err, err


def test_an_old_unsigned_log_still_replays_and_says_so(
    game: Path, tmp_path: Path, cli: CliRun
) -> None:
    old = tmp_path / "old.jsonl"  # a log no index row names
    old.write_bytes(rechain(unsigned(parse_lines(game.read_bytes()), 3)))
    assert read_log(old).header.format == 3
    code, out, err = cli("replay", "-q", str(old))
    assert code == 0, err
    assert "replay checked:" in out and "integrity only: the log is unsigned" in out
    assert "verified" not in out


async def test_resume_goes_on_signing(game: Path, tmp_path: Path, cli: CliRun) -> None:
    lines = game.read_bytes().splitlines(keepends=True)
    seals = [n for n, line in enumerate(lines) if b'"type":"seal"' in line]
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[: seals[1] + 4]))  # three events after a seal: unsigned
    interrupted = read_log(cut, strict=False)
    verdict = check_log(interrupted, record_signer())
    assert verdict.trust is Trust.SIGNED and verdict.unsigned_tail == 3
    code, out, _ = cli("replay", "-q", str(cut))
    assert code == 0 and VERIFIED in out and "the 3 event(s) after it" in out
    await prepare_resume(cut).run()
    code, out, err = cli("replay", "-q", "--signed", str(cut))
    assert code == 0 and VERIFIED in out and "after it" not in out, out + err


async def test_resume_refuses_a_forged_or_foreign_log(
    game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = game.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    forgery = tmp_path / "forgery.jsonl"
    forgery.write_bytes(rechain(forged(parse_lines(cut.read_bytes()))))
    with pytest.raises(LogForged, match=FORGED):
        prepare_resume(forgery)
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "another.key"))
    with pytest.raises(CannotResume, match="which this process does not hold"):
        prepare_resume(cut)


async def test_a_fork_signs_its_log(game: Path, tmp_path: Path, cli: CliRun) -> None:
    request = ForkRequest(game, at="day:1", log_path=tmp_path / "fork.jsonl")
    await plan_fork(request).start().run()
    code, out, err = cli("replay", "-q", "--signed", str(tmp_path / "fork.jsonl"))
    assert code == 0 and VERIFIED in out and "fork:" in out, out + err
    # a fork of a forged parent is refused
    game.write_bytes(rechain(forged(parse_lines(game.read_bytes()))))
    with pytest.raises(LogCorrupt, match=FORGED):
        plan_fork(ForkRequest(game, at="day:1", log_path=tmp_path / "fork2.jsonl"))


async def test_a_log_written_by_a_worker_is_signed_where_it_is_kept(tmp_path: Path) -> None:
    """A tournament's worker builds logs without the key; the driver signs each log's end."""
    header = LogHeader("g-1", "werewolf", {}, 7, [])
    buffer = LogBuffer(header)
    buffer.on_game_end(None)
    path = tmp_path / "worker.jsonl"
    signer = record_signer()
    assert signer is not None
    head = write_log_file(path, buffer.packed(), signer)
    log = read_log(path)
    assert log.head == head and log.end is not None and log.end.mac is not None
    assert check_log(log, signer).trust is Trust.SIGNED
    assert check_log(log, Signer(b"\x01" * 32)).trust is Trust.OTHER_KEY


def test_export_leaves_a_forged_log_out(game: Path, tmp_path: Path, private_index: Path) -> None:
    from duskfall.export.dataset import export_games
    from duskfall.store.index import GameIndex

    with GameIndex(private_index) as index:
        rows = index.list_games()
    assert export_games(rows, tmp_path / "a", "jsonl", "test").games == 1
    game.write_bytes(rechain(forged(parse_lines(game.read_bytes()))))
    result = export_games(rows, tmp_path / "b", "jsonl", "test")
    assert result.games == 0 and result.skipped["with an unreadable or altered log"] == 1


def test_a_malformed_signature_is_one_error_line(game: Path, cli: CliRun) -> None:
    items = parse_lines(game.read_bytes())
    items[-1]["mac"] = "é" * 64  # not a MAC: read as damage, never compared
    game.write_bytes(rechain(items))
    code, _, err = cli("replay", "-q", str(game))
    assert code == 2 and "malformed end record (its signature)" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
