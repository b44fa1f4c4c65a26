"""The driver owns the record: failed tries played again, a hopeless slot marked failed with
its reason (and played by resume), a game whose endpoint never answered played again rather
than counted, games with fallbacks flagged, every slot's game written once, paths absolute."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.conftest import StubMaker
from arena.tournament_kit import bot_config, outcomes, report, run
from conftest import CliRun
from duskfall.arena.backends import Finished, LoopBackend, uses_models
from duskfall.arena.game_job import GameJob, SlotFailure
from duskfall.arena.progress import tournament_progress
from duskfall.arena.tournament_run import Looks
from duskfall.arena.worker_env import absolute_options, absolute_spec
from duskfall.arena.workers import TaskLost
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.testing.stub_server import StubServer


class Losing(LoopBackend):
    """The event loop, but a task holding one of ``lose`` comes back lost (``times`` times
    for each such slot)."""

    def __init__(self, lose: dict[int, int]) -> None:
        super().__init__(2)
        self.lose = dict(lose)
        self.doomed: set[int] = set()

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None:
        slots = [job.slot for job in jobs]
        if any(self.lose.get(slot, 0) > 0 for slot in slots):
            for slot in slots:
                self.lose[slot] = self.lose.get(slot, 0) - 1
            self.doomed.add(task_id)
        super().start(task_id, jobs)

    def wait(self, timeout: float) -> list[tuple[int, Finished]]:
        return [
            (task_id, TaskLost("its worker process died (killed by SIGKILL)"))
            if task_id in self.doomed
            else (task_id, finished)
            for task_id, finished in super().wait(timeout)
        ]


def test_failed_tries_are_played_again_and_a_hopeless_slot_waits_for_resume(
    tmp_path: Path,
) -> None:
    config = bot_config("sides", execution={"attempts": 3})
    run(config, tmp_path / "whole")
    where = tmp_path / "flaky"
    summary = run(config, where, backend_factory=lambda: Losing({3: 1, 5: 99}))
    assert summary.played == 7 and summary.retried == 3
    assert summary.failed == ["slot 5: its worker process died (killed by SIGKILL)"]
    with GameIndex(where / "index.db") as index:
        state = tournament_progress(config, index)
    assert [s.index for s in state.missing] == [5]
    assert [(r.slot, r.attempts, r.state) for r in state.failed] == [(5, 3, "failed")]
    assert state.slots[3].attempts == 1 and state.slots[3].state == "played"
    again = run(config, where)  # resume: the failed slot is tried again
    assert again.played == 1 and not again.failed
    assert outcomes(report(config, where)) == outcomes(report(config, tmp_path / "whole"))
    with GameIndex(where / "index.db") as index:
        rows = index.tournament_games(config.name)
    assert sorted(r.tournament_slot for r in rows) == list(range(8))  # each written once
    assert all(Path(r.log_path or "").is_absolute() for r in rows)


@pytest.fixture
def flaky_stub(stub_server: StubMaker) -> StubServer:
    """An endpoint that drops the connection of its calls 2 to 7 (the first is the check
    before the run): the first game's model seat gets no answer at all for a while."""
    calls = [0]

    async def drop(peer: tuple[str, int]) -> None:
        calls[0] += 1
        if 2 <= calls[0] <= 7:
            raise ConnectionResetError("dropped")

    return stub_server(on_call=drop)


def _model_config(stub: StubServer, name: str, **extra: Any) -> Any:
    return bot_config(
        "sides",
        name=name,
        games=2,
        entrants={"model": f"llm:openai:stub@{stub.url}", "bot": "heuristic"},
        variants=[{"variant": "werewolf", "preset": "werewolf-6"}],
        parallel_games=1,
        agent_options={"retries": 0},
        **extra,
    )


