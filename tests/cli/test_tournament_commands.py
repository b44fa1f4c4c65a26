"""``duskfall tournament run|status|report|resume`` in-process, and a model tournament
against the stub OpenAI server (cost and cached tokens in the report)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.testing.stub_server import FaultPlan, StubServer

BOTS = """
name = "cli-bots"
games = 2
seed = 5
schedule = "sides"
parallel_games = 2

[entrants]
smart = "heuristic"
naive = "random"

[[variants]]
variant = "sports-mafia"

[[variants]]
variant = "werewolf"
preset = "werewolf-6"
"""


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    path = tmp_path / "bots.toml"
    path.write_text(BOTS)
    return path


def test_run_status_report_and_resume(bots: Path, tmp_path: Path, cli: CliRun) -> None:
    db = str(tmp_path / "index.db")
    code, out, err = cli("tournament", "run", str(bots), "--db", db)
    assert code == 0, err
    assert "4 game(s) played" in out
    code, out, _ = cli("tournament", "status", str(bots), "--db", db)
    assert "4/4 finished, 0 in flight, 0 failed, 0 to play" in out
    assert "games per node: " in out
    csv, pairs, html = (tmp_path / f"board.{ext}" for ext in ("csv", "pairs.csv", "html"))
    code, out, err = cli(
        "tournament", "report", str(bots), "--db", db, "--json", "--csv", str(csv),
        "--pairs-csv", str(pairs), "--html", str(html), "--bootstrap", "10",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    board = data["board"]
    assert [e["name"] for e in board["entrants"]] == ["smart", "naive"]
    assert board["pairs"][0]["record"]["games"] == 4
    assert csv.read_text().startswith("rank,entrant,agent,games,overall,overall_low")
    assert pairs.read_text().startswith("a,b,difference,") and "smart,naive" in pairs.read_text()
    assert html.read_text().count('<svg class="plot"') >= 3  # plots drawn in the file
    code, out, _ = cli("tournament", "report", str(bots), "--db", db, "--bootstrap", "10")
    assert code == 0 and "smart > naive" in out and "head to head" in out
    code, out, err = cli("tournament", "run", str(bots), "--db", db)
    assert code == 2 and "tournament resume" in err and len(err.strip().splitlines()) == 1
    code, out, _ = cli("tournament", "resume", str(bots), "--db", db)
    assert code == 0 and "0 game(s) played" in out
    assert (tmp_path / "tournaments" / "cli-bots" / "tournament.json").exists()


def test_report_and_status_follow_a_moved_folder(tmp_path: Path, cli: CliRun) -> None:
    """The folder and its index moved (or copied to another machine): the logs are found in
    the config's games folder, as resume finds them, without a resume first."""
    played, moved = tmp_path / "played", tmp_path / "moved"
    played.mkdir()
    (played / "bots.toml").write_text(BOTS)
    code, _, err = cli("tournament", "run", str(played / "bots.toml"), "--db", str(played / "i.db"))
    assert code == 0, err
    played.rename(moved)
    args = (str(moved / "bots.toml"), "--db", str(moved / "i.db"))
    code, out, err = cli("tournament", "report", *args, "--bootstrap", "10")
    assert code == 0, err
    assert "smart > naive" in out
    code, out, err = cli("tournament", "status", *args)
    assert code == 0 and "4/4 finished" in out, err


def test_status_without_a_driver_says_so_when_games_are_left(
    bots: Path, tmp_path: Path, cli: CliRun
) -> None:
    """No driver and nothing lost in flight (as when a driver dies between two games): the
    status still says no driver is running and what resume would play."""
    db = tmp_path / "i.db"
    code, _, err = cli("tournament", "run", str(bots), "--db", str(db))
    assert code == 0, err
    with sqlite3.connect(db) as con:  # one slot never played, as if the driver died before it
        con.execute("DELETE FROM games WHERE tournament_slot = 3")
        con.execute("DELETE FROM tournament_slots WHERE slot = 3")
    code, out, err = cli("tournament", "status", str(bots), "--db", str(db))
    assert code == 0, err
    assert "3/4 finished, 0 in flight" in out
    assert "no driver running: 1 game(s) to play (resume plays them)" in out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (None, "no tournament config"),
        ("name = ", "not valid TOML"),
        ('name = "x"\ngames = 2\n[entrants]\na = "random"\n', "tournament config"),
    ],
)
def test_bad_config_files_are_one_line(
    tmp_path: Path, cli: CliRun, text: str | None, needle: str
) -> None:
    path = tmp_path / "t.toml"
    if text is not None:
        path.write_text(text)
    code, out, err = cli("tournament", "run", str(path), "--db", str(tmp_path / "i.db"))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in out + err


def test_an_entrant_whose_model_cannot_play_stops_the_run_before_any_game(
    tmp_path: Path, cli: CliRun
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        BOTS.replace('naive = "random"', 'naive = "llm:openai:gpt-4o-mini@http://127.0.0.1:9"')
    )
    db = tmp_path / "i.db"
    code, _, err = cli("tournament", "run", str(path), "--db", str(db))
    assert code == 2 and "cannot play" in err and len(err.strip().splitlines()) == 1, err
    assert not list((tmp_path / "tournaments" / "cli-bots").glob("*.jsonl"))


