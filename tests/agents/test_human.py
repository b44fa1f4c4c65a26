"""The terminal HumanPlayer: the seat's news under headers, its standing, the question with
labelled options and a short prompt (never JSON); names for seats; re-asks; the end."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import pytest

from duskfall.agents.human import HumanPlayer, make_human
from duskfall.agents.kinds import AgentContext
from duskfall.core.errors import IllegalAction
from duskfall.core.events import Event, visible_to
from duskfall.core.prompting import flatten
from duskfall.core.variant import Decision, VariantInfo
from duskfall.runtime.checking import CheckedAnswer, check_answer
from duskfall.runtime.participant import DecisionRequest
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.actions import Pick, Say
from duskfall.variants.werewolf.rules import WerewolfState
from variants.werewolf.table import game, settle


class Table:
    """A scripted Werewolf game and every event of it so far."""

    def __init__(self) -> None:
        self.state = game(badge=False)
        self.events: list[Event] = list(self.state.opening_events())

    def settle(self, **answers: Any) -> None:
        self.events += settle(self.state, **answers)

    def apply(self, seat: int, answer: Any) -> None:
        self.events += self.state.apply(seat, answer)

    def entries(self, seat: int) -> list[Mapping[str, Any]]:
        channels = self.state.channels(seat)
        return [flatten(e) for e in self.events if visible_to(e, seat, channels)]


def voting_table() -> Table:
    table = Table()
    table.settle(WOLF_CHAT="kill seat 4", WOLF_KILL=4, WITCH="pass", GUARD=None, SEER=0)
    table.settle(LAST_WORDS="farewell", SPEECH="hello")
    return table


def player(lines: str, variant: Any = VARIANT, seat: int = 5) -> tuple[HumanPlayer, io.StringIO]:
    out = io.StringIO()
    human = HumanPlayer(variant, seat, stdin=io.StringIO(lines), stdout=out, width=100)
    return human, out


async def ask(human: HumanPlayer, table: Table, seat: int, hint: str | None = None) -> Any:
    state: WerewolfState = table.state
    legal = state.legal(seat)
    request = DecisionRequest(
        decision=Decision(seat, legal.kind), observation=state.observe(seat), legal=legal,
        hint=hint, attempt=1 if hint else 0, entries=table.entries(seat),
        prompt_kit=VARIANT.info.prompt_kit,
    )  # fmt: skip
    return await human.decide("", "", request)


def action_of(answer: Any) -> Any:
    assert isinstance(answer, CheckedAnswer)
    return answer.reply.action if answer.reply else None


async def test_shows_news_standing_and_the_question_and_accepts_a_number() -> None:
    table = voting_table()
    human, out = player("7\n")
    answer = await ask(human, table, 5)
    assert action_of(answer) == Pick("VOTE", 7)
    assert check_answer(answer, table.state.legal(5)).action == Pick("VOTE", 7)
    text = out.getvalue()
    assert "seat 5: your turn (VOTE)" in text
    for header in ("\nSetup\n", "\nDay 1\n", "\nNow\n"):  # night 1: nothing seen
        assert header in text
    assert " - seat 5 (Finn) (you) is dealt the Villager card" in text
    assert "You are seat 5 (Finn), the Villager." in text
    assert "Whom do you vote to exile?" in text and "- seat 7 (Hugo)" in text
    assert text.endswith("Seat number or name, or 'abstain' > ")
    assert "{" not in text and "Fields" not in text  # no JSON, no raw observation


async def test_re_asks_with_a_one_line_reason_then_accepts_a_name() -> None:
    table = voting_table()
    human, out = player("banana\n\nseat 5\nhugo\n")
    assert action_of(await ask(human, table, 5)) == Pick("VOTE", 7)
    text = out.getvalue()
    assert "Not accepted: 'banana' is not a seat number or a player's name\n" in text
    assert "Not accepted: an answer is needed (? shows your view again)\n" in text
    assert "Not accepted: seat 5 is not a legal choice" in text
    assert text.count("Seat number or name, or 'abstain' > ") == 4


async def test_shows_only_its_own_history_and_only_what_is_new() -> None:
    table = Table()
    table.settle(WOLF_CHAT="kill seat 4", WOLF_KILL=4, WITCH="pass", GUARD=None, SEER=0)
    table.settle(LAST_WORDS="farewell")
    while table.state.pending()[0].seat != 5:
        table.apply(table.state.pending()[0].seat, "hello")
    human, out = player("my speech\n6\n")
    await ask(human, table, 5)
    first = out.getvalue()
    assert "kill seat 4" not in first and "Werewolf card" not in first  # wolves' secrets
    assert "seat 5 (Finn) (you) is dealt the Villager card" in first
    assert 'seat 4 (Edda) says: "farewell"' in first
    assert "What you say (at most" in first
    table.apply(5, "my speech")
    table.settle(SPEECH="hello")
    await ask(human, table, 5)
    second = out.getvalue()[len(first) :]
    assert "\nDay 1 (continued)\n" in second
    assert "dealt the Villager card" not in second and "farewell" not in second  # only news
    assert 'seat 5 (Finn) (you) says: "my speech"' in second
    assert 'seat 11 (Lars) says: "hello"' in second


async def test_a_speech_is_taken_as_typed_braces_and_all() -> None:
    table = Table()
    table.settle(WOLF_CHAT="", WOLF_KILL=4, WITCH="pass", GUARD=None, SEER=0)
    table.settle(LAST_WORDS="")
    while table.state.pending()[0].seat != 5:
        table.apply(table.state.pending()[0].seat, "hello")
    human, _ = player("I think {seat 2} lies\n")
    assert action_of(await ask(human, table, 5)) == Say("SPEECH", "I think {seat 2} lies")


async def test_a_retry_from_the_handler_shows_its_hint_without_the_whole_view() -> None:
    table = voting_table()
    human, out = player("6\n")
    await ask(human, table, 5, hint="too slow")
    assert "Not accepted: too slow" in out.getvalue()
    assert "your turn" not in out.getvalue()


async def test_end_of_input_fails_cleanly_and_asks_nothing_more() -> None:
    table = voting_table()
    human, out = player("")
    with pytest.raises(EOFError, match="end of input"):
        await ask(human, table, 5)
    asked = out.getvalue().count(" > ")
    with pytest.raises(EOFError):
        await ask(human, table, 5, hint="no answer")
    assert out.getvalue().count(" > ") == asked


async def test_question_mark_shows_the_standing_and_question_again() -> None:
    table = voting_table()
    human, out = player("?\nabstain\n")
    assert action_of(await ask(human, table, 5)) == Pick("VOTE", None)
    assert out.getvalue().count("You are seat 5 (Finn)") == 2


async def test_the_standing_is_shown_again_only_when_it_changed() -> None:
    table = voting_table()
    human, out = player("7\n6\n")
    await ask(human, table, 5)
    await ask(human, table, 5)  # the same decision again: nothing changed
    assert out.getvalue().count("\nNow\n") == 1


async def test_the_end_shows_what_happened_since_the_last_decision() -> None:
    table = voting_table()
    human, out = player("7\n")
    watcher = human.watch_game("g", None)
    for event in table.events:
        watcher.on_event(event)
    await ask(human, table, 5)
    before = len(table.events)
    table.settle(VOTE={7: 6, "*": 7})
    for event in table.events[before:]:
        if visible_to(event, 5, table.state.channels(5)):
            watcher.on_event(event)
    shown = out.getvalue()
    watcher.on_final_view(table.state.observe(5))
    end = out.getvalue()[len(shown) :]
    assert "seat 5: the end" in end
    assert "[exile vote] seat 5 (Finn) (you) votes for seat 7 (Hugo)" in end
    assert "Werewolf card" not in end and "farewell" not in end


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
    """A variant with no prompt kit and no terminal form: the generic view and one line."""

    id = "bare"
    info = VariantInfo()


async def test_works_for_any_variant_names_map_to_seats() -> None:
    human, out = player("zed\nBob\n", variant=BareVariant(), seat=0)
    obs: Mapping[str, Any] = {
        "turn": 3,
        "players": [{"seat": 1, "name": "Bob"}, {"seat": 2, "name": "Ann"}],
        "history": ["Bob was nominated"],
    }
    legal = NumbersOnly()
    request = DecisionRequest(decision=Decision(0, legal.kind), observation=obs, legal=legal)
    reply = await human.decide("", "", request)
    assert action_of(reply) == 1
    text = out.getvalue()
    assert "turn: 3" in text and " - Bob was nominated" in text
    assert "Pick 1 or 2." in text and "Not accepted: choose 1 or 2" in text


def test_the_agent_kind_builds_a_patient_human() -> None:
    human = make_human(AgentContext(VARIANT, 3, 0, "", {"human_timeout": 99}))
    assert isinstance(human, HumanPlayer) and human.decision_timeout == 99
    assert make_human(AgentContext(VARIANT, 3, 0, "")).decision_timeout >= 600
    assert human.renders_prompts is False and human.reads_history is True
