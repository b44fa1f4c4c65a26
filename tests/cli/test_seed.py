"""``--seed``: 0 <= seed < 2**128 or one clear line (exit 2); without it a secret seed, printed
only once the game is over; a big seed reproduces its game and replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.store.log import read_log
from duskfall.testing.secrecy import leaked_seeds

BIG = 2**128 - 1


@pytest.fixture(autouse=True)
def no_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--seed", str(2**128)], "--seed 340282366920938463463374607431768211456 is out"),
        (["play", "--seed", "-1"], "--seed -1 is out of range"),
        (["simulate", "-n", "2", "--seed", str(2**128)], "--seed 3402823669209384634633"),
        (["serve", "--seed", str(2**200), "--games", "1"], "a 61-digit number is out of range"),
    ],
)
def test_seeds_out_of_range_are_refused(args: list[str], message: str, cli: CliRun) -> None:
    code, out, err = cli(*args)
    assert code == 2 and message in err and "2**128-1" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


def test_a_128_bit_seed_plays_the_same_game_and_replays(tmp_path: Path, cli: CliRun) -> None:
    logs = []
    for name in ("a", "b"):
        log = tmp_path / f"{name}.jsonl"
        code, out, err = cli("play", "-q", "--seed", str(BIG), "--log", str(log))
        assert code == 0, err
        assert f"seed {BIG} (play it again with --seed {BIG})" in out
        header = json.loads(log.read_text().splitlines()[0])
        assert header["admin"] == {"seed": str(BIG)} and "seed" not in header
        logs.append([(e.kind, e.payload) for e in read_log(log).events if e.kind != "llm_call"])
    assert logs[0] == logs[1]
    code, out, err = cli("replay", "-q", str(tmp_path / "a.jsonl"))
    assert code == 0 and "rules events reproduced exactly" in out


def test_the_console_shows_the_secret_seed_only_after_the_end(tmp_path: Path, cli: CliRun) -> None:
    log = tmp_path / "g.jsonl"
    code, out, err = cli("play", "-v", "werewolf", "--log", str(log))
    assert code == 0, err
    header = read_log(log).header
    before_end = out[: out.index(" wins (")] if " wins (" in out else out[: out.index("Draw")]
    assert leaked_seeds([before_end], "werewolf", header.config, header.seed) == []
    assert f"seed {header.seed} " in out[len(before_end) :]
    assert header.seed.bit_length() > 64  # drawn from the OS (fails once in 2**64 runs)
