"""Werewolf decisions under the scheduler: concurrency, raw strings, hints, fallbacks."""

from __future__ import annotations

import asyncio
from typing import Any

from duskfall.runtime.participant import BaseParticipant, DecisionRequest, Participant
from duskfall.runtime.record import GameRecord
from duskfall.runtime.scheduler import Scheduler
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, run_game
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf import phases as P

from .table import GUARD, SEER, game, kinds, settle


class Scripted(BaseParticipant):
    """Returns the given raw replies in turn and remembers what it was shown."""

    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        self.calls.append({"system": system_prompt, "user": user_prompt, "request": request})
        return self.replies.pop(0)


class Rendezvous(BaseParticipant):
    """Answers only once its partner has been asked too: proves both are asked at once."""

    def __init__(self, mine: asyncio.Event, other: asyncio.Event, reply: str) -> None:
        self.mine, self.other, self.reply = mine, other, reply

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> str:
        self.mine.set()
        await self.other.wait()
        return self.reply


def scheduler_for(state, participants: dict[int, Participant], timeout: float = 30.0) -> Scheduler:
    everyone: dict[int, Participant] = {s: Scripted() for s in range(state.num_seats)}
    everyone.update(participants)
    settings = RuntimeSettings(decision_timeout=timeout)
    return Scheduler(VARIANT, state, everyone, GameRecord("t"), seed=1, settings=settings)


async def test_guard_and_seer_are_asked_concurrently() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=4, WITCH="pass")
    assert kinds(state) == {SEER: "SEER", GUARD: "GUARD"}
    guard_asked, seer_asked = asyncio.Event(), asyncio.Event()
    scheduler = scheduler_for(
        state,
        {
            GUARD: Rendezvous(guard_asked, seer_asked, "4"),
            SEER: Rendezvous(seer_asked, guard_asked, '{"type": "SEER", "target": 0}'),
        },
        timeout=20.0,  # only reached if the two were asked one after the other
    )
    await scheduler.step()
    kinds_logged = [e.kind for e in scheduler.record.events]
    assert "fallback" not in kinds_logged and "decision_timeout" not in kinds_logged
    assert [e.payload["target"] for e in state.events if e.kind == "guard_action"] == [4]
    assert [e.payload["result"] for e in state.events if e.kind == "seer_action"] == ["Werewolf"]


async def test_a_bad_reply_is_re_asked_with_the_rules_hint() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=4, WITCH="pass", GUARD=None)
    seer = Scripted(
        "seat 99 please",
        '```json\n{"think": "check a", "action": {"type": "SEER", "target": 1}}\n```',
    )
    scheduler = scheduler_for(state, {SEER: seer})
    await scheduler.step()
    first, second = (call["request"].hint for call in seer.calls)
    assert first is None and "seat 99 is not a legal choice" in second
    assert "Your previous answer was refused: seat 99" in seer.calls[1]["user"]
    logged = [(e.kind, e.payload.get("seat")) for e in scheduler.record.events]
    assert ("invalid_action", SEER) in logged and ("thought", SEER) in logged
    assert state.observe(SEER)["checks"] == [{"night": 1, "target": 1, "result": "Werewolf"}]


async def test_after_the_retries_the_fallback_is_recorded_and_legal() -> None:
    state = game(badge=False)
    settle(state, WOLF_CHAT="", WOLF_KILL=None, WITCH="pass", GUARD=None, SEER=0, SPEECH="")
    voter = Scripted("banana", "banana", "banana")
    scheduler = scheduler_for(
        state, {5: voter, **{s: Scripted("abstain") for s in range(12) if s != 5}}
    )
    await scheduler.step()
    fallback = [e.payload for e in scheduler.record.events if e.kind == "fallback"]
    assert fallback == [
        {"seat": 5, "reason": fallback[0]["reason"], "action": {"type": "VOTE", "target": None}}
    ]
    assert len(voter.calls) == 3  # the first ask and two retries


async def test_speech_comes_from_the_envelopes_says_and_prompts_hold_only_the_seats_view() -> None:
    state = game()
    wolf = Scripted(
        '{"think": "go for the seer", "says": "kill seat 8", "action": {"type": "WOLF_CHAT"}}'
    )
    scheduler = scheduler_for(state, {0: wolf})
    await scheduler.step()
    assert [e.payload["text"] for e in state.events if e.kind == "speech"] == ["kill seat 8"]
    prompt = wolf.calls[0]["system"] + wolf.calls[0]["user"]
    assert "Your fellow werewolves: seat 1 (Bram), seat 2 (Cleo), seat 3 (Dax)" in prompt
    seer_lines = [line for line in wolf.calls[0]["system"].splitlines() if "Iris" in line]
    assert [line.startswith("12 players: seat 0 (Ada)") for line in seer_lines] == [True]


def test_speeches_and_last_acts_are_declared_sequential() -> None:
    sequential = VARIANT.info.sequential_kinds
    assert sequential == P.SEQUENTIAL_KINDS <= set(VARIANT.info.kit.rows)
    assert {P.SPEECH, P.WOLF_CHAT, P.LAST_WORDS, P.HUNTER_SHOT, P.BADGE_PASS} <= sequential
    assert not {P.VOTE, P.WOLF_KILL, "GUARD", "SEER", "BODYGUARD", P.BADGE_RUN} & sequential


async def test_a_whole_game_with_raw_string_participants() -> None:
    class Plain(BaseParticipant):
        """Answers like a terse person: words and numbers only."""

        async def decide(
            self, system_prompt: str, user_prompt: str, request: DecisionRequest
        ) -> str:
            legal = request.legal
            if legal.kind in P.SPEECH_KINDS:
                return "I have nothing to hide."
            if legal.kind == "WITCH":
                return "pass"
            if legal.kind in (P.BADGE_RUN, P.BADGE_WITHDRAW):
                return "no"
            return str(legal.targets[0]) if not legal.none_allowed else "abstain"

    setup = GameSetup("werewolf", seed=5, agents="heuristic", write_log=False,
                      participants={0: Plain(), 8: Plain()})  # fmt: skip
    finished = await run_game(setup)
    assert finished.state.outcome() is not None
    assert not [e for e in finished.record.events if e.kind in ("fallback", "invalid_action")]
