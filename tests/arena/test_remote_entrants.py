"""Remote entrants: a tournament entrant played by a program over real TCP sockets.

The full-tier test plays a small tournament in which one entrant is the repository's own
client (``duskfall connect --token``), started once per seat by the game's process, and one in
which the entrant is a WebSocket client (``transport = "ws"``); the quick tests check the
config's one-line errors and a program that cannot take its seat.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.tournament_kit import report, run
from duskfall.arena.tournament_config import TournamentConfig, parse_tournament
from duskfall.core.errors import ConfigError
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.testing.sealed_python import prelude, sealed_python
from kit.planted_bot import choose

SRC = str(Path(__file__).parents[2] / "src")


def _client_command() -> list[str]:
    """The repository's client as the remote entrant's program (one seat per process), on an
    interpreter its own user can run when it is sealed (else it runs unsealed)."""
    python = sealed_python() or sys.executable
    return [
        python, "-c", prelude("from duskfall.cli import main; main()"), "connect", "--host",
        "{host}", "--port", "{port}", "--agent", "heuristic", "--quiet",  # token: environment
    ]  # fmt: skip


def _config(
    command: list[str], *, sealed: bool | None = None, **overrides: Any
) -> TournamentConfig:
    """A werewolf-6 ``sides`` tournament of a random bot and a remote entrant; its program is
    sealed when it can be (``sealed`` None), a test's script in its private folder is not."""
    sealed = sealed_python() is not None if sealed is None else sealed
    data: dict[str, Any] = {
        "name": "remote",
        "entrants": {"house": "random", "visitor": "remote"},
        "remote": {"visitor": {"command": command, "connect_timeout": 60, "sealed": sealed}},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
        "games": 2,
        "seed": 5,
        "schedule": "sides",
        "parallel_games": 2,
        "log_dir": "games",
    }
    data.update(overrides)
    return parse_tournament(data)


@pytest.mark.subprocess
def test_a_remote_entrant_plays_its_seats_over_tcp(tmp_path: Path) -> None:
    config = _config(_client_command())
    summary = run(config, tmp_path)
    assert summary.failed == [] and summary.played == 2
    result = report(config, tmp_path)
    assert {e.name for e in result.entrants} == {"house", "visitor"}
    with GameIndex(tmp_path / "index.db") as index:
        rows = index.tournament_games("remote")
    assert len(rows) == 2 and all(row.status == "finished" for row in rows)
    for row in rows:
        assert row.log_path is not None
        game = read_log(row.log_path)
        tag = game.header.extra["tournament"]
        remote_seats = {s for s, name in enumerate(tag["seats"]) if name == "visitor"}
        roster = {entry["seat"]: entry["agent"] for entry in game.header.roster}
        assert {s for s, a in roster.items() if a.startswith("remote")} == remote_seats
        # the client answered every decision of its seats itself: no fallback, no stand-in
        acted = {e.payload.get("seat") for e in game.events if e.kind == "action"}
        assert remote_seats & acted
        assert not [e for e in game.events if e.kind == "fallback"]
        for seat in remote_seats:  # each program's errors file is there, and empty
            errors = Path(row.log_path).parent / f"{row.id}-seat{seat}.err"
            assert errors.read_text() == ""


def test_a_program_that_exits_fails_the_game_in_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import sys; sys.stderr.write('no model\\n'); sys.exit(3)"]
    summary = run(_config(command, sealed=False, games=2), tmp_path)
    assert summary.played == 0
    assert summary.failed and "RemoteEntrantError" in summary.failed[0]
    assert "'visitor'" in summary.failed[0] and "exited with status 3" in summary.failed[0]
    errors = list((tmp_path / "games").glob("*.err"))
    assert errors and "no model" in errors[0].read_text()


