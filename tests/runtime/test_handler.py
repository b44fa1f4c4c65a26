"""The ask/validate/retry/fallback handler and the scheduler, with scripted participants."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from duskfall.core.bot import Bot
from duskfall.core.llm_form import llm_schema
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config
from duskfall.runtime.failures import FailureStreaks
from duskfall.runtime.handler import AskHandler, HandlerResult, PhaseContext, ask, ask_seat
from duskfall.runtime.participant import BaseParticipant, BotParticipant, DecisionRequest
from duskfall.runtime.record import GameRecord
from duskfall.runtime.scheduler import Scheduler
from duskfall.runtime.settings import RuntimeSettings

VARIANT = get_variant("sports-mafia")


class Scripted(BaseParticipant):
    """Answers from a list; records the prompts and requests it was given."""

    def __init__(self, replies: list[Any]) -> None:
        self.replies = list(replies)
        self.calls: list[tuple[str, str, DecisionRequest]] = []

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        self.calls.append((system_prompt, user_prompt, request))
        reply = self.replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        if callable(reply):
            return await reply()
        return reply


def context(settings: RuntimeSettings | None = None) -> PhaseContext:
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=3)
    return PhaseContext(
        VARIANT,
        state,
        "g",
        state.pending(),
        derive_rng(3, "fallback"),
        settings or RuntimeSettings(),
    )


DECLARE = '{"think": "t", "action": {"type": "DECLARATION", "declaration": [0,0,0,0,0,0,0,0,0,0]}}'


async def test_valid_answer_is_parsed_and_thought_recorded() -> None:
    ctx = context()
    log: list[Any] = []
    player = Scripted([DECLARE])
    action = await ask(ctx, 0, player, log)
    assert action.declaration == (0,) * 10
    assert [e.kind for e in log] == ["thought"]
    system, user, request = player.calls[0]
    assert "Sports mafia" in system and "DECLARATION" in user
    assert request.attempt == 0 and request.hint is None
    schema = request.schema  # the LLM form of the decision, not the wire form
    assert schema["properties"]["type"] == {"const": "DECLARATION"}
    assert schema == llm_schema(ctx.state.legal(0)) and "beliefs" in schema["properties"]


async def test_invalid_answer_is_retried_with_the_hint() -> None:
    ctx = context()
    log: list[Any] = []
    player = Scripted(['{"action": {"type": "VOTE", "target": 1}}', "garbage", DECLARE])
    await ask(ctx, 0, player, log)
    hints = [c[2].hint for c in player.calls]
    assert hints[0] is None and "DECLARATION" in hints[1] and hints[2]
    assert "refused" in player.calls[1][1]  # the hint reaches the prompt too
    assert [e.kind for e in log] == ["invalid_action", "invalid_action", "thought"]
    assert all(e.visibility == "admin" for e in log)


async def test_fallback_after_retries_is_recorded() -> None:
    ctx = context(RuntimeSettings(retries=1))
    log: list[Any] = []
    action = await ask(ctx, 0, Scripted(["nope", "still nope"]), log)
    assert action.declaration == (0,) * 10 and action.nomination_policy == ()
    assert [e.kind for e in log] == ["invalid_action", "invalid_action", "fallback"]
    assert log[-1].payload["action"]["type"] == "DECLARATION"


async def test_timeout_and_errors_fall_back_without_hanging() -> None:
    ctx = context(RuntimeSettings(retries=2, decision_timeout=0.05))
    never = asyncio.Event()

    async def hang() -> str:
        await never.wait()
        return DECLARE

    log: list[Any] = []
    await ask(ctx, 0, Scripted([hang]), log)
    assert [e.kind for e in log] == ["decision_timeout", "fallback"]
    log = []
    await ask(ctx, 0, Scripted([RuntimeError("boom"), ValueError("bad"), KeyError("x")]), log)
    assert [e.kind for e in log] == ["participant_error"] * 3 + ["fallback"]


class CountingBot(Bot):
    def act(self, observation: Any, legal: Any) -> Any:
        return legal.default(self.rng)


async def test_bots_never_pay_for_prompts(monkeypatch: Any) -> None:
    calls = []
    monkeypatch.setattr(VARIANT, "render_prompts", lambda *a: calls.append(a) or ("", ""))
    ctx = context()
    await ask(ctx, 0, CountingBot(0, derive_rng(0, "b")), [])
    assert calls == []


async def test_simultaneous_decisions_are_asked_concurrently() -> None:
    """All living voters must be waiting at once; a sequential handler would time out."""
    state = voting_state(4)
    voters = [d.seat for d in state.pending()]
    everyone_waiting = asyncio.Event()
    waiting = 0

    def voter(seat: int) -> Callable[[], Any]:
        async def answer() -> str:
            nonlocal waiting
            waiting += 1
            if waiting == len(voters):
                everyone_waiting.set()
            await asyncio.wait_for(everyone_waiting.wait(), 5)
            return str((seat + 1) % 10)

        return answer

    ctx = PhaseContext(VARIANT, state, "g", state.pending(), derive_rng(0, "f"))
    result = await AskHandler()(ctx, [(s, Scripted([voter(s)])) for s in voters])
    assert sorted(result.actions) == voters and result.subphase_log == []


def voting_state(seed: int = 4) -> Any:
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=seed)
    while state.phase == "DECLARATION":
        seat = state.pending()[0].seat
        state.apply(seat, {"type": "DECLARATION", "declaration": [0] * 10})
    return state


async def test_a_bot_participant_plays_its_bot_without_prompts(monkeypatch: Any) -> None:
    calls = []
    monkeypatch.setattr(VARIANT, "render_prompts", lambda *a: calls.append(a) or ("", ""))
    bot = BotParticipant(CountingBot(0, derive_rng(0, "b")))
    assert bot.renders_prompts is False and bot.describe() == "bot"
    action = await ask(context(), 0, bot, [])
    assert action.declaration == (0,) * 10 and calls == []


async def test_scheduler_plays_to_the_end_and_can_pause() -> None:
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=9)
    bots = {s: CountingBot(s, derive_rng(9, f"b{s}")) for s in range(10)}
    record = GameRecord("g")
    scheduler = Scheduler(VARIANT, state, bots, record, seed=9)
    scheduler.pause()
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0)
    assert scheduler.paused and state.outcome() is None and not task.done()
    scheduler.resume()
    outcome = await asyncio.wait_for(task, 30)
    assert outcome == state.outcome()
    kinds = [e.kind for e in record.events]
    assert kinds[-1] == "game_over" and "action" in kinds
    assert [e.seq for e in record.events] == list(range(len(record.events)))


class Flaky(Bot):
    """A core bot: fails once, then answers the default (no decide, no prompts)."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat, derive_rng(0, "flaky"))
        self.calls = 0

    def act(self, observation: Any, legal: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("first call fails")
        return legal.default(self.rng)


async def test_core_bots_are_called_directly_through_act() -> None:
    ctx = context()
    log: list[Any] = []
    bot = Flaky(0)
    answer = await ask_seat(ctx, 0, bot, log)
    assert not answer.fallback and answer.action.declaration == (0,) * 10
    assert [e.kind for e in log] == ["participant_error"] and bot.calls == 2


async def test_the_handler_returns_the_seats_that_fell_back() -> None:
    state = voting_state()
    voters = [d.seat for d in state.pending()]
    ctx = PhaseContext(VARIANT, state, "g", state.pending(), derive_rng(0, "f"))
    answers = {s: ["nope"] * 3 if s == voters[0] else [str((s + 1) % 10)] for s in voters}
    players = [(s, Scripted(answers[s])) for s in voters]
    result = await AskHandler()(ctx, players)
    assert result.fallbacks == {voters[0]}
    assert [e.payload["seat"] for e in result.subphase_log if e.kind == "fallback"] == [voters[0]]


@pytest.mark.parametrize("sequential", [False, True])
async def test_sequential_kinds_are_asked_one_seat_at_a_time(
    monkeypatch: Any, sequential: bool
) -> None:
    state = voting_state()
    pending = state.pending()
    if sequential:
        info = dataclasses.replace(VARIANT.info, sequential_kinds=frozenset({pending[0].kind}))
        monkeypatch.setattr(VARIANT, "info", info)
    asked = 0
    most = 0

    def voter(seat: int) -> Callable[[], Any]:
        async def answer() -> str:
            nonlocal asked, most
            asked += 1
            most = max(most, asked)
            await asyncio.sleep(0.01)
            asked -= 1
            return str((seat + 1) % 10)

        return answer

    ctx = PhaseContext(VARIANT, state, "g", pending, derive_rng(0, "f"))
    result = await AskHandler()(ctx, [(d.seat, Scripted([voter(d.seat)])) for d in pending])
    assert sorted(result.actions) == [d.seat for d in pending] and not result.fallbacks
    assert most == (1 if sequential else len(pending))


class Erratic(Bot):
    """A core bot that fails, answers junk, then plays at random: every record of the ask."""

    def act(self, observation: Any, legal: Any) -> Any:
        roll = self.rng.random()
        if roll < 0.2:
            raise RuntimeError("erratic")
        if roll < 0.4:
            return "not an action"
        return legal.sample(self.rng)


async def played(players: Callable[[int], Any], keep_events: bool = True) -> list[Any]:
    """The events of one game whose seats are ``players(seat)``, through the scheduler."""
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=5)
    record = GameRecord("g", keep_events=keep_events)
    seen: list[Any] = []
    record.observers.append(_Collect(seen))
    await Scheduler(VARIANT, state, {s: players(s) for s in range(10)}, record, seed=5).run()
    assert record.events == (seen if keep_events else [])
    return [e.to_dict() for e in seen]