def test_run_warns_before_play_when_the_design_cannot_measure_the_board(
    tmp_path: Path, cli: CliRun
) -> None:
    """Four entrants in pairs with one deal: only the first pair meets, so no entrant's skill
    relative to the field is measured; the run says so first, and the board prints no number
    or verdict for what the games do not determine."""
    path = tmp_path / "t.toml"
    four = '[entrants]\na = "heuristic"\nb = "random"\nc = "heuristic"\nd = "random"\n'
    path.write_text(
        BOTS.replace('[entrants]\nsmart = "heuristic"\nnaive = "random"\n', four).replace(
            '\n[[variants]]\nvariant = "werewolf"\npreset = "werewolf-6"\n', ""
        )
    )
    db = str(tmp_path / "i.db")
    code, _, err = cli("tournament", "run", str(path), "--db", db)
    assert code == 0, err
    assert err.startswith("warning: the 'sides' schedule with these games cannot measure the")
    assert "overall skill of a, b, c, d" in err
    code, out, err = cli(
        "tournament", "report", str(path), "--db", db, "--json", "--bootstrap", "5"
    )
    board = json.loads(out)["board"]
    assert all(e["overall"]["point"] is None and e["tier"] is None for e in board["entrants"])
    verdicts = {(p["a"], p["b"]): p["verdict"] for p in board["pairs"]}
    measured = [
        pair for pair, verdict in verdicts.items() if verdict != "not measured by this design"
    ]
    assert [set(pair) for pair in measured] == [{"a", "b"}]


def test_unknown_backend_is_one_line(bots: Path, tmp_path: Path, cli: CliRun) -> None:
    code, _, err = cli("tournament", "run", str(bots), "--db", str(tmp_path / "i.db"),
                       "--backend", "mars")  # fmt: skip
    assert code == 2 and "unknown backend 'mars'" in err


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    server = StubServer(prompt_cache=True, faults=FaultPlan(rate=0.1, kinds=("500",), seed=1))
    in_background(server.start())
    yield server
    in_background(server.close())


@pytest.mark.slow
def test_an_openai_tournament_against_the_stub_reports_cost_and_cached_tokens(
    stub: StubServer, tmp_path: Path, cli: CliRun
) -> None:
    config = tmp_path / "models.toml"
    config.write_text(
        f"""
name = "models"
games = 2
seed = 1
schedule = "sides"
parallel_games = 2
beliefs = "daily"

[entrants]
mini = "llm:openai:gpt-4o-mini@{stub.url}"
big = "llm:openai:gpt-4o@{stub.url}"

[agent_options]
retries = 3
retry_delay = 0.01

[[variants]]
variant = "werewolf"
preset = "werewolf-6"
"""
    )
    db = str(tmp_path / "index.db")
    code, out, err = cli("tournament", "run", str(config), "--db", db)
    assert code == 0, out + err
    code, out, err = cli("tournament", "report", str(config), "--db", db, "--json",
                         "--bootstrap", "10")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["games_played"] == 2 and data["total_cost_usd"] > 0
    for entrant in data["board"]["entrants"]:
        assert entrant["cost_usd"] > 0 and entrant["cost_per_game"] > 0
    for entrant in data["behaviour"]:
        metrics = entrant["metrics"]
        assert metrics["cost_usd"] > 0 and metrics["llm_calls"] > 0
        assert metrics["cached_tokens"] > 0 and metrics["uncached_tokens"] > 0
        assert metrics["mean_latency_s"] is not None
    assert set(data["calibration"]) == {"mini", "big"}
    assert stub.stats["500"] > 0  # faults were survived


STOPPING = """
name = "cli-stop"
games = 300
seed = 4
schedule = "sides"
stop = "separated"

[entrants]
smart = "heuristic"
naive = "random"

[[variants]]
variant = "werewolf"
preset = "werewolf-9"
"""


@pytest.mark.slow
def test_plan_run_status_and_report_of_a_tournament_that_stops_when_separated(
    tmp_path: Path, cli: CliRun
) -> None:
    config = tmp_path / "stop.toml"
    config.write_text(STOPPING)
    db = str(tmp_path / "index.db")
    code, out, err = cli("tournament", "plan", str(config), "--db", db, "--proxy-games", "40")
    assert code == 0, err
    assert "games needed" in out and "duplicate" in out and "mixed" in out
    code, out, err = cli("tournament", "run", str(config), "--db", db)
    assert code == 0, err
    assert "stopped scheduling: every pair separated" in out
    code, out, _ = cli("tournament", "status", str(config), "--db", db)
    assert 'stopped by its rule (stop = "separated"): every pair separated' in out
    code, out, _ = cli("tournament", "report", str(config), "--db", db, "--bootstrap", "50")
    assert code == 0 and "Stopping rule (separated)" in out and "games saved" in out
    code, out, _ = cli("tournament", "plan", str(config), "--db", db, "--json")
    plan = json.loads(out)
    assert plan["pilot"]["games"] > 0 and "pairing_variance_reduction" in plan["pilot"]