def test_a_game_whose_endpoint_never_answered_is_played_again(
    flaky_stub: StubServer, tmp_path: Path
) -> None:
    config = _model_config(flaky_stub, "unreached")
    summary = run(config, tmp_path / "flaky")
    assert summary.played == 2 and summary.retried == 1 and not summary.failed
    with GameIndex(tmp_path / "flaky" / "index.db") as index:
        state = tournament_progress(config, index)
    retried = [record for record in state.slots.values() if record.attempts]
    assert len(retried) == 1
    assert "a model endpoint could not be reached" in (retried[0].reason or "")
    assert not state.with_fallbacks  # the game that was thrown away is not in the record
    run(config, tmp_path / "clean")  # the endpoint answers every call now
    assert outcomes(report(config, tmp_path / "flaky")) == outcomes(
        report(config, tmp_path / "clean")
    )


@pytest.fixture
def nonsense_stub(stub_server: StubMaker) -> StubServer:
    """An endpoint that answers, but never with a legal action."""
    return stub_server(answer=lambda request: "I refuse to play.")


def test_games_with_fallbacks_are_counted_flagged_and_can_be_left_out(
    nonsense_stub: StubServer, tmp_path: Path, cli: CliRun
) -> None:
    config = _model_config(nonsense_stub, "fallbacks", retries=0)
    summary = run(config, tmp_path)
    assert summary.played == 2 and not summary.retried  # the endpoint answered: they count
    with GameIndex(tmp_path / "index.db") as index:
        state = tournament_progress(config, index)
    assert set(state.with_fallbacks) == {0, 1} and all(state.with_fallbacks.values())
    assert state.without_fallbacks().done == {}


