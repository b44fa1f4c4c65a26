"""The planner: one plain-English sentence of purpose for the decision (no JSON, no tools)."""

from __future__ import annotations

import re

from duskfall.agents.cognitive.caller import StageCaller
from duskfall.agents.cognitive.context import SessionContext
from duskfall.llm import LLMError
from duskfall.llm.memory import clip
from duskfall.llm.types import Message

PLAN_CHARS = 400
PROMPT_TAIL_CHARS = 2500
_GOALS = {
    "discussion": "build a suspicion ranking from the speeches and votes so far and say "
    "something that moves the table towards the players most likely against us",
    "vote": "vote for the player whose speeches and votes make them most likely to be on the "
    "other side",
    "kill": "choose a kill target who weakens the other side most, such as a likely detective "
    "or the strongest town voice, without exposing ourselves",
    "inspect": "check the player whose alignment, once known, would most change the votes",
    "protect": "protect the player most likely to hold a power role or to be attacked tonight",
    "potion": "use a potion only where it clearly helps the village",
    "team_chat": "agree with the team on a target that hurts the other side most",
    "badge": "decide on the badge in the way that best serves our side",
}
_SENTENCE = re.compile(r"(.+?[.!?])(?:\s|$)", re.DOTALL)


def default_plan(context: SessionContext) -> str:
    """The plan used when the model gives none (or fails)."""
    goal = _GOALS.get(context.mode, "make the move that best serves our side's win condition")
    return f"Now your goal is to {goal}, playing as the {context.role}."


def planner_messages(
    context: SessionContext, system_prompt: str, user_prompt: str
) -> list[Message]:
    system = (
        f"{system_prompt}\n\nBefore deciding, state your purpose for this decision in ONE "
        "plain-English sentence that starts with 'Now your goal is to'. Say which players or "
        "patterns to focus on, what to find out, and how it serves your side's win condition. "
        "No JSON, no list."
    )
    user = (
        f"{clip_tail(user_prompt, PROMPT_TAIL_CHARS)}\n\n{context.describe()}\n\n"
        "Your one-sentence plan:"
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def first_sentence(text: str) -> str:
    """The reply's first sentence on one line, or '' if it has no words."""
    flat = " ".join(text.replace("\n", " ").split()).strip(" \"'`*")
    if not any(c.isalpha() for c in flat):
        return ""
    match = _SENTENCE.match(flat)
    return clip(match.group(1) if match else flat, PLAN_CHARS)


async def plan(
    caller: StageCaller, system_prompt: str, user_prompt: str, max_tokens: int
) -> tuple[str, bool]:
    """The plan sentence, and whether the model wrote it (False: the default was used)."""
    messages = planner_messages(caller.context, system_prompt, user_prompt)
    try:
        reply = await caller.call("planner", messages, max_tokens=max_tokens)
    except LLMError:
        return default_plan(caller.context), False
    sentence = first_sentence(reply)
    return (sentence, True) if sentence else (default_plan(caller.context), False)


def clip_tail(text: str, limit: int) -> str:
    """The last ``limit`` characters of ``text`` (the latest events matter most)."""
    return text if len(text) <= limit else "…" + text[-limit:]
