"""Sealed remote entrants: a program sees only what its config names, in an empty folder of its
own, and (as root on Linux) as a user of its own that can read no tournament file.

The subprocess test plays a tournament whose remote entrant is a shell script that reports what
it can see (its environment, its folder, its user) and tries every tournament file (the
folder, an earlier game's log, the index and its key), and forks two children, one of which
leaves its process group; its report comes back in its errors file.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.tournament_kit import run
from conftest import CliRun
from duskfall.arena.programs import kill_group, tail
from duskfall.arena.remote_spec import RemoteEntrant
from duskfall.arena.sealing import Seal, can_seal, environment, keep_private, sealing_warning
from duskfall.arena.tournament_config import parse_tournament
from duskfall.core.errors import ConfigError
from duskfall.testing.programs import gone
from duskfall.testing.sealed_python import prelude, sealed_python

OPERATOR = {
    "OPENAI_API_KEY": "sk-operator-secret-1234567890",
    "ANTHROPIC_API_KEY": "sk-ant-operator-secret-0987654321",
    "DUSKFALL_DB": "set by the test",
}


def test_the_environment_holds_only_what_the_config_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in OPERATOR.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GIVEN", "passed on")
    spec = RemoteEntrant(command=["x"], env={"MODEL": "m1"}, pass_env=["GIVEN", "ABSENT"])
    env = environment(spec, tmp_path, {"DUSKFALL_SEAT_TOKEN": "t"})
    assert set(env) == {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "MODEL", "GIVEN"} | {
        "DUSKFALL_SEAT_TOKEN"
    }
    assert env["HOME"] == env["TMPDIR"] == str(tmp_path) and env["GIVEN"] == "passed on"


def test_a_seal_is_an_empty_folder_of_the_programs_own() -> None:
    seal = Seal.make(RemoteEntrant(command=["x"]), {})
    try:
        assert list(seal.folder.iterdir()) == []
        assert stat.S_IMODE(seal.folder.stat().st_mode) == 0o700
        if can_seal():
            assert seal.uid is not None and seal.uid >= 1 << 30
            assert seal.folder.stat().st_uid == seal.uid
            assert seal.options()["extra_groups"] == [] and seal.options()["user"] == seal.uid
        else:
            assert seal.uid is None and "user" not in seal.options()
        assert seal.options()["start_new_session"] is True
    finally:
        seal.remove()
    assert not seal.folder.exists()


def test_a_tournaments_folder_and_index_are_kept_private(tmp_path: Path) -> None:
    folder, index = tmp_path / "games", tmp_path / "index.db"
    folder.mkdir(mode=0o755)
    index.write_bytes(b"")
    keep_private(folder, index)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(index.stat().st_mode) == 0o600
    sticky = tmp_path / "shared"
    sticky.mkdir()
    sticky.chmod(0o1777)  # a folder like /tmp is never made private, but said to be shared
    keep_private(sticky, index)
    assert stat.S_IMODE(sticky.stat().st_mode) == 0o1777
    remote = {"visitor": RemoteEntrant(command=["x"])}
    said = sealing_warning(remote, sticky)
    assert said is not None and "shared" in said and "\n" not in said
    assert sealing_warning({}, sticky) is None


def test_the_warning_says_when_sealing_is_partial(tmp_path: Path) -> None:
    sealed = {"visitor": RemoteEntrant(command=["x"])}
    trusted = {"visitor": RemoteEntrant(command=["x"], sealed=False)}
    if can_seal():
        assert sealing_warning(sealed, tmp_path) is None
        said = sealing_warning(trusted, tmp_path)
        assert said is not None and "'visitor'" in said and "sealed = false" in said
    else:
        said = sealing_warning(sealed, tmp_path)
        assert said is not None and "can read every file you can" in said


@pytest.mark.parametrize(
    ("remote", "message"),
    [
        ({"command": ["x"], "env": {"NO-GOOD": "1"}}, "'NO-GOOD' is not an environment"),
        ({"command": ["x"], "pass_env": ["1ST"]}, "'1ST' is not an environment"),
    ],
)
def test_bad_variable_names_are_one_line(remote: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_tournament(
            {
                "name": "t",
                "entrants": {"house": "random", "visitor": "remote"},
                "remote": {"visitor": remote},
                "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
            }
        )
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_tail_reads_only_the_end_of_a_file(tmp_path: Path) -> None:
    errors = tmp_path / "errors"
    with errors.open("wb") as file:
        file.write((b"x" * 999 + b"\n") * 50_000)  # 50 MB
        file.write("the last line: é\n".encode())
    text = tail(errors, limit=1000)
    assert len(text.encode()) <= 1000 and text.endswith("the last line: é\n")
    assert tail(errors, limit=2).startswith("\ufffd")  # half a character, replaced


def test_killing_a_group_that_is_gone_is_nothing() -> None:
    kill_group(2**22 + 12345)  # no such process group


# -- a real tournament ---------------------------------------------------------------------

PROGRAM = """\
exec 1>&2  # its report goes to its errors file
echo "uid $(id -u)"
echo "cwd $(pwd)"
echo "files $(ls -A . | wc -l)"
env | sed 's/^/env /'
sleep 300 &
echo "child $!"
setsid sleep 300 &
echo "escaped $!"
for path in {paths}; do
    if [ -d "$path" ]; then try="ls -A"; else try="cat"; fi
    if $try "$path" > /dev/null 2>&1; then
        echo "read $path"
    else
        echo "denied $path"
    fi