def test_a_relative_index_and_folder_are_made_absolute(
    tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.toml").write_text(
        'name = "rel"\ngames = 2\nseed = 1\nlog_dir = "out/games"\n'
        '[entrants]\na = "random"\nb = "heuristic"\n[[variants]]\nvariant = "sports-mafia"\n'
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("tournament", "run", "t.toml", "--db", "rel.db")
    assert code == 0, err
    with GameIndex(tmp_path / "rel.db") as index:
        rows = index.tournament_games("rel")
    assert [Path(r.log_path or "").parent for r in rows] == [tmp_path / "out" / "games"] * 2
    code, out, err = cli("tournament", "status", "t.toml", "--db", "rel.db")
    assert "2/2 finished" in out and "games per node" in out


def test_a_declared_variable_missing_from_the_shell_is_one_line(
    tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUSKFALL_NO_SUCH_KEY", raising=False)
    (tmp_path / "t.toml").write_text(
        'name = "env"\ngames = 2\n[entrants]\na = "random"\nb = "heuristic"\n'
        '[[variants]]\nvariant = "sports-mafia"\n'
    )
    code, _, err = cli(
        "tournament", "run", str(tmp_path / "t.toml"), "--db", str(tmp_path / "i.db"),
        "--env", "DUSKFALL_NO_SUCH_KEY",
    )  # fmt: skip
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "DUSKFALL_NO_SUCH_KEY" in err and "not set in this shell" in err
    code, _, err = cli(
        "tournament", "run", str(tmp_path / "t.toml"), "--db", str(tmp_path / "i.db"),
        "--env", "NOT A NAME",
    )  # fmt: skip
    assert code == 2 and "name of an environment variable" in err


@pytest.mark.parametrize("workers", [1, 2])
def test_planned_looks_see_exactly_their_games_and_may_stop_the_run(
    tmp_path: Path, workers: int
) -> None:
    """A stopping rule looks at planned counts of games: starting holds at each count until
    the games in flight are in, and the rule may stop the run there."""
    config = bot_config("sides", games=20, parallel_games=4, workers=workers)
    seen: list[int] = []

    def decide(recorded: int) -> str | None:
        seen.append(recorded)
        return "every pair separated" if len(seen) == 2 else None

    summary = run(config, tmp_path, looks=Looks(at=(8, 16, 24), decide=decide))
    assert seen == [8, 16]
    assert summary.played == 16 and summary.stopped_by == "every pair separated"
    with GameIndex(tmp_path / "index.db") as index:
        assert len(tournament_progress(config, index).done) == 16


class Keyless(LoopBackend):
    """The event loop, but every game fails as on a worker without the API key."""

    def wait(self, timeout: float) -> list[tuple[int, Finished]]:
        reason = "SeatAgentError: seats 0-2 cannot play: no OpenAI API key: set OPENAI_API_KEY"
        return [
            (task_id, [SlotFailure(r.slot, reason, "node-b") for r in finished])
            if isinstance(finished, list)
            else (task_id, finished)
            for task_id, finished in super().wait(timeout)
        ]


def test_a_cause_every_game_meets_stops_the_run_and_names_the_missing_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-only-in-the-drivers-shell")
    config = bot_config("sides", games=20, execution={"attempts": 2})
    summary = run(config, tmp_path, backend_factory=lambda: Keyless(1))
    assert summary.played == 0 and len(summary.failed) == 5  # not 40 slots x 2 tries
    assert (summary.stopped_by or "").startswith("5 games in a row could not be played")
    assert "--env OPENAI_API_KEY sends it to workers" in summary.failed[0]
    assert "sk-only" not in " ".join(summary.failed)


def test_paths_a_game_reads_are_made_absolute_for_workers_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "m.gguf").write_bytes(b"")
    here = tmp_path
    assert absolute_spec("llm:local:models/m.gguf", here) == f"llm:local:{here}/models/m.gguf"
    assert absolute_spec("llm:local:missing.gguf", here) == "llm:local:missing.gguf"
    assert absolute_spec("heuristic", here) == "heuristic"
    options = absolute_options({"llm_config": "keys.toml", "concurrency": 2}, here)
    assert options == {"llm_config": str(here / "keys.toml"), "concurrency": 2}


class Batching(LoopBackend):
    """The event loop, taking bot games four to a task (as a pool or Ray would), and noting
    how many games each task holds."""

    games_per_cpu_task = 4

    def __init__(self) -> None:
        super().__init__(2)
        self.sizes: list[int] = []

    def start(self, task_id: int, jobs: Sequence[GameJob]) -> None:
        self.sizes.append(len(jobs))
        super().start(task_id, jobs)


def test_a_mix_of_bots_plays_in_batches_and_a_mix_with_a_model_one_game_a_task(
    tmp_path: Path,
) -> None:
    ladder = {"half": "mix:heuristic@0.5/random", "smart": "heuristic"}
    config = bot_config("sides", games=8, entrants=ladder)
    backend = Batching()
    assert run(config, tmp_path, backend_factory=lambda: backend).played == 16
    assert max(backend.sizes) > 1  # a mix of two bots is a bot: its games come in batches
    assert not uses_models(ladder.values())
    assert not uses_models(["town=mix:heuristic@0.7/random,mafia=random", "remote"])
    assert uses_models(["mix:llm:openai:m@http://127.0.0.1:9/v1@0.5/random"])
    assert uses_models(["town=heuristic,mafia=mix:random@0.2/cognitive:local"])
    assert uses_models(["llm:local"]) and uses_models(["random,heuristic,llm:local"])


def test_resume_from_a_copy_of_the_folder_elsewhere_points_the_index_at_the_copy(
    tmp_path: Path,
) -> None:
    """The first machine is gone; its tournament folder and index were copied to another,
    which resumes there: the missing game is played, and every row names the copy's log."""
    config = bot_config("sides", execution={"attempts": 1})
    run(config, tmp_path / "whole")
    first, elsewhere = tmp_path / "first", tmp_path / "elsewhere"
    assert run(config, first, backend_factory=lambda: Losing({5: 1})).failed
    shutil.copytree(first, elsewhere)
    shutil.rmtree(first)
    assert run(config, elsewhere).played == 1
    with GameIndex(elsewhere / "index.db") as index:
        rows = index.tournament_games(config.name)
    assert sorted(r.tournament_slot for r in rows) == list(range(8))
    assert all(Path(r.log_path or "").parent == elsewhere / "games" for r in rows)
    assert all(read_log(r.log_path or "").header.game_id == r.id for r in rows)
    assert outcomes(report(config, elsewhere)) == outcomes(report(config, tmp_path / "whole"))
