"""The command line as a newcomer meets it: every mistake of a config listed at once, a fixed
config taken, filters that match nothing refused, Ctrl-C at start-up one line, numbers that are
numbers, deaths placed at their phase, ``--version``, help for a terminal, progress piped."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.cli import progress

CLI = [sys.executable, "-c", "from duskfall.cli import main; main()"]

CONFIG = """
name = "newcomer"
games = 2
seed = 5
schedule = "sides"
{extra}
[entrants]
smart = "heuristic"
naive = "{naive}"

[[variants]]
variant = "sports-mafia"
{options}
"""


def config(tmp_path: Path, extra: str = "", naive: str = "random", options: str = "") -> Path:
    path = tmp_path / "newcomer.toml"
    path.write_text(CONFIG.format(extra=extra, naive=naive, options=options))
    return path


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


def test_a_config_with_several_mistakes_lists_them_all(tmp_path: Path, cli: CliRun) -> None:
    path = config(
        tmp_path,
        extra='looks = 0\nparallel_games = true\nworkers = "2"\ndecision_timeout = inf',
        naive="mix:heuristic@-0.1/random",
        options="[agent_options]\nmax_tokenz = 5\nmax_tokens = -5\n",
    )
    code, _, err = cli("tournament", "run", str(path), "--db", str(tmp_path / "index.db"))
    line = one_line(err)
    assert code == 2
    for mistake in (
        "looks",
        "parallel_games",
        "workers",
        "decision_timeout",
        "not -0.1",
        "'max_tokenz'",
        "max_tokens",
    ):
        assert mistake in line, mistake
    assert not (tmp_path / "tournaments").exists()  # nothing played, nothing written


def test_every_block_mistake_is_listed_with_its_number(tmp_path: Path, cli: CliRun) -> None:
    path = config(tmp_path, naive="bogus", options="[agent_options]\nbogus = 1\n")
    code, _, err = cli("tournament", "run", str(path), "--db", str(tmp_path / "index.db"))
    line = one_line(err)
    assert code == 2 and "has 2 mistakes: (1)" in line and "(2) [agent_options]" in line


def test_a_changed_config_that_played_nothing_is_taken(tmp_path: Path, cli: CliRun) -> None:
    db = str(tmp_path / "index.db")
    path = config(tmp_path)
    folder = tmp_path / "tournaments" / "newcomer"
    folder.mkdir(parents=True)  # as a run stopped before its first game leaves it
    (folder / "tournament.json").write_text(json.dumps({"fingerprint": "another", "salt": "s"}))
    code, out, err = cli("tournament", "run", str(path), "--db", db)
    assert code == 0 and "2 game(s) played" in out, err
    path.write_text(path.read_text().replace("seed = 5", "seed = 6"))
    code, _, err = cli("tournament", "resume", str(path), "--db", db)
    assert code == 2 and "started with another config" in one_line(err)


def test_board_csv_holds_plain_numbers(tmp_path: Path, cli: CliRun) -> None:
    db = str(tmp_path / "index.db")
    path = config(tmp_path)
    assert cli("tournament", "run", str(path), "--db", db)[0] == 0
    board = tmp_path / "board.csv"
    code, _, err = cli(
        "tournament", "report", str(path), "--db", db, "--csv", str(board), "--bootstrap", "5"
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(board.read_text())))
    rates = [row[c] for row in rows for c in ("evil_win_rate", "village_win_rate")]
    assert rows and any(rates)
    for rate in filter(None, rates):  # empty: no game on that side
        assert 0.0 <= float(rate) <= 1.0


def test_export_refuses_what_matches_nothing(tmp_path: Path, cli: CliRun) -> None:
    db = str(tmp_path / "index.db")
    assert cli("play", "-q", "--seed", "1", "--db", db)[0] == 0
    for option, value in (("--tournament", "nope"), ("--variant", "nope"), ("--limit", "-5")):
        out = tmp_path / f"out{option}"
        code, _, err = cli("export", "--out", str(out), "-f", "jsonl", option, value, "--db", db)
        assert code == 2 and value in one_line(err)
        assert not out.exists()
    code, out, err = cli("export", "--out", str(tmp_path / "all"), "-f", "jsonl", "--db", db)
    assert code == 0 and "1 games exported" in out, err


@pytest.mark.parametrize(
    ("spec", "said"),
    [("mix:heuristic@-0.1/random", "not -0.1"), ("mix:heuristic@nan/random", "not nan")],
)
def test_a_mix_probability_that_is_none_is_named(spec: str, said: str, cli: CliRun) -> None:
    code, _, err = cli("play", "-q", "--agents", spec)
    assert code == 2 and said in one_line(err)


def test_version(cli: CliRun) -> None:
    code, out, _ = cli("--version")
    assert code == 0 and out.strip().startswith("duskfall 0.")


def test_help_is_for_a_terminal_with_examples(cli: CliRun) -> None:
    for command in (["play"], ["export"], ["tournament", "report"], ["analyse"]):
        code, out, _ = cli(*command, "--help")
        assert code == 0
        assert "`" not in out and "Examples" in out, command


def test_analyse_places_night_deaths_on_their_night(tmp_path: Path, cli: CliRun) -> None:
    log = tmp_path / "w.jsonl"
    code, _, err = cli(
        "play", "-q", "-v", "werewolf", "--preset", "werewolf-9", "--seed", "5",
        "--agents", "heuristic", "--log", str(log), "--db", "off",
    )  # fmt: skip
    assert code == 0, err
    killed: dict[int, set[int]] = {}
    for line in log.read_text().splitlines()[1:]:
        event = json.loads(line)
        if event.get("kind") == "night_resolved" and event["payload"]["deaths"]:
            killed.setdefault(event["day"], set()).update(
                d["seat"] for d in event["payload"]["deaths"]
            )
    assert killed
    code, out, err = cli("analyse", str(log), "-n", "2", "--json", "--db", "off")
    assert code == 0, err
    points = json.loads(out)["points"]
    nights = {p["day"]: set(p["left"]) for p in points if p["phase"] == "NIGHT"}
    for day, seats in killed.items():
        assert seats <= nights[day], (day, seats, nights)
    swings = " ".join(s["text"] for s in json.loads(out)["swings"])
    assert "BADGE" not in swings


def test_a_fork_replacing_with_deep_json_is_one_line(tmp_path: Path, cli: CliRun) -> None:
    log = tmp_path / "g.jsonl"
    assert cli("play", "-q", "--seed", "2", "--log", str(log), "--db", "off")[0] == 0
    action = next(
        json.loads(line)["seq"]
        for line in log.read_text().splitlines()[1:]
        if json.loads(line).get("kind") == "action"
    )
    deep = '{"a": ' * 5_000 + "1" + "}" * 5_000
    code, _, err = cli("fork", str(log), "--replace", f"{action}={deep}", "--db", "off")
    assert code == 2 and "nested" in one_line(err)


def test_check_bot_refuses_a_timeout_of_zero(cli: CliRun) -> None:
    code, _, err = cli("check-bot", "--timeout", "0", "--", "true")
    assert code == 2 and "--timeout 0" in one_line(err)


def test_piped_progress_prints_a_line_every_few_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "PIPED_EVERY", 0.05)
    monkeypatch.setattr(progress, "PIPED_FIRST", 0.05)
    console = progress.Console(file=io.StringIO(), force_terminal=False)
    with progress.progress_bar(console, "exporting games", 300) as bar:
        bar(30)
        time.sleep(0.2)
    with progress.working(console, "building the board"):
        time.sleep(0.2)
    err = capsys.readouterr().err
    assert "exporting games: 30/300 (10%)" in err
    assert "building the board: still running" in err


@pytest.mark.subprocess
def test_ctrl_c_during_start_up_is_one_line(tmp_path: Path) -> None:
    for library in ("pydantic_core", "_sqlite3"):  # mapped while duskfall's modules load
        process = subprocess.Popen(
            [*CLI, "play", "-q"],
            cwd=tmp_path,
            env={**os.environ, "DUSKFALL_DB": "off"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        maps = Path(f"/proc/{process.pid}/maps")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            if library in maps.read_text(errors="replace"):
                break
            time.sleep(0.005)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130, err
        assert err.strip() == "interrupted", err
