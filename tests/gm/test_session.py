"""Games with their log: header, pause and resume, saving and resuming from the log."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from duskfall.core.errors import ConfigError
from duskfall.core.outcome import Termination
from duskfall.gm.config import GMSettings
from duskfall.gm.session import close_log, new_game, resume_game
from duskfall.llm import Model, Request
from duskfall.store.log import chained_line, read_log

from .support import chat_lines, of_kind, scripted


def stateless_gm(request: Request) -> str:
    """A GM that decides from what it reads, so a resumed game plays like an unbroken one."""
    prompt = request.last_user
    spoken = prompt.count("🎮 ")
    if "Start the game" in prompt:
        return "Roles! [SECRET: Ann | You are the wolf.] [SECRET: Bob | You are the seer.]"
    if spoken >= 4:
        return "Bob found the wolf. GAME OVER"
    return f"Round {spoken}. [TURN: {['Ann', 'Bob', 'Cid'][spoken % 3]}]"


def factory(spec: str) -> Model:
    if spec == "gm":
        return scripted(stateless_gm)
    return scripted(lambda request: f"{spec} speaks after {request.last_user.count('🎮 ')} lines")


def settings(**extra: object) -> GMSettings:
    players = [{"name": n, "persona": f"{n} is careful", "model": n} for n in ("Ann", "Bob", "Cid")]
    values: dict[str, object] = {"card": "werewolf6", "language": "en", "gm_model": "gm"}
    return GMSettings.model_validate({**values, "players": players, **extra})


async def test_log_has_a_gm_header_and_every_event(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game, written = new_game(settings(seed=5), log_path=path, model_factory=factory)
    assert written == path
    outcome = await game.run()
    assert outcome.termination is Termination.WIN
    log = read_log(path)
    assert log.header.variant == "gm"
    assert log.header.seed == 5
    assert [s["name"] for s in log.header.roster] == ["Ann", "Bob", "Cid"]
    assert log.header.extra["card"]["id"] == "werewolf6"
    assert [e.to_dict() for e in log.events] == [e.to_dict() for e in game.record.events]
    assert log.finished and log.outcome == outcome


async def test_default_log_path_is_unique(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, first = new_game(settings(), model_factory=factory)
    _, second = new_game(settings(), model_factory=factory)
    assert first != second and first.parent == Path("games")


async def test_saved_game_resumes_from_its_log_and_plays_like_an_unbroken_one(
    tmp_path: Path,
) -> None:
    whole, _ = new_game(settings(), log_path=tmp_path / "whole.jsonl", model_factory=factory)
    await whole.run()

    path = tmp_path / "saved.jsonl"
    game, _ = new_game(settings(), log_path=path, model_factory=factory)
    for _ in range(3):
        assert await game.step()
    game.save()
    close_log(game)
    saved = read_log(path)
    assert not saved.finished and saved.events[-1].kind == "paused"

    again = resume_game(path, model_factory=factory)
    assert again.state.step == 2
    assert again.state.chat == game.state.chat
    assert again.state.secrets_of("Ann") == game.state.secrets_of("Ann")
    outcome = await again.run()
    assert outcome.termination is Termination.WIN

    log = read_log(path)
    assert [e.seq for e in log.events] == list(range(len(log.events)))
    assert chat_lines(log.events) == chat_lines(whole.record.events)
    resumed_prompts = [e.payload["messages"] for e in of_kind(log.events, "llm_call")]
    whole_prompts = [e.payload["messages"] for e in of_kind(whole.record.events, "llm_call")]
    assert resumed_prompts == whole_prompts


async def test_interrupted_game_with_a_torn_last_line_resumes(tmp_path: Path) -> None:
    path = tmp_path / "torn.jsonl"
    game, _ = new_game(settings(), log_path=path, model_factory=factory)
    await game.step()
    await game.step()
    close_log(game)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"seq": 999, "kind": "cha')  # killed mid-write
    again = resume_game(path, model_factory=factory)
    await again.run()
    log = read_log(path)  # strict: the torn line is gone
    assert log.finished


async def test_resume_can_change_models_and_limits(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, _ = new_game(settings(), log_path=path, model_factory=factory)
    await game.step()
    close_log(game)
    seen: list[str] = []

    def spy(spec: str) -> Model:
        seen.append(spec)
        return factory(spec)

    again = resume_game(path, overrides={"player_model": "Zed", "max_steps": 2}, model_factory=spy)
    assert sorted(set(seen)) == ["Zed", "gm"]
    outcome = await again.run()
    assert outcome.termination is Termination.DAY_LIMIT


async def test_finished_or_foreign_logs_cannot_be_resumed(tmp_path: Path) -> None:
    path = tmp_path / "done.jsonl"
    game, _ = new_game(settings(), log_path=path, model_factory=factory)
    await game.run()
    with pytest.raises(ConfigError, match="already over"):
        resume_game(path, model_factory=factory)
    foreign = tmp_path / "other.jsonl"
    header = json.loads(path.read_text().splitlines()[0]) | {"variant": "werewolf"}
    header.pop("h")
    foreign.write_text(chained_line("", header)[0])  # a valid log of another variant
    with pytest.raises(ConfigError, match="not a GM game"):
        resume_game(foreign, model_factory=factory)
    with pytest.raises(ConfigError, match="cannot resume"):
        resume_game(tmp_path / "missing.jsonl", model_factory=factory)


async def test_pause_stops_between_steps_and_resume_continues(tmp_path: Path) -> None:
    game, _ = new_game(settings(), log_path=tmp_path / "p.jsonl", model_factory=factory)

    class PauseAtStep:
        def on_event(self, event: object) -> None:
            if getattr(event, "kind", "") == "step" and event.payload["step"] == 2:  # type: ignore[attr-defined]
                game.pause()

        def on_phase_end(self) -> None: ...

        def on_game_end(self, outcome: object) -> None: ...

    game.record.observers.append(PauseAtStep())
    task = asyncio.create_task(game.run())
    await asyncio.wait_for(game.idle.wait(), 10)
    assert game.paused and game.state.step == 2 and not task.done()
    calls = len(of_kind(game.record.events, "llm_call"))
    game.resume()
    outcome = await asyncio.wait_for(task, 10)
    assert outcome.termination is Termination.WIN
    assert len(of_kind(game.record.events, "llm_call")) > calls


async def test_user_stop_ends_the_game_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    game, _ = new_game(settings(), log_path=path, model_factory=factory)
    await game.step()
    outcome = game.stop("stopped by the user")
    assert outcome.termination is Termination.ABORTED
    assert read_log(path).outcome == outcome
    assert not await game.step()


async def test_bad_model_spec_fails_before_the_log_is_written(tmp_path: Path) -> None:
    path = tmp_path / "never.jsonl"
    with pytest.raises(ConfigError, match="unknown model provider"):
        new_game(settings(gm_model="bogus:x"), log_path=path)
    assert not path.exists()