done
"""


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user may read (pytest's own is private to its user when run as root)."""
    folder = Path(tempfile.mkdtemp(prefix="duskfall-sealed-test-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.subprocess
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_remote_entrant_sees_no_operator_variable_and_no_tournament_file(
    open_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = open_folder  # open to every user: only the modes a run sets keep its files private
    games = base / "games"
    games.mkdir(mode=0o755)
    earlier = games / "earlier-game.jsonl"  # a finished game's log, as the operator wrote it
    earlier.write_text('{"seed": 12345}\n')
    earlier.chmod(0o644)
    index = base / "index.db"
    key = Path(f"{index}.key")
    key.write_bytes(b"k" * 32)
    key.chmod(0o600)
    targets = [games, earlier, index, key]
    script = base / "entrant.sh"
    script.write_text(PROGRAM.replace("{paths}", " ".join(f'"{p}"' for p in [*targets, base])))
    script.chmod(0o755)
    for name, value in OPERATOR.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("DUSKFALL_DB", str(index))
    config = parse_tournament(
        {
            "name": "sealed",
            "entrants": {"house": "random", "visitor": "remote"},
            "remote": {
                "visitor": {
                    "command": ["/bin/sh", str(script)],
                    "connect_timeout": 30,
                    "env": {"MODEL": "given"},
                }
            },
            "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
            "games": 2,
            "seed": 5,
            "schedule": "sides",
            "parallel_games": 1,
            "log_dir": "games",
            "execution": {"attempts": 1},
        }
    )
    summary = run(config, base)
    assert summary.played == 0 and summary.failed  # it never connects: it only looks around
    reports = sorted(games.glob("*.err"))
    assert reports
    lines = reports[0].read_text().splitlines()
    print(summary.failed, "\n".join(lines))
    said = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in lines if " " in line}
    env = dict(line[4:].split("=", 1) for line in lines if line.startswith("env ") and "=" in line)
    assert not set(OPERATOR) & set(env), sorted(env)
    assert not any(value in lines for value in OPERATOR.values())
    assert env["MODEL"] == "given" and env["DUSKFALL_SEAT_TOKEN"]
    assert env["HOME"] == said["cwd"] and said["files"] == "0"
    assert not said["cwd"].startswith(str(base))
    assert not Path(said["cwd"]).exists()  # removed after the game
    for pid in (int(said["child"]), *([int(said["escaped"])] if can_seal() else [])):
        assert gone(pid), f"process {pid} outlived its program"
    if can_seal():
        assert int(said["uid"]) >= 1 << 30
        read = [line for line in lines if line.startswith("read ")]
        assert read == [f"read {base}"], read  # what every user may read, it reads
        assert len([line for line in lines if line.startswith("denied ")]) == len(targets)
        assert stat.S_IMODE(games.stat().st_mode) == 0o700
        assert stat.S_IMODE(index.stat().st_mode) == 0o600
    else:
        os.kill(int(said["escaped"]), 9)  # without a user of its own, setsid escapes the group


@pytest.mark.subprocess
def test_tournament_run_warns_in_one_line_when_sealing_is_partial(
    tmp_path: Path, cli: CliRun
) -> None:
    (tmp_path / "t.toml").write_text(
        'name = "partial"\ngames = 2\nseed = 3\nlog_dir = "games"\n'
        '[entrants]\nhouse = "random"\nvisitor = "remote"\n'
        '[remote.visitor]\ncommand = ["true"]\nsealed = false\n'
        "[execution]\nattempts = 1\n"
        '[[variants]]\nvariant = "werewolf"\npreset = "werewolf-6"\n'
    )
    code, out, _err = cli(
        "tournament", "run", str(tmp_path / "t.toml"), "--db", str(tmp_path / "i.db")
    )
    warnings = [line for line in out.splitlines() if line.startswith("warning: ")]
    assert code == 1 and len(warnings) == 1, out  # its program never connects: games fail
    assert "run as you" in warnings[0] and "can read every file you can" in warnings[0]


LOOKS_THEN_PLAYS = """
import os, sys
games, index = sys.argv[1], sys.argv[2]
try:
    listed = [os.path.join(games, name) for name in os.listdir(games)]
except OSError:
    listed = []
for path in [games, index, *listed]:
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
        print("read", path, file=sys.stderr)
    except OSError:
        print("denied", path, file=sys.stderr)
"""


@pytest.mark.subprocess
@pytest.mark.skipif(not can_seal(), reason="needs a user of the program's own: root on Linux")
def test_the_second_game_of_a_deal_cannot_read_the_first(open_folder: Path) -> None:
    """``parallel_games = 1``: the second game of a ``sides`` deal is played after the first
    game's log is written; its programs (the repository's client, looking around first) can
    read neither it nor the index."""
    python = sealed_python()
    if python is None:
        pytest.skip("no interpreter a sealed program can run")
    games, index = open_folder / "games", open_folder / "index.db"
    program = LOOKS_THEN_PLAYS + "sys.argv[1:3] = []\nfrom duskfall.cli import main\nmain()\n"
    command = [
        python, "-c", prelude(program), str(games), str(index), "connect", "--host", "{host}",
        "--port", "{port}", "--agent", "random", "--quiet",
    ]  # fmt: skip
    config = parse_tournament(
        {
            "name": "deal",
            "entrants": {"house": "random", "visitor": "remote"},
            "remote": {"visitor": {"command": command, "connect_timeout": 60}},
            "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
            "games": 2,
            "seed": 9,
            "schedule": "sides",
            "parallel_games": 1,
            "log_dir": "games",
        }
    )
    summary = run(config, open_folder)
    assert summary.failed == [] and summary.played == 2
    logs = sorted(games.glob("*.jsonl"), key=lambda path: path.stat().st_mtime)
    second = logs[1].stem
    said = [
        line for err in games.glob(f"{second}-seat*.err") for line in err.read_text().splitlines()
    ]
    assert said and all(line.startswith("denied ") for line in said), said
    assert any(line == f"denied {games}" for line in said)
