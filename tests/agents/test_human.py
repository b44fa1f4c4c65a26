"""The terminal HumanPlayer: shows the seat's view and choices, accepts names, re-asks."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import pytest

from duskfall.agents.human import HumanPlayer, make_human
from duskfall.agents.specs import AgentContext
from duskfall.core.errors import IllegalAction
from duskfall.core.variant import Decision, VariantInfo
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.rules import WerewolfState
from variants.werewolf.table import game, settle


def player(lines: str, variant: Any = VARIANT, seat: int = 5) -> tuple[HumanPlayer, io.StringIO]:
    out = io.StringIO()
    return HumanPlayer(variant, seat, stdin=io.StringIO(lines), stdout=out), out


async def ask(human: HumanPlayer, state: WerewolfState, seat: int, hint: str | None = None) -> str:
    legal = state.legal(seat)
    return await human.decide(
        "", "", decision=Decision(seat, legal.kind), observation=state.observe(seat),
        legal=legal, hint=hint, attempt=1 if hint else 0,
    )  # fmt: skip


def voting_state() -> WerewolfState:
    state = game(badge=False)
    settle(state, WOLF_CHAT="", WOLF_KILL=4, WITCH="pass", GUARD=None, SEER=0)
    settle(state, LAST_WORDS="", SPEECH="")
    return state


async def test_shows_the_view_and_choices_and_accepts_a_number() -> None:
    state = voting_state()
    human, out = player("7\n")
    assert await ask(human, state, 5) == "7"
    text = out.getvalue()
    assert "=== seat 5: your turn (VOTE) ===" in text
    assert "You are seat 5 (Finn), the Villager (alive). Day 1." in text
    assert "Choices: Whom do you vote to exile? Choose seat 0 (Ada)," in text
    assert "Last night seat 4 (Edda) died." in text


async def test_re_asks_with_the_hint_then_accepts_a_name() -> None:
    state = voting_state()
    human, out = player("banana\n\nseat 5\nhugo\n")
    assert await ask(human, state, 5) == "hugo"
    text = out.getvalue()
    assert "Not accepted: 'banana' is not a seat number or a player's name" in text
    assert "Not accepted: your reply was empty" in text
    assert "Not accepted: seat 5 is not a legal choice" in text
    assert text.count("Choices:") == 4


async def test_shows_only_its_own_history_and_only_what_is_new() -> None:
    state = game(badge=False)
    settle(state, WOLF_CHAT="kill seat 4", WOLF_KILL=4, WITCH="pass", GUARD=None, SEER=0)
    settle(state, LAST_WORDS="farewell")
    while state.pending()[0].seat != 5:
        settle_one(state, "hello")
    human, out = player("my speech\n6\n")
    await ask(human, state, 5)
    first = out.getvalue()
    assert "kill seat 4" not in first and "Werewolf card" not in first  # wolves' secrets
    assert "seat 5 (Finn) is dealt the Villager card" in first
    assert "[last words] seat 4 (Edda): farewell" in first
    state.apply(5, "my speech")
    settle(state, SPEECH="hello")
    await ask(human, state, 5)
    second = out.getvalue()[len(first) :]
    assert "dealt the Villager card" not in second and "farewell" not in second  # only news
    assert "seat 5 (Finn): my speech" in second and "seat 11 (Lars): hello" in second


def settle_one(state: WerewolfState, answer: str) -> None:
    (decision,) = state.pending()
    state.apply(decision.seat, answer)


async def test_a_retry_from_the_handler_shows_its_hint() -> None:
    state = voting_state()
    human, out = player("6\n")
    await ask(human, state, 5, hint="too slow")
    assert "Not accepted: too slow" in out.getvalue()
    assert "=== seat 5" not in out.getvalue()  # a retry does not repeat the whole view


async def test_end_of_input_fails_cleanly() -> None:
    state = voting_state()
    human, _ = player("")
    with pytest.raises(EOFError, match="end of input"):
        await ask(human, state, 5)


async def test_question_mark_shows_the_view_again() -> None:
    state = voting_state()
    human, out = player("?\nabstain\n")
    assert await ask(human, state, 5) == "abstain"
    assert out.getvalue().count("You are seat 5 (Finn)") == 2


class NumbersOnly:
    """A variant's choice that knows seat numbers only (no names)."""

    kind = "PICK"

    def parse(self, data: Any) -> int:
        if isinstance(data, str) and data.isdigit() and int(data) in (1, 2):
            return int(data)
        raise IllegalAction("choose 1 or 2", "invalid_target")

    def describe(self) -> str:
        return "Pick 1 or 2."


class BareVariant:
    """A variant with no text hooks: the human player falls back to a generic view."""

    id = "bare"
    info = VariantInfo()


async def test_works_for_any_variant_names_map_to_seats() -> None:
    human, out = player("zed\nBob\n", variant=BareVariant(), seat=0)
    obs: Mapping[str, Any] = {
        "turn": 3,
        "players": [{"seat": 1, "name": "Bob"}, {"seat": 2, "name": "Ann"}],
        "history": ["Bob was nominated"],
    }
    reply = await human.decide("", "", observation=obs, legal=NumbersOnly(), hint=None, attempt=0)
    assert reply == "1"
    text = out.getvalue()
    assert (
        "turn: 3" in text
        and "  Bob was nominated" in text
        and "Not accepted: choose 1 or 2" in text
    )


def test_the_agent_kind_builds_a_patient_human() -> None:
    human = make_human(AgentContext(VARIANT, 3, 0, "", {"human_timeout": 99}))
    assert isinstance(human, HumanPlayer) and human.decision_timeout == 99
    assert make_human(AgentContext(VARIANT, 3, 0, "")).decision_timeout >= 600
    assert human.renders_prompts is False
