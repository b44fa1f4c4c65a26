"""The index repairs itself: rows left ``running`` by a process that died after ``game_over``
was written (or right after the header of a failed start) are closed from their logs."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duskfall.cli import store_commands
from duskfall.session import GameSetup, prepare_game
from duskfall.store.index import SCHEMA_VERSION, GameIndex
from duskfall.store.log import LogHeader
from duskfall.store.rows import GameRow, SeatRow, pid_alive

# plays a game and dies: right after the log got game_over ("end"), after the header ("start"),
# or in the middle ("middle"), each time before the index row is closed
CHILD = """
import asyncio, os, sys
from duskfall.session import GameSetup, prepare_game

mode, log_path = sys.argv[1], sys.argv[2]

class Die:
    phases = 0
    def on_event(self, event):
        if mode == "end" and event.kind == "game_over":
            os._exit(9)  # the log writer, an earlier observer, has written it
    def on_phase_end(self):
        self.phases += 1
        if mode == "middle" and self.phases == 3:
            os._exit(9)
    def on_game_end(self, outcome):
        pass

# seed 2's game ends after its 7th phase: "middle" dies well before game_over (an unseeded
# game ends before its 3rd phase about once in 40)
game = prepare_game(
    GameSetup("mafia", seed=2, agents="random", log_path=log_path, observers=[Die()])
)
print("ready", flush=True)
sys.stdin.readline()  # all children have opened the index (and so repaired it) before any dies
if mode == "start":
    os._exit(9)
