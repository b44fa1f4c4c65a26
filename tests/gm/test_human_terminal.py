"""A person at the terminal in a GM game: answers go to the chat, silence times out cleanly."""

from __future__ import annotations

import asyncio
import io
import os

from duskfall.agents.human_chat import human_model

from .support import build_game, chat_lines, of_kind, player_calls


async def test_a_silent_person_is_recorded_as_silent_and_the_game_goes_on() -> None:
    read_end, write_end = os.pipe()  # nothing is ever typed
    stdin = os.fdopen(read_end, "r")
    shown = io.StringIO()
    try:
        person = human_model(3600, stdin, shown)
        game, events = build_game(
            ["[TURN: Ann]", "[TURN: Bob]", "[GAME OVER]"],
            {"Ann": person},
            names=["Ann", "Bob"],
            player_timeout=0.2,
        )
        outcome = await asyncio.wait_for(game.run(), 30)
    finally:
        os.close(write_end)
    assert outcome.termination.value == "win"
    [silent] = of_kind(events, "player_silent")
    assert silent.payload["player"] == "Ann" and "0.2" in silent.payload["reason"]
    assert "(silent)" in chat_lines(events)
    assert [c.payload["player"] for c in player_calls(events)] == ["Ann", "Bob"]
    assert "It is your turn to speak in public, Ann." in shown.getvalue()


class Typist(io.StringIO):
    """A terminal whose person types the next answer each time a prompt is shown."""

    def __init__(self, fd: int, answers: list[str]) -> None:
        super().__init__()
        self.fd, self.answers = fd, answers

    def write(self, text: str) -> int:
        if text.endswith("> ") and self.answers:
            os.write(self.fd, (self.answers.pop(0) + "\n").encode())
        return super().write(text)


async def test_a_person_answers_in_private_and_in_public() -> None:
    read_end, write_end = os.pipe()
    stdin = os.fdopen(read_end, "r")
    try:
        person = human_model(
            3600, stdin, Typist(write_end, ["I check Bob", "Bob is a wolf [GAME OVER]"])
        )
        game, events = build_game(
            ["[PRIVATE TURN: Ann]", "[TURN: Ann]", "[GAME OVER]"],
            {"Ann": person},
            names=["Ann", "Bob"],
            player_timeout=30,
        )
        await asyncio.wait_for(game.run(), 30)
    finally:
        os.close(write_end)
    [private] = of_kind(events, "private_reply")
    assert private.payload["text"] == "I check Bob" and private.visibility == "seats:0"
    assert "🎮 Ann: Bob is a wolf (GAME OVER)" not in chat_lines(events)  # stored without prefix
    assert "Bob is a wolf (GAME·OVER)" in chat_lines(events)  # inert: a quote ends nothing
    assert not of_kind(events, "player_silent")
