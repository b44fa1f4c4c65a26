"""Bad input is one clear line and exit 2: never a traceback, a hang or silence.

The commands run in-process through the CLI's entry point (``main``), which is what a shell
runs; only the orphan check needs real processes.
"""

from __future__ import annotations

import asyncio
import errno
import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.cli.common import with_humans
from duskfall.server import GameServer, ServerSettings
from duskfall.session import GameSetup, PreparedGame, prepare_game
from duskfall.store.log import LogWriter, read_log
from duskfall.web.human import WebHumanSeat

Run = Callable[..., tuple[int, str]]
DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRun) -> Run:
    """``duskfall ARGS`` in-process: (exit code, stdout + stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DUSKFALL_DB", "off")

    def call(*args: str) -> tuple[int, str]:
        code, out, err = cli(*args)
        return code, out + err

    return call


def assert_one_line(result: tuple[int, str], *needles: str) -> None:
    code, out = result
    assert code == 2, out
    error = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and "Traceback" not in out, out
    for needle in needles:
        assert needle in error[0], out


def read_only_folder(tmp_path: Path) -> Path:
    """A folder nobody may write in (root writes anywhere it may chmod: use sysfs)."""
    if os.geteuid() == 0:
        return Path("/sys")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


def test_log_in_a_read_only_folder(run: Run, tmp_path: Path) -> None:
    where = read_only_folder(tmp_path) / "game.jsonl"
    assert_one_line(run("play", "-q", "--log", str(where)), "cannot write the game log")


def test_log_on_a_folder(run: Run, tmp_path: Path) -> None:
    assert_one_line(run("play", "-q", "--log", str(tmp_path)), "it is a folder")


def test_log_on_dev_full(run: Run) -> None:
    # a device is no log (and a FIFO would block the open for ever): refused before the game
    assert_one_line(run("play", "-q", "--log", "/dev/full"), "it is not a regular file")


def test_disk_full_mid_game_stops_with_one_line_and_keeps_the_log(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = LogWriter.on_event

    def on_event(self: LogWriter, event: object) -> None:
        if event.seq >= 20:  # type: ignore[attr-defined]
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(LogWriter, "on_event", on_event)
    log = tmp_path / "g.jsonl"
    assert_one_line(run("play", "--log", str(log)), "No space left on device", str(log))
    kept = read_log(log, strict=False)
    assert [e.seq for e in kept.events] == list(range(20))


def test_simulate_log_dir_that_cannot_be_made(run: Run) -> None:
    result = run("simulate", "-n", "2", "--log-dir", "/proc/nope")
    assert_one_line(result, "cannot write game logs in /proc/nope")


@pytest.mark.parametrize(
    ("option", "value", "needle"),
    [
        ("--retries", "-1", "retries"),
        ("--retries", "1000000000", "retries"),
        ("--timeout", "0", "decision_timeout"),
        ("--timeout", "-1", "decision_timeout"),
        ("--timeout", "nan", "finite"),
    ],
)
def test_runtime_settings(run: Run, option: str, value: str, needle: str) -> None:
    assert_one_line(run("play", "-q", option, value), "invalid runtime settings", needle)


def test_resume_settings_are_checked_too(run: Run, tmp_path: Path) -> None:
    assert_one_line(run("resume", str(tmp_path / "x.jsonl"), "--retries", "-1"), "retries")


def test_serve_retries(run: Run) -> None:
    assert_one_line(run("serve", "--retries", "50"), "retries", "less than or equal to 10")


def test_agent_option_timeout(run: Run) -> None:
    assert_one_line(run("play", "-q", "--agent-option", "timeout=-1"), "agent option timeout")


def test_deep_nesting_in_set(run: Run) -> None:
    assert_one_line(run("play", "-q", "--set", f"day_limit={DEEP}"), "nested more than 32")
    assert_one_line(run("play", "-q", "--set", "x=" + "[" * 40 + "]" * 40), "nested more than")


def test_deep_nesting_in_config_file(run: Run, tmp_path: Path) -> None:
    config = tmp_path / "deep.json"
    config.write_text('{"a": ' + DEEP + "}")
    assert_one_line(run("play", "-q", "--config-file", str(config)), "nested more than 32")


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_deep_nesting_in_gm_config(run: Run, tmp_path: Path, suffix: str) -> None:
    config = tmp_path / f"gm{suffix}"
    body = f"a = {DEEP}" if suffix == ".toml" else '{"a": ' + DEEP + "}"
    config.write_text(body)
    assert_one_line(run("gm", "--config", str(config)), "nested more than 32")


def test_config_file_not_utf8(run: Run, tmp_path: Path) -> None:
    config = tmp_path / "latin1.json"
    config.write_bytes('{"name": "café"}'.encode("latin-1"))
    assert_one_line(run("play", "-q", "--config-file", str(config)), "is not UTF-8")
    gm_config = tmp_path / "gm.toml"
    gm_config.write_bytes(b'card = "\xff"')
    assert_one_line(run("gm", "--config", str(gm_config)), "is not UTF-8")


def test_too_many_workers(run: Run) -> None:
    assert_one_line(run("simulate", "-n", "5", "-w", "1000"), "workers must be between 1 and")


@pytest.mark.parametrize("card", ["/dev/zero", "/dev/null", "/proc/self"])
def test_gm_card_that_is_not_a_file(run: Run, card: str) -> None:
    assert_one_line(run("gm", "--card", card), "is not a regular file")


def test_gm_card_too_large(run: Run, tmp_path: Path) -> None:
    card = tmp_path / "big.toml"
    card.write_text("# " + "x" * 300_000)
    assert_one_line(run("gm", "--card", str(card)), "larger than")


def test_human_below_zero(run: Run) -> None:
    assert_one_line(run("play", "--human", "-1"), "--human -1")
    assert_one_line(run("play", "--human", "99"), "seat 99 does not exist")


async def test_resume_refuses_to_show_a_browser_seat_at_the_terminal(
    run: Run, tmp_path: Path
) -> None:
    log = tmp_path / "web-game.jsonl"
    game = prepare_game(
        GameSetup("werewolf", seed=3, log_path=log, participants={2: WebHumanSeat(2)})
    )
    game.scheduler.start()
    for observer in game.record.observers:
        close = getattr(observer, "close", None)
        if callable(close):
            close()
    assert read_log(log).header.roster[2]["agent"] == "human:browser"
    code, out = run("resume", str(log))
    assert_one_line((code, out), "seat 2 was played in the browser")
    assert "your turn" not in out and "Werewolf" not in out.split("error:")[0]


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            ppid = next(line for line in status.splitlines() if line.startswith("PPid:"))
            if int(ppid.split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)  # polling another process's state: nothing to await
    return condition()


@pytest.mark.subprocess
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    if not Path("/proc/self/status").exists():
        pytest.fail("this check reads /proc (Linux)")
    env = {**os.environ, "DUSKFALL_DB": "off"}
    parent = subprocess.Popen(
        [sys.executable, "-m", "duskfall", "simulate", "-n", "1000000", "-w", "2"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        workers: set[int] = set()

        def started() -> bool:
            workers.update(_children(parent.pid))
            return len(workers) >= 2  # two workers (spawned ones: and the resource tracker)

        assert _wait_until(started, 60), workers
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert _wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), 10)


def test_set_without_a_value(run: Run) -> None:
    assert_one_line(run("play", "-q", "--set", "{bad"), "--set needs KEY=VALUE")


# -- the inputs of issue 20 (items 5 and 6): each one clear line and the right exit status --


@pytest.mark.parametrize("command", [("replay",), ("resume",), ("gm", "--resume")])
def test_a_folder_given_as_a_log(run: Run, tmp_path: Path, command: tuple[str, ...]) -> None:
    assert_one_line(run(*command, str(tmp_path)), "is a directory, not a log file")


@pytest.mark.parametrize(
    ("option", "value", "needle"),
    [
        ("--port", "99999", "port: Input should be less than or equal to 65535"),
        ("--port", "-1", "port: Input should be greater than or equal to 0"),
        ("--fill-bots-after", "-5", "fill_bots_after"),
        ("--deadline-ms", "0", "deadline_ms"),
        ("--max-frame", "0", "max_frame"),
        ("--read-timeout", "-1", "read_timeout"),
        ("--retries", "-1", "retries"),
        ("--games", "0", "games"),
        ("--max-connections", "0", "max_connections"),
        ("--reconnect-grace", "-1", "reconnect_grace"),
    ],
)
def test_serve_options(run: Run, option: str, value: str, needle: str) -> None:
    assert_one_line(run("serve", option, value), "invalid option", needle)


@pytest.mark.parametrize("command", ["web", "connect"])
@pytest.mark.parametrize("port", ["99999", "-1"])
def test_a_port_out_of_range(run: Run, command: str, port: str) -> None:
    assert_one_line(run(command, "--port", port), f"--port {port}", "from 0 to 65535")


def test_connect_token_with_several_clients(run: Run) -> None:
    result = run("connect", "--count", "2", "--token", "abc")
    assert_one_line(result, "--token names one seat: use it with --count 1")


@pytest.mark.parametrize(
    ("option", "needle"),
    [
        ("max_tokens=abc", "invalid llm agent option max_tokens: Input should be a valid integer"),
        ("max_tokens=-5", "max_tokens: Input should be greater than or equal to 1"),
        ("bogus=1", "unknown agent option 'bogus'; valid options: beliefs, coaching, concurrency"),
        ("think_chars=5", "'think_chars' was replaced by reasoning_chars"),
        ("foo", "--agent-option needs KEY=VALUE, got 'foo'"),
    ],
)
def test_agent_options_whatever_the_agents(run: Run, option: str, needle: str) -> None:
    """Refused even when no seat would read them (here: bots only)."""
    assert_one_line(run("play", "-q", "--agent-option", option), needle)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--agents", ",".join(["heuristic"] * 10)), "gives seat 3 to 'heuristic'"),
        (("--agents", "3=random,default=heuristic"), "gives seat 3 to 'random'"),
        (("--human", "3"), "--human 3 is given more than once"),
        (("--human", "-2"), "--human -2: seats are numbered from 0"),
    ],
)
def test_human_seats_that_conflict(run: Run, args: tuple[str, ...], needle: str) -> None:
    assert_one_line(run("play", "--human", "3", *args), needle)


def test_several_human_seats_are_a_list() -> None:
    """``--human 3 --human 4`` is hot-seat play: both seats, neither silently dropped."""
    assert with_humans("heuristic", [3, 4]) == "3=human,4=human,default=heuristic"
    assert with_humans("town=random", [3]) == "3=human,town=random"
    assert with_humans("random,human,random", [1]) == "random,human,random"


def test_simulate_refuses_human_seats(run: Run) -> None:
    result = run("simulate", "-n", "2", "--agents", "human")
    assert_one_line(result, "simulate plays games unattended", "duskfall play --human SEAT")


def test_an_unknown_config_key_lists_the_valid_ones(run: Run) -> None:
    needle = "unknown key 'bogus' (valid keys: day_limit, seat_order)"
    assert_one_line(run("play", "-q", "--set", "bogus=1"), needle)


def test_no_pydantic_wording(run: Run) -> None:
    code, out = run("play", "-q", "--variant", "werewolf", "--preset", "nope")
    assert_one_line((code, out), "preset: unknown preset 'nope'; presets are werewolf-12")
    assert "Value error" not in out and "(got 'nope')" not in out


def test_a_preset_of_another_variant_says_which(run: Run) -> None:
    needle = "--preset werewolf-9: sports-mafia has no presets (presets are for werewolf)"
    assert_one_line(run("play", "--preset", "werewolf-9"), needle, "add --variant werewolf")


def test_games_lists_interrupted_games(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    _interrupt(prepare_game(GameSetup("mafia", seed=1, agents="random", log_path=tmp_path / "i")))
    code, out = run("games", "--status", "interrupted")
    assert code == 0 and "interrupted" in out and "1 of 1 games" in out, out
    code, out = run("games", "--status", "running")
    assert code == 0 and "0 of 0 games" in out, out
    valid = "valid: running, finished, aborted, interrupted"
    assert_one_line(run("games", "--status", "lost"), valid)


def _interrupt(game: PreparedGame) -> None:
    """Start ``game``, then leave its log and row as a process killed mid-game leaves them."""
    game.scheduler.start()
    for observer in game.record.observers:
        close = getattr(observer, "close", None)
        if callable(close):
            close()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                          capture_output=True, text=True).stdout  # fmt: skip
    with sqlite3.connect(os.environ["DUSKFALL_DB"]) as db:
        db.execute("UPDATE games SET pid = ? WHERE id = ?", (int(dead), game.game_id))


def test_help_shows_no_type_after_a_plain_flag(run: Run) -> None:
    code, out = run("play", "--help")
    assert code == 0 and "--quiet" in out and "<bool>" not in out, out


def test_the_result_is_printed_once(run: Run) -> None:
    code, out = run("play", "--variant", "mafia", "--seed", "1")
    assert code == 0 and out.count("(no mafia remains)") == 1, out


def test_connect_as_a_human_without_a_terminal(
    run: Run, in_background: InBackground[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """stdin closed: the client stops at its first decision with one line, not a hang."""
    server = GameServer(ServerSettings(port=0, fill_bots_after=0.1, log_dir=None))
    in_background(server.start())
    serving = in_background(_started(server.serve()))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        started = time.monotonic()
        code, out = run("connect", "--port", str(server.port), "--agent", "human")
    finally:
        serving.cancel()
        in_background(server.close())
    assert code == 1 and time.monotonic() - started < 20, out
    assert out.splitlines()[-1] == "client 0: failed: the terminal closed (end of input)", out
    assert "Traceback" not in out


async def _started(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    return asyncio.ensure_future(coro)


def test_serve_with_an_index_from_a_newer_duskfall(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "newer.db"
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA user_version = 99")
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    # refused before it listens, not inside the first game once ten clients have come
    assert_one_line(run("serve", "--port", "0", "--games", "1"), "schema 99", "upgrade duskfall")
