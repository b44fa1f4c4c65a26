"""Pre-flight and failing seats, as a user meets them on the command line.

Before a game writes anything, every model-backed seat is checked once: a seat that cannot
play is one line naming the seats and the fix, exit 2, no log and no index row. During a
game, a seat that fails three decisions in a row stops it as aborted (exit 1, logged and
indexed so), unless ``--on-seat-failure fallback``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.llm.providers import local
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.testing.stub_server import FaultPlan, StubServer, schema_answer

UNREACHABLE = "http://127.0.0.1:9/v1"  # the discard port: nothing listens there
FAST_MODEL = ("--agent-option", "retries=0", "--agent-option", "retry_delay=0")

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game index of this test's own (not created until a game is indexed)."""
    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DUSKFALL_LLM_CONFIG", raising=False)
    return db


@pytest.fixture
def run(index: Path, cli: CliRun) -> Run:
    def call(*args: str) -> tuple[int, str]:
        code, out, err = cli(*args)
        return code, out + err

    return call


def refused(result: tuple[int, str], *needles: str) -> str:
    """The one error line of a refused start (exit 2), checked for ``needles``."""
    code, out = result
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert code == 2 and len(errors) == 1 and "Traceback" not in out, out
    for needle in needles:
        assert needle in errors[0], out
    return errors[0]


def assert_nothing_written(tmp_path: Path, index: Path) -> None:
    assert not (tmp_path / "games").exists() or not any((tmp_path / "games").iterdir())
    assert not index.exists() or not GameIndex(index).list_games()


@pytest.fixture
def without_llama(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the ``local`` extra were not installed (and no model loaded yet)."""
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    monkeypatch.setattr(local, "_LOADED", {})


@pytest.mark.usefixtures("without_llama")
def test_the_local_model_without_its_extra(run: Run, tmp_path: Path, index: Path) -> None:
    line = refused(run("play", "--agents", "llm:local"), "seats 0-9 (llm:local) cannot play")
    assert line.endswith("llama-cpp-python is not installed; install it with: "
                         "pip install 'duskfall[local]'")  # fmt: skip
    assert_nothing_written(tmp_path, index)


@pytest.mark.usefixtures("without_llama")
def test_gm_says_the_extra_is_missing_before_it_starts(
    run: Run, tmp_path: Path, index: Path
) -> None:
    code, out = run("gm")
    refused((code, out), "the game master and players", "(local) cannot play",
            "pip install 'duskfall[local]'")  # fmt: skip
    assert "log:" not in out
    assert_nothing_written(tmp_path, index)


def test_an_unreachable_server_fails_in_seconds(run: Run, tmp_path: Path, index: Path) -> None:
    started = time.monotonic()
    agents = f"2=llm:openai:x@{UNREACHABLE},default=heuristic"
    refused(run("play", "--agents", agents), f"seat 2 (llm:openai:x@{UNREACHABLE}) cannot play",
            f"cannot reach {UNREACHABLE}; is the server running")  # fmt: skip
    assert time.monotonic() - started < 10
    refused(run("simulate", "-n", "3", "--agents", f"llm:openai:x@{UNREACHABLE}"), "seats 0-9")
    assert_nothing_written(tmp_path, index)


def test_anthropic_without_a_key(
    run: Run, tmp_path: Path, index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = run("play", "--agents", "llm:anthropic:claude-3-5-haiku-latest")
    refused(result, "seats 0-9 (llm:anthropic:claude-3-5-haiku-latest) cannot play",
            "no Anthropic API key: set ANTHROPIC_API_KEY")  # fmt: skip
    assert_nothing_written(tmp_path, index)


def test_anthropic_says_the_package_is_missing_before_the_key(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setitem(sys.modules, "anthropic", None)
    line = refused(run("play", "--agents", "llm:anthropic:claude-3-5-haiku-latest"),
                   "anthropic is not installed; install it with: pip install "
                   "'duskfall[anthropic]'")  # fmt: skip
    assert "key" not in line


class FailsMidGame:
    """A stub server's answers: valid ones for ``ok`` calls, then HTTP 500 for every call."""

    def __init__(self, ok: int) -> None:
        self.ok = ok
        self.server = StubServer(answer=self.answer)

    def answer(self, request: Mapping[str, Any]) -> str:
        self.ok -= 1
        if self.ok <= 0:
            self.server.faults = FaultPlan(rate=1.0, kinds=("500",))
        return schema_answer(request)


@pytest.fixture
def failing_server(in_background: InBackground[Any]) -> Iterator[StubServer]:
    failing = FailsMidGame(ok=15)  # the pre-flight's request, then a few decisions
    in_background(failing.server.start())
    yield failing.server
    in_background(failing.server.close())


def test_a_seat_failing_mid_game_aborts_it(
    run: Run, failing_server: StubServer, tmp_path: Path, index: Path
) -> None:
    log = tmp_path / "g.jsonl"
    agents = f"llm:openai:stub@{failing_server.url}"
    code, out = run("play", "-q", "--seed", "4", "--agents", agents, "--log", str(log),
                    *FAST_MODEL)  # fmt: skip
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert code == 1 and len(errors) == 1 and "Traceback" not in out, out
    assert "error: the game was aborted: seat " in errors[0], out
    assert f"(llm:openai:stub@{failing_server.url}) failed 3 decisions in a row" in errors[0]
    assert "server error 500" in errors[0] and "--on-seat-failure fallback" in errors[0]
    game = read_log(log)
    assert game.outcome is not None and game.outcome.termination == "aborted"
    assert "failed 3 decisions in a row" in game.outcome.reason
    (row,) = GameIndex(index).list_games()
    assert row.status == "aborted" and row.id == game.header.game_id


def test_on_seat_failure_fallback_plays_to_the_end(
    run: Run, failing_server: StubServer, tmp_path: Path
) -> None:
    log = tmp_path / "g.jsonl"
    agents = f"llm:openai:stub@{failing_server.url}"
    code, out = run("play", "-q", "--seed", "4", "--agents", agents, "--log", str(log),
                    "--on-seat-failure", "fallback", *FAST_MODEL)  # fmt: skip
    assert code == 0, out
    game = read_log(log)
    assert game.outcome is not None and game.outcome.termination != "aborted"
    assert any(event.kind == "fallback" for event in game.events)


def test_a_person_whose_terminal_closed_stops_the_game(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(""))
    code, out = run("play", "--variant", "werewolf", "--seed", "2", "--human", "3")
    assert code == 1 and "Traceback" not in out, out
    assert out.splitlines()[-1].startswith(
        "error: the game was aborted: seat 3 (human) failed 3 decisions in a row (last: "
        "participant error: EOFError: the terminal closed (end of input))"
    ), out