SILENT = (
    "import socket, sys, time; s = socket.create_connection(('127.0.0.1', int(sys.argv[1]))); "
    "time.sleep(30)"
)
NO_TOKEN = (
    "import json, socket, sys; s = socket.create_connection(('127.0.0.1', int(sys.argv[1]))); "
    "d = json.dumps({'type': 'HELLO'}).encode(); s.sendall(len(d).to_bytes(8, 'big') + d); "
    "s.recv(1 << 16)"
)


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("program", "timeout", "why"),
    [
        (SILENT, 4, "it connected but sent no HELLO with its seat's token within 4s"),
        # refused at once, so the wait ends when it exits: the long timeout costs nothing and
        # leaves a busy machine's slow interpreter start out of it
        (NO_TOKEN, 30, "a connection came but sent a HELLO without its seat's token"),
    ],
)
def test_a_program_that_connects_without_its_hello_is_told_apart(
    tmp_path: Path, program: str, timeout: int, why: str
) -> None:
    script = tmp_path / "entrant.py"
    script.write_text(program)
    command = [sys.executable, str(script), "{port}"]
    remote = {"visitor": {"command": command, "connect_timeout": timeout, "sealed": False}}
    config = _config(command, games=2, parallel_games=1, remote=remote)
    summary = run(config, tmp_path)
    assert summary.played == 0 and summary.failed
    assert why in summary.failed[0] and "did not connect" not in summary.failed[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"remote": {}}, "entrant 'visitor' is remote: say how to start its program"),
        (
            {"remote": {"visitor": {"command": ["x"]}, "other": {"command": ["y"]}}},
            "[remote.other]: no entrant 'other'",
        ),
        ({"remote": {"visitor": {"command": []}}}, "remote.visitor.command"),
        ({"remote": {"visitor": {"command": ["x", "{nope}"]}}}, "placeholders are {host}"),
    ],
)
def test_bad_remote_configs_are_one_line(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _config(["x"], **change)
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.subprocess
def test_no_frame_to_a_remote_entrant_carries_its_deals_seed(tmp_path: Path) -> None:
    """The two games of a ``sides`` deal share its seed; the entrant's program plays both and
    records every byte it receives: the seed is in none of them."""
    frames = tmp_path / "frames"
    frames.mkdir()
    record = (
        f"import os, sys, uuid; sys.path.insert(0, {SRC!r}); "
        "from duskfall.client import session; receive = session.ClientSession.receive; "
        f"path = os.path.join({str(frames)!r}, uuid.uuid4().hex); "
        "session.ClientSession.receive = lambda self, data: "
        "(open(path, 'ab').write(data), receive(self, data))[1]; "
        "from duskfall.cli import main; main()"
    )
    command = [sys.executable, "-c", record, *_client_command()[3:]]
    config = _config(command, sealed=False)  # it writes in the test's private folder
    summary = run(config, tmp_path)
    assert summary.failed == [] and summary.played == 2
    with GameIndex(tmp_path / "index.db") as index:
        seeds = {str(row.seed) for row in index.tournament_games("remote")}
    received = [path.read_bytes() for path in frames.iterdir()]
    assert len(seeds) == 1 and len(received) == 6  # one program per seat: werewolf-6, 2 games
    (seed,) = seeds
    for data in received:
        assert b"GAME_OVER" in data  # it heard its game to the end
        assert seed.encode() not in data


# a WebSocket client: HELLO with its seat's token, a random legal answer to every request
WS_CLIENT = (
    inspect.getsource(choose)
    + """
import json, os, random, sys
from websockets.sync.client import connect

SEED_KEYS = {"vote": "VOTE", "kill": "KILL", "don_check": "DON_CHECK",
             "sheriff_check": "SHERIFF_CHECK"}
FIELDS = ("potion", "target", "says", "run", "withdraw", "claim")
with connect(sys.argv[1]) as ws:
    ws.send(json.dumps({"type": "HELLO", "token": os.environ["DUSKFALL_SEAT_TOKEN"]}))
    for text in ws:
        message = json.loads(text)
        if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
            action = choose(message["valid_actions"])
            ws.send(json.dumps({"type": "ACTION_RESPONSE", "request_id": message["request_id"],
                                "action": action}))
        elif message["type"] == "GAME_EVENT" and message["event"] == "GAME_OVER":
            break
"""
)


@pytest.mark.subprocess
def test_a_remote_entrant_plays_over_websocket_with_its_latency_on_the_board(
    tmp_path: Path,
) -> None:
    python = sealed_python() or sys.executable
    code = prelude("\n" + WS_CLIENT).replace("{", "{{").replace("}", "}}")  # not placeholders
    command = [python, "-c", code, "{ws_url}"]
    remote = {"command": command, "connect_timeout": 60, "transport": "ws"}
    config = _config(command, schedule="duplicate", games=2, remote={"visitor": remote})
    summary = run(config, tmp_path)
    assert summary.failed == [] and summary.played >= 1
    latency = {e.name: e.metrics.mean_latency_s for e in report(config, tmp_path).entrants}
    assert latency["visitor"] is not None and 0 < latency["visitor"] < 5
    with GameIndex(tmp_path / "index.db") as index:
        rows = index.tournament_games("remote")
    for row in rows:
        assert row.log_path is not None
        game = read_log(row.log_path)
        answers = [e for e in game.events if e.kind == "remote_answer"]
        assert answers and all(e.payload["answered"] for e in answers)
        assert not [e for e in game.events if e.kind == "fallback"]