asyncio.run(game.run())
"""


def killed_games(tmp_path: Path, db: Path) -> dict[str, str]:
    """One game per mode, each killed as described; returns mode -> game id."""
    env = {**os.environ, "DUSKFALL_DB": str(db)}
    children = {
        mode: subprocess.Popen(
            [sys.executable, "-c", CHILD, mode, str(tmp_path / f"{mode}.jsonl")],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for mode in ("end", "start", "middle")
    }
    for child in children.values():
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    for child in children.values():
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.close()
    assert all(child.wait(timeout=120) == 9 for child in children.values())
    with GameIndex(db, repair=False) as index:
        rows = {Path(r.log_path or "").stem: r for r in index.list_games()}
    assert all(row.status == "running" and row.process_alive is False for row in rows.values())
    return {mode: rows[mode].id for mode in children}


def status(db: Path, game_id: str) -> GameRow:
    with GameIndex(db, repair=False) as index:
        return index.get(game_id)


@pytest.mark.subprocess
def test_games_repair_closes_rows_of_dead_processes(tmp_path: Path, private_index: Path) -> None:
    ids = killed_games(tmp_path, private_index)
    result = CliRunner().invoke(store_commands.app, ["games", "--repair"])
    assert result.exit_code == 0, result.output
    assert f"repaired {ids['end']}: running -> finished" in result.output
    assert f"repaired {ids['start']}: running -> aborted" in result.output
    assert ids["middle"] not in result.output
    ended = status(private_index, ids["end"])
    assert ended.winner in ("town", "mafia") and ended.termination == "win"
    assert ended.events > 20 and ended.days >= 1 and ended.pid is None
    assert status(private_index, ids["start"]).status == "aborted"
    assert status(private_index, ids["middle"]).status == "running"  # interrupted: resumable
    again = CliRunner().invoke(store_commands.app, ["games", "--repair"])
    assert "nothing to repair" in again.output


@pytest.mark.subprocess
def test_any_command_that_opens_the_index_repairs_it(tmp_path: Path, private_index: Path) -> None:
    ids = killed_games(tmp_path, private_index)
    prepare_game(GameSetup("mafia", agents="random"))  # what play, serve, web... do first
    assert status(private_index, ids["end"]).status == "finished"
    assert status(private_index, ids["start"]).status == "aborted"
    listed = CliRunner().invoke(store_commands.app, ["games", "--json"])
    assert listed.exit_code == 0 and "repaired" not in listed.output  # done already


def test_a_schema_1_index_is_upgraded_and_keeps_its_rows(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    old = sqlite3.connect(db)
    old.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, config TEXT NOT NULL,
            seed INTEGER NOT NULL, status TEXT NOT NULL, winner TEXT, termination TEXT,
            days INTEGER NOT NULL DEFAULT 0, events INTEGER NOT NULL DEFAULT 0,
            prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0, started_at TEXT NOT NULL, updated_at TEXT NOT NULL,
            finished_at TEXT, log_path TEXT, host TEXT, pid INTEGER);
        CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL, agent TEXT NOT NULL, model TEXT, PRIMARY KEY (game_id, seat));
        INSERT INTO games VALUES ('mafia-7-abc', 'mafia', '{}', 7, 'finished', 'town', 'win',
            3, 80, 0, 0, 0, '2026-01-01', '2026-01-01', NULL, NULL, NULL, NULL);
        INSERT INTO seats VALUES ('mafia-7-abc', 0, 'random', NULL);
        PRAGMA user_version = 1;
        """
    )
    old.close()
    big = 2**128 - 1
    with GameIndex(db) as index:
        row = index.get("mafia-7-abc")
        assert row.seed == 7 and row.seats == (SeatRow(0, "random"),) and row.winner == "town"
        header = LogHeader("mafia-big", "mafia", {}, big, [{"seat": 0, "agent": "random"}])
        index.record_start(header, tmp_path / "mafia-big.jsonl")
        assert index.get("mafia-big").seed == big  # 128 bits survive (INTEGER held 64)
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_schema_2_index_gains_the_cache_columns_and_keeps_its_rows(tmp_path: Path) -> None:
    db = tmp_path / "v2.db"
    old = sqlite3.connect(db)
    old.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, config TEXT NOT NULL,
            seed TEXT NOT NULL, status TEXT NOT NULL, winner TEXT, termination TEXT,
            days INTEGER NOT NULL DEFAULT 0, events INTEGER NOT NULL DEFAULT 0,
            prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0, started_at TEXT NOT NULL, updated_at TEXT NOT NULL,
            finished_at TEXT, log_path TEXT, host TEXT, pid INTEGER);
        CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL, agent TEXT NOT NULL, model TEXT, PRIMARY KEY (game_id, seat));
        INSERT INTO games VALUES ('ww-9-abc', 'werewolf', '{}', '9', 'finished', 'village',
            'win', 2, 50, 900, 40, 0.25, '2026-01-01', '2026-01-01', NULL, NULL, NULL, NULL);
        INSERT INTO seats VALUES ('ww-9-abc', 0, 'llm:local', 'local');
        PRAGMA user_version = 2;
        """
    )
    old.close()
    with GameIndex(db) as index:
        row = index.get("ww-9-abc")
        assert (row.prompt_tokens, row.cost_usd, row.seats) == (
            900,
            0.25,
            (SeatRow(0, "llm:local", "local"),),
        )
        assert (row.cached_tokens, row.cache_write_tokens) == (0, 0)  # older games: none known
        index.add_rows([GameRow("ww-10", "werewolf", {}, 10, (), "finished", cached_tokens=700)])
        assert index.get("ww-10").cached_tokens == 700
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    with GameIndex(db) as again:  # opening an upgraded index changes nothing
        assert again.get("ww-9-abc").prompt_tokens == 900


@pytest.mark.subprocess
def test_repair_aborts_the_games_of_a_killed_server_and_says_why(
    tmp_path: Path, private_index: Path
) -> None:
    """``kill -9`` of ``serve`` mid-game: its remote seats died with it, so the game can never
    be resumed; the repair closes the row as aborted and says so, rather than leaving it
    ``running`` for ever."""
    import json
    import re
    import signal
    import socket

    logs = tmp_path / "logs"
    cli = [sys.executable, "-c", "from duskfall.cli import main; main()"]
    argv = ["serve", "--port", "0", "--variant", "werewolf", "--fill-bots-after", "0"]
    server = subprocess.Popen(
        [*cli, *argv, "--log-dir", str(logs), "--seed", "4"],
        env={**os.environ, "DUSKFALL_DB": str(private_index)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        banner = server.stdout.readline()
        port = re.search(r":(\d+) ", banner)
        assert port, banner
        # a client that takes its seat and never answers: once it is asked, the game has
        # logged its first events and waits for it
        with socket.create_connection(("127.0.0.1", int(port.group(1))), timeout=60) as client:
            reader = client.makefile("rb")
            while True:
                size = int.from_bytes(reader.read(8), "big")
                message = json.loads(reader.read(size))
                if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                    break
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    (log_path,) = logs.glob("*.jsonl")
    game_id = log_path.stem
    assert status(private_index, game_id).status == "running"
    result = CliRunner().invoke(store_commands.app, ["games", "--repair"])
    assert result.exit_code == 0, result.output
    assert f"repaired {game_id}: running -> aborted" in result.output
    assert "remote seat(s) 0 cannot be re-created" in result.output
    row = status(private_index, game_id)
    assert row.status == "aborted" and row.termination == "aborted" and row.pid is None
    listed = CliRunner().invoke(store_commands.app, ["games", "--status", "running"])
    assert game_id not in listed.output


def test_the_repair_reads_only_rows_it_could_close(tmp_path: Path) -> None:
    """Rows running elsewhere, without a process id or in a live process are not stale and
    are not read whole by the repair; a row whose process here is gone is, and is closed."""
    dead = next(pid for pid in range(4_000_000, 1, -1) if not pid_alive(pid))
    here = socket.gethostname()
    gone = str(tmp_path / "gone.jsonl")
    rows = {
        "dead-here": GameRow("dead-here", "mafia", {}, 1, (), "running", log_path=gone,
                             host=here, pid=dead),
        "elsewhere": GameRow("elsewhere", "mafia", {}, 2, (), "running", log_path=gone,
                             host="another-host", pid=dead),
        "no-pid": GameRow("no-pid", "mafia", {}, 3, (), "running", log_path=gone),
        "alive-here": GameRow("alive-here", "mafia", {}, 4, (), "running", log_path=gone,
                              host=here, pid=os.getpid()),
    }  # fmt: skip
    db = tmp_path / "index.db"
    with GameIndex(db, repair=False) as index:
        index.add_rows(list(rows.values()))
        assert [row.id for row in index.stale_running()] == ["dead-here"]
    with GameIndex(db) as index:
        assert [(r.game_id, r.status) for r in index.repairs] == [("dead-here", "aborted")]
    assert status(db, "dead-here").status == "aborted"
    assert {status(db, game_id).status for game_id in list(rows)[1:]} == {"running"}

    return True