class _Collect:
    def __init__(self, into: list[Any]) -> None:
        self.into = into

    def on_event(self, event: Any) -> None:
        self.into.append(event)

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Any) -> None:
        pass


async def test_bots_settled_without_coroutines_record_what_participants_would() -> None:
    def bot(seat: int) -> Erratic:
        return Erratic(seat, derive_rng(5, f"erratic:{seat}"))

    direct = await played(bot)  # the scheduler's fast path: every seat a core bot
    wrapped = await played(lambda seat: BotParticipant(bot(seat)))  # the general path
    assert direct == wrapped
    kinds = {e["kind"] for e in direct}
    assert {"participant_error", "invalid_action", "action"} <= kinds


async def test_a_record_that_keeps_no_events_still_numbers_them() -> None:
    def bot(seat: int) -> CountingBot:
        return CountingBot(seat, derive_rng(5, f"b{seat}"))

    kept = await played(bot)
    dropped = await played(bot, keep_events=False)
    assert dropped == kept and [e["seq"] for e in dropped] == list(range(len(dropped)))


class Broken(BaseParticipant):
    """A participant whose every call raises (a model that cannot be reached)."""

    def __init__(self) -> None:
        self.calls = 0

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        self.calls += 1
        raise ConnectionError("no route to the model")

    def describe(self) -> str:
        return "llm:broken"


