"""Redaction at record entry: only the fields an event's kind declares untrusted text reach the
matcher (counted, not timed); an undeclared kind has every field searched; secrets in disguise
and split over a seat's answers are masked before the rules see them."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from duskfall.core import event_kinds as kinds
from duskfall.core.events import ADMIN, Event
from duskfall.core.redaction import MASK, forget_secrets, matched_texts, register_secret
from duskfall.runtime.participant import BaseParticipant, DecisionRequest
from duskfall.runtime.record import GameRecord
from duskfall.session import GameSetup, prepare_game
from duskfall.testing.disguises import disguised, halves

KEY = "sk-test-RECORDED-90a7c3"


@pytest.fixture(autouse=True)
def key() -> Iterator[None]:
    forget_secrets()
    register_secret(KEY)
    yield
    forget_secrets()


def _matched(record: GameRecord, event: Event) -> int:
    before = matched_texts()
    record.add(event)
    return matched_texts() - before


def test_events_without_untrusted_text_never_reach_the_matcher() -> None:
    record = GameRecord("g")
    action = {"seat": 2, "action": {"type": "VOTE", "target": 3}, "by": "bot"}
    assert _matched(record, Event(kinds.ACTION, action, ADMIN, source="runtime")) == 0
    timeout = {"seat": 2, "timeout": 5.0}
    assert _matched(record, Event(kinds.DECISION_TIMEOUT, timeout, ADMIN, source="runtime")) == 0
    rules = Event("speech", {"seat": 1, "text": "hello"})  # built from redacted actions
    assert _matched(record, rules) == 0
    refusal = {"seat": 2, "raw": f"x {KEY}", "error": "", "code": "bad_format"}
    refused = Event(kinds.INVALID_ACTION, refusal, ADMIN, source="runtime")
    assert _matched(record, refused) == 1  # its one non-empty text field
    assert refused.payload["raw"] == f"x {MASK}"
    # a thought and a model's reply are redacted once, where they are received (the handler,
    # the model): the record takes them as they are
    thought = Event(kinds.THOUGHT, {"seat": 2, "text": "x"}, ADMIN, source="runtime")
    assert _matched(record, thought) == 0
    call = {"seat": 2, "model": "scripted", "messages": [], "reply": "{}", "retry_reasons": []}
    assert _matched(record, Event(kinds.LLM_CALL, call, ADMIN, source="llm")) == 0
    unknown = Event("chat", {"who": "gm", "said": "hi", "n": 3}, source="gm")
    assert _matched(record, unknown) == 5  # undeclared: every string, the keys too
    empty = Event(kinds.GAME_OVER, {"winner": "town", "reason": ""}, source="runtime")
    assert _matched(record, empty) == 0


def test_a_bot_game_pays_one_text_for_its_whole_record(tmp_path: Path) -> None:
    """A logged sports-mafia game of bots: dozens of recorded actions, one text matched (the
    game's end reason)."""
    game = prepare_game(
        GameSetup("sports-mafia", seed=3, agents="random", log_path=tmp_path / "g.jsonl")
    )
    before = matched_texts()
    asyncio.run(game.run())
    recorded = [e for e in game.record.events if e.source != "rules"]
    assert len(recorded) > 30
    assert matched_texts() - before <= 1


class Speaker(BaseParticipant):
    """Says the next of ``words`` (shared by every seat it plays) in each werewolf speech, and
    as its reasoning (its other answers give none)."""

    def __init__(self, words: Iterator[str]) -> None:
        self.words = words
        self.said: list[str] = []

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        action = request.legal.sample(random.Random(len(self.said))).to_dict()
        if "says" not in action:
            return json.dumps({"action": action})
        action["says"] = next(self.words)
        self.said.append(action["says"])
        return json.dumps({"reasoning": action["says"], "action": action})


def _played(tmp_path: Path, name: str, speakers: dict[int, Speaker]) -> str:
    """A werewolf-6 game with ``speakers`` at their seats: its log, as a reader sees it."""
    log = tmp_path / f"{name}.jsonl"
    setup = GameSetup(
        "werewolf", seed=1, config={"preset": "werewolf-6"}, participants=speakers, log_path=log
    )
    asyncio.run(prepare_game(setup).run())
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return json.dumps(lines, ensure_ascii=False)


def test_disguised_keys_are_masked_before_the_rules_see_them(tmp_path: Path) -> None:
    forms = list(disguised(KEY).values())
    speaker = Speaker(itertools.cycle(f"my key: {form}" for form in forms))
    text = _played(tmp_path, "forms", dict.fromkeys(range(6), speaker))
    assert len(speaker.said) > 6 and "my key: ***" in text
    for form in [KEY, *forms]:
        assert form not in text, form


def test_a_key_split_over_a_seats_two_answers_is_masked(tmp_path: Path) -> None:
    first, second = halves(KEY)
    speakers = {
        s: Speaker(itertools.cycle([f"so {first}", f"{second} is the rest"])) for s in range(6)
    }
    text = _played(tmp_path, "split", speakers)
    assert any(len(speaker.said) > 1 for speaker in speakers.values())
    assert f"{second} is the rest" not in text and f"{MASK} is the rest" in text
