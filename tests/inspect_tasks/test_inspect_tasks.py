"""duskfall's inspect_ai tasks, run with inspect's mock model provider: found by their registry
name through the entry point, one game per sample, the seat's prompts and replies in the
transcript, scored, the duskfall log and index written, the log read by inspect's own reader."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from duskfall.core import event_kinds as kinds
from duskfall.llm.schema import example
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.testing.require import require


def schema_answers(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:
    """The mock model's reply: a valid instance of the request's schema (with usage)."""
    from inspect_ai.model import ModelOutput, ModelUsage

    schema = config.response_schema.json_schema.model_dump(exclude_none=True)
    seed = json.dumps([m.text for m in input])
    output = ModelOutput.from_content("mockllm", json.dumps(example(schema, random.Random(seed))))
    output.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)
    return output


@pytest.mark.slow
def test_a_two_game_werewolf_6_task_with_the_mock_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require("inspect_ai")
    monkeypatch.setenv("DUSKFALL_DB", os.environ["DUSKFALL_DB"])  # the task's db= sets it
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log
    from inspect_ai.model import get_model

    db = tmp_path / "index.db"
    args = {"games": 2, "preset": "werewolf-6", "seed": 7, "log_dir": str(tmp_path / "games"),
            "db": str(db), "opponents": "heuristic"}  # fmt: skip
    model = get_model("mockllm/model", custom_outputs=schema_answers, memoize=False)
    [result] = inspect_eval(
        "duskfall/werewolf", model=model, task_args=args, log_dir=str(tmp_path / "logs"),
        display="none",
    )  # fmt: skip
    assert result.status == "success", result.error
    log = read_eval_log(result.location, resolve_attachments=True)  # inspect's own reader
    assert log.eval.task.endswith("werewolf") and log.samples is not None
    assert len(log.samples) == 2
    with GameIndex(db) as index:
        rows = index.list_games(limit=-1)
    assert len(rows) == 2 and all(r.status == "finished" for r in rows)
    for sample in log.samples:
        result_of_game = sample.store["duskfall"]
        game = read_log(result_of_game["log_path"])
        seat = (int(sample.id) - 1) % 6  # seats=rotate
        assert result_of_game["model_seats"] == [seat]
        assert game.header.roster[seat]["agent"] == "llm:inspect"
        assert game.header.extra["inspect"]["sample"] == sample.id
        calls = [e for e in game.events if e.kind == kinds.LLM_CALL]
        assert calls and all(c.payload["seat"] == seat and "error" not in c.payload for c in calls)
        fallbacks = [e for e in game.events if e.kind == kinds.FALLBACK]
        assert not [e for e in fallbacks if e.payload["seat"] == seat]
        # the transcript holds each of the seat's model calls, its prompts and replies
        model_events = [e for e in sample.events if e.event == "model"]
        assert len(model_events) == len(calls)
        prompts = [e.input[-1].text for e in model_events]
        assert prompts == [c.payload["messages"][-1]["content"] for c in calls]
        assert [e.output.completion for e in model_events] == [c.payload["reply"] for c in calls]
        # the sample's messages are the seat's conversation, ending with its last reply
        assert sample.messages[0].role == "system" and sample.messages[-1].role == "assistant"
        assert f"seat {seat}" in sample.messages[0].text
        scores = sample.scores or {}
        assert scores["win"].value in (0.0, 1.0)
        behaviour = scores["behaviour"].value
        assert isinstance(behaviour, dict) and behaviour["legal_first_try"] == 1.0
        assert behaviour["llm_calls"] == len(calls)
        assert scores["calibration"].metadata["beliefs"] > 0  # asked daily by default
        assert 0.0 <= float(scores["calibration"].value) <= 1.0
    metrics = {m.name for s in log.results.scores for m in s.metrics.values()}
    assert {"mean", "stderr"} <= metrics


@pytest.mark.slow
def test_the_same_seed_plays_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require("inspect_ai")
    monkeypatch.setenv("DUSKFALL_DB", os.environ["DUSKFALL_DB"])  # the task's db= sets it
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    ids = []
    for run in ("a", "b"):
        args = {"games": 1, "preset": "werewolf-6", "seed": 3, "seats": "werewolf",
                "log_dir": str(tmp_path / run), "db": str(tmp_path / f"{run}.db")}  # fmt: skip
        model = get_model("mockllm/model", custom_outputs=schema_answers, memoize=False)
        [result] = inspect_eval("duskfall/werewolf", model=model, task_args=args,
                                log_dir=str(tmp_path / "logs"), display="none")  # fmt: skip
        [sample] = result.samples or []
        game = read_log(sample.store["duskfall"]["log_path"])
        ids.append([(e.kind, e.payload) for e in game.events if e.source == "rules"])
        assert sample.store["duskfall"]["sides"] == ["evil", "evil"]
    assert ids[0] == ids[1]


def test_a_bad_option_is_one_clear_error() -> None:
    require("inspect_ai")
    from duskfall.core.errors import ConfigError
    from duskfall.inspect.tasks import werewolf

    with pytest.raises(ConfigError, match="games must be at least 1"):
        werewolf(games=0)
    with pytest.raises(ConfigError, match="options must be a mapping"):
        werewolf(options="[1, 2]")


@pytest.mark.subprocess
def test_inspect_eval_on_the_command_line_plays_real_games_offline(tmp_path: Path) -> None:
    """``inspect eval duskfall/werewolf --model duskfall/scripted`` as a user types it (the
    README's example): no network, no download; the games finish, the model's seat answers
    every decision itself, and the scores are the games'."""
    require("inspect_ai")
    from inspect_ai.log import list_eval_logs, read_eval_log

    inspect = Path(sys.executable).with_name("inspect")
    command = [str(inspect), "eval", "duskfall/werewolf", "--model", "duskfall/scripted",
               "-T", "games=2", "-T", "preset=werewolf-6", "-T", f"db={tmp_path / 'i.db'}",
               "-T", f"log_dir={tmp_path / 'games'}", "--log-dir", str(tmp_path / "logs"),
               "--display", "plain"]  # fmt: skip
    print("running:", " ".join(command))
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.status == "success" and log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        result = sample.store["duskfall"]
        assert result["termination"] in ("win", "day_limit") and result["winner"]
        assert result["calls"]["calls"] > 0 and result["calls"]["failed_calls"] == 0
        game = read_log(result["log_path"])
        assert game.finished and game.outcome is not None
        seat = result["model_seats"][0]
        fallbacks = [e for e in game.events if e.kind == kinds.FALLBACK]
        assert not [e for e in fallbacks if e.payload["seat"] == seat]
        scores = sample.scores or {}
        assert scores["win"].value == float(result["won"][0])
        behaviour: Any = scores["behaviour"].value
        assert behaviour["fallbacks"] == 0 and behaviour["llm_calls"] > 0
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 2


def failing_eval(tmp_path: Path, outputs: Any) -> Any:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    args = {"games": 1, "preset": "werewolf-6", "seed": 7, "log_dir": str(tmp_path / "games"),
            "db": str(tmp_path / "i.db")}  # fmt: skip
    model = get_model("mockllm/model", custom_outputs=outputs, memoize=False)
    [result] = inspect_eval("duskfall/werewolf", model=model, task_args=args,
                            log_dir=str(tmp_path / "logs"), display="none")  # fmt: skip
    return result


@pytest.mark.slow
def test_a_game_the_model_did_not_play_fails_its_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No vacuous score: when every call fails, the game is aborted, and the sample and the
    task fail with the reason, given no score."""
    require("inspect_ai")
    monkeypatch.setenv("DUSKFALL_DB", os.environ["DUSKFALL_DB"])  # the task's db= sets it

    def outputs(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:
        raise RuntimeError("the provider is down")

    result = failing_eval(tmp_path, outputs)
    assert result.status == "error"
    assert result.error is not None and "GameNotPlayed" in result.error.message
    assert "was aborted" in result.error.message and "the provider is down" in result.error.message


@pytest.mark.slow
def test_a_model_that_never_answers_in_json_is_scored_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """inspect's mock model's default reply (no JSON): the game is played with the rules'
    defaults for the seat, and its scores say so (not a perfect legal-answer rate)."""
    require("inspect_ai")
    monkeypatch.setenv("DUSKFALL_DB", os.environ["DUSKFALL_DB"])  # the task's db= sets it
    from inspect_ai.model import ModelOutput, ModelUsage

    def outputs(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:
        output = ModelOutput.from_content("mockllm", "Default output from mockllm/model")
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    result = failing_eval(tmp_path, outputs)
    assert result.status == "success"
    [sample] = result.samples
    behaviour: Any = sample.scores["behaviour"].value
    assert behaviour["fallbacks"] >= 3 and behaviour["legal_first_try"] <= 0.5