@pytest.mark.parametrize("policy", ["abort", "fallback"])
async def test_a_seat_failing_three_decisions_in_a_row_stops_the_game(policy: str) -> None:
    state = VARIANT.new_game(parse_config(VARIANT, {}), seed=9)
    players: dict[int, Any] = {s: CountingBot(s, derive_rng(9, f"b{s}")) for s in range(10)}
    players[4] = broken = Broken()
    record = GameRecord("g")
    settings = RuntimeSettings(retries=1, on_seat_failure=policy)  # type: ignore[arg-type]
    outcome = await Scheduler(VARIANT, state, players, record, seed=9, settings=settings).run()
    if policy == "fallback":
        assert outcome == state.outcome() and outcome.termination != "aborted"
        return
    assert outcome.termination == "aborted" and broken.calls == 3 * 2  # 3 decisions, 2 tries
    assert outcome.reason == (
        "seat 4 (llm:broken) failed 3 decisions in a row (last: participant error: "
        "ConnectionError: no route to the model)"
    )
    assert record.events[-1].kind == "game_over" and record.events[-1].visibility == "admin"


async def test_an_answer_even_a_refused_one_ends_a_failing_streak() -> None:
    ctx = context(RuntimeSettings(retries=1))
    log: list[Any] = []
    failed = await ask_seat(ctx, 0, Scripted([OSError("down"), OSError("down")]), log)
    assert failed.fallback and failed.error == "participant error: OSError: down"
    refused = await ask_seat(ctx, 0, Scripted([OSError("down"), "nonsense"]), log)
    assert refused.fallback and refused.error is None
    streaks = FailureStreaks(2, describe=lambda seat: "x")
    fell = HandlerResult({0: None}, failures={0: "down"})
    assert streaks.note([fell]) is None
    assert streaks.note([HandlerResult({0: None})]) is None  # answered: the streak ends
    assert streaks.note([fell]) is None
    assert streaks.note([fell]) == "seat 0 (x) failed 2 decisions in a row (last: down)"


