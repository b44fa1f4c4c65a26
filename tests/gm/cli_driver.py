"""Run ``duskfall`` with a scripted ``table`` model provider, as a user's shell would.

``table:gm`` is a game master that plays a short English werewolf game on the built-in card,
deciding from what it reads (so a resumed game goes on where it stopped); ``table:player``
answers every turn with one sentence; ``table:hang`` never answers.
"""

from __future__ import annotations

import asyncio
import sys

from duskfall.cli import main
from duskfall.llm import Request, ScriptedProvider, register_provider

PLAYERS = ["AI-Alpha", "AI-Beta", "AI-Gamma"]


def game_master(request: Request) -> str:
    prompt = request.last_user
    spoken = prompt.count("🎮 ")
    if "Start the game" in prompt:
        return (
            "Welcome! [SECRET: AI-Alpha | You are a Werewolf.] "
            "[SECRET: AI-Beta | You are the Seer.]"
        )
    if spoken >= 3:
        return "The village wins. GAME OVER"
    return f"Day {spoken + 1}. [TURN: {PLAYERS[spoken]}]"


def player(request: Request) -> str:
    return f"I have heard {request.last_user.count('🎮 ')} players so far."


async def hang(request: Request) -> str:
    await asyncio.Event().wait()  # never answers: the process is interrupted meanwhile
    return ""


def table(arg: str, config: object) -> ScriptedProvider:
    answer = {"gm": game_master, "hang": hang}.get(arg, player)
    return ScriptedProvider(answer, model=f"table-{arg}")


if __name__ == "__main__":
    register_provider("table", table)
    sys.argv = ["duskfall", *sys.argv[1:]]
    main()
