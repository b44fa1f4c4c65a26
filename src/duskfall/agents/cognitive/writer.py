"""The writer: the variant's move (speech, vote, night target) as the envelope
``{"reasoning", "action"}``, from the seat's whole prompt (the same complete information an
``llm`` seat gets), the plan, the sessions' final JSON and the suspicion model, constrained by
the decision's own JSON schema. It returns the raw reply; the runtime decodes, validates and
re-asks as for any participant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from duskfall.agents.cognitive.caller import StageCaller
from duskfall.agents.cognitive.context import Knowledge, SessionContext
from duskfall.agents.cognitive.session import SessionResult
from duskfall.llm.envelope import envelope_schema
from duskfall.llm.memory import clip
from duskfall.llm.types import Message

REASONING_CHARS = 240


@dataclass(frozen=True)
class Brief:
    """Everything the writer is given besides the variant's prompts."""

    plan: str
    sessions: Sequence[SessionResult]
    beliefs: str
    known: Knowledge


def known_facts(context: SessionContext, known: Knowledge) -> str:
    lines = []
    if known.allies:
        mates = ", ".join(context.label(p) for p in sorted(known.allies))
        lines.append(f"Your team mates: {mates}")
    for player, evil in sorted(known.checks.items()):
        verdict = "on the evil side" if evil else "on the good side"
        lines.append(f"Your own check: {context.label(player)} is {verdict}.")
    return "\n".join(lines) or "none beyond your role"


def session_lines(context: SessionContext, sessions: Sequence[SessionResult]) -> str:
    lines = []
    for result in sessions:
        final = result.final
        if final is None:
            lines.append(f"- {result.spec.session_type}: no conclusion ({result.ended_by})")
            continue
        targets = ", ".join(f"p{p}" for p in result.steps[-1].targets) or "-"
        reasoning = clip(str(final.get("reasoning", "")), REASONING_CHARS)
        lines.append(f"- {result.spec.session_type} on {targets}: {reasoning}")
    return "\n".join(lines) or "- (no investigation for this decision)"


def writer_messages(
    context: SessionContext,
    system_prompt: str,
    user_prompt: str,
    brief: Brief,
    hint: str | None = None,
    revision: str | None = None,
) -> list[Message]:
    user = (
        f"{user_prompt}\n\n"
        f"Your plan: {brief.plan}\n"
        f"What your investigations concluded:\n{session_lines(context, brief.sessions)}\n"
        f"Your suspicion model (most suspicious first):\n{brief.beliefs}\n"
        f"Facts you know for certain: {known_facts(context, brief.known)}\n\n"
        "Now make your move. Answer with one JSON object "
        '{"reasoning": "...", "action": {...}}; "reasoning" stays private.'
    )
    if hint:
        user += f"\nYour previous answer was refused: {hint}"
    messages: list[Message] = [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": user},
    ]
    if revision:
        messages.append({"role": "user", "content": revision})
    return messages


async def write(
    caller: StageCaller,
    system_prompt: str,
    user_prompt: str,
    brief: Brief,
    action_schema: Mapping[str, Any] | None,
    *,
    max_tokens: int,
    hint: str | None = None,
    revision: str | None = None,
) -> str:
    """One writer call; the raw reply (raises LLMError, recorded, when the model fails)."""
    schema = envelope_schema(action_schema)
    messages = writer_messages(
        caller.context, system_prompt, user_prompt, brief, hint=hint, revision=revision
    )
    stage = "writer_revision" if revision else "writer"
    return await caller.call(stage, messages, max_tokens=max_tokens, schema=schema)