@pytest.mark.parametrize("bot_type", [CountingBot, Erratic])
async def test_a_game_nobody_hears_plays_the_same_and_counts_every_event(
    bot_type: type[Bot],
) -> None:
    """No observer and no kept events: the runtime builds no records of the actions, yet the
    game is the same one and every event is counted (``seq`` stays right for anyone who
    starts listening)."""

    async def play(record: GameRecord) -> tuple[Any, ...]:
        state = VARIANT.new_game(parse_config(VARIANT, {}), seed=5)
        bots = {s: bot_type(s, derive_rng(5, f"b{s}")) for s in range(10)}
        outcome = await Scheduler(VARIANT, state, bots, record, seed=5).run()
        views = [state.observe(seat) for seat in range(10)]
        return outcome, state.day, views, record.recorded

    heard = GameRecord("g")
    unheard = GameRecord("g", keep_events=False)
    assert not unheard.heard and heard.heard
    assert await play(unheard) == await play(heard)
    assert unheard.events == [] and unheard.recorded == len(heard.events)


class Composer(Scripted):
    """A seat that composes its own prompts from the kit (as the ``llm`` agent does)."""

    composes_prompts = True


@pytest.mark.parametrize("composes", [False, True])
async def test_a_seat_composing_its_prompts_gets_the_entries_and_no_rendered_prompt(
    composes: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each decision's prompt is composed once: by the seat where it composes its own from the
    variant's prompt kit (the handler renders none), else by the handler."""
    from duskfall.runtime import handler
    from duskfall.runtime.seen import SeenEvents

    werewolf = get_variant("werewolf")
    state = werewolf.new_game(parse_config(werewolf, {}), seed=3)
    rendered: list[int] = []
    real = handler.stateless_prompts
    monkeypatch.setattr(
        handler, "stateless_prompts", lambda *a, **k: rendered.append(1) or real(*a, **k)
    )
    events = list(state.opening_events())
    ctx = PhaseContext(
        werewolf, state, "g", state.pending(), derive_rng(3, "f"), RuntimeSettings(retries=0)
    )
    ctx.seen = SeenEvents(lambda: events, state.channels)
    seat = state.pending()[0].seat
    player = (Composer if composes else Scripted)(["junk"])
    await ask_seat(ctx, seat, player, [])
    system, user, request = player.calls[0]
    assert request.prompt_kit is not None and request.entries is not None
    assert (system == user == "") is composes
    assert rendered == ([] if composes else [1])
