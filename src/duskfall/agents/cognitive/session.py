"""Tool-assisted investigation sessions (seed 003, section 2).

A session is a loop: the model answers with the fixed JSON (``end_investigation``,
``session_type``, ``target_players``, ``reasoning``, ``requested_tools``, ``suspicion_updates``,
``intermediate_hypotheses``); the orchestrator runs the requested tools over the seat's records
and calls again with their output, until ``end_investigation`` is true, a step requests no
tools, or the step limit is hit. A reply that is not valid JSON is re-asked once with a hint;
a second bad reply (or a failing model) ends the session, and the game goes on.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.agents.cognitive.caller import StageCaller
from duskfall.agents.cognitive.context import SessionContext
from duskfall.agents.cognitive.suspicion import HYPOTHESIS_TAGS, SuspicionUpdate
from duskfall.agents.cognitive.tools import TOOL_NAMES, Toolbox, ToolRequest, parse_player
from duskfall.llm import LLMError
from duskfall.llm.memory import clip
from duskfall.llm.schema import NoJSON, extract_json, validate
from duskfall.llm.types import Message

SESSION_KEYS = (
    "end_investigation",
    "session_type",
    "target_players",
    "reasoning",
    "requested_tools",
    "suspicion_updates",
    "intermediate_hypotheses",
)
TOOL_HELP = """Tools (they show only what you may see):
- read_public_history(time_scope): public events
- read_private_info(time_scope): your role, your team's chat, your own check results
- read_public_speech(player_id, time_scope), read_player_votes(player_id, time_scope)
- read_player_info(player_id): alive or dead, public facts about the player
- read_private_thoughts(): your own earlier thoughts
- read_metrics(): speeches, votes cast and received per living player
- read_file(path), search_file(query, path): your record files ('.' lists them)
time_scope: all_days, today, last_day or 'day N'."""


@dataclass(frozen=True)
class SessionSpec:
    """What one session investigates."""

    session_type: str
    targets: tuple[int, ...]
    focus: str


@dataclass(frozen=True)
class SessionLimits:
    """Bounds on a session: steps, tokens per step, tools per step, text sizes."""

    max_steps: int = 3
    max_tokens: int = 320
    max_tools: int = 3
    max_updates: int = 6
    json_retries: int = 1
    reasoning_chars: int = 400
    notes_chars: int = 120


@dataclass
class SessionStep:
    """One validated step of a session, with player ids resolved to seats."""

    raw: dict[str, Any]
    end: bool
    session_type: str
    targets: list[int]
    reasoning: str
    tools: list[ToolRequest]
    updates: list[SuspicionUpdate]
    hypotheses: dict[str, list[int]]


@dataclass
class SessionResult:
    """How a session went: its steps, its final JSON and why it stopped."""

    spec: SessionSpec
    steps: list[SessionStep] = field(default_factory=list)
    tool_calls: int = 0
    ended_by: str = ""
    error: str | None = None

    @property
    def final(self) -> dict[str, Any] | None:
        return self.steps[-1].raw if self.steps else None

    def to_record(self) -> dict[str, Any]:
        return {
            "session_type": self.spec.session_type,
            "targets": list(self.spec.targets),
            "steps": len(self.steps),
            "tool_calls": self.tool_calls,
            "ended_by": self.ended_by,
            "error": self.error,
            "final": self.final,
        }


def session_schema(context: SessionContext, limits: SessionLimits) -> dict[str, Any]:
    """The JSON schema of one step (used to constrain decoding where the provider can)."""
    ids = [f"p{p}" for p in context.players] or ["p0"]
    player_list = {"type": "array", "items": {"type": "string", "enum": ids}, "maxItems": 6}
    tool = {
        "type": "object",
        "properties": {
            "tool_name": {"type": "string", "enum": list(TOOL_NAMES)},
            "player_id": {"type": "string", "maxLength": 12},
            "time_scope": {"type": "string", "maxLength": 20},
            "path": {"type": "string", "maxLength": 80},
            "query": {"type": "string", "maxLength": 60},
        },
        "required": ["tool_name"],
    }
    update = {
        "type": "object",
        "properties": {
            "player_id": {"type": "string", "enum": ids},
            "delta_suspicion": {"type": "number", "minimum": -1, "maximum": 1},
            "delta_trust": {"type": "number", "minimum": -1, "maximum": 1},
            "notes": {"type": "string", "maxLength": limits.notes_chars},
        },
        "required": ["player_id", "delta_suspicion", "delta_trust"],
    }
    return {
        "type": "object",
        "properties": {
            "end_investigation": {"type": "boolean"},
            "session_type": {"type": "string", "maxLength": 40},
            "target_players": player_list,
            "reasoning": {"type": "string", "maxLength": limits.reasoning_chars},
            "requested_tools": {"type": "array", "items": tool, "maxItems": limits.max_tools},
            "suspicion_updates": {
                "type": "array",
                "items": update,
                "maxItems": limits.max_updates,
            },
            "intermediate_hypotheses": {
                "type": "object",
                "properties": {tag: player_list for tag in HYPOTHESIS_TAGS},
            },
        },
        "required": list(SESSION_KEYS),
    }


class BadStep(ValueError):
    """A reply that is not a valid session step; the message is the hint for a re-ask."""


def parse_step(text: str, context: SessionContext, schema: Mapping[str, Any]) -> SessionStep:
    """Validate one reply; raises :class:`BadStep` with a specific hint."""
    try:
        value = extract_json(text)
    except NoJSON:
        raise BadStep("the reply contains no JSON object") from None
    if not isinstance(value, dict):
        raise BadStep("the reply must be one JSON object, not a list or a value")
    problems = validate(value, schema)
    if problems:
        raise BadStep("; ".join(problems[:4]))
    updates = []
    for item in value["suspicion_updates"]:
        player = parse_player(item.get("player_id"), context)
        if player is not None and player != context.seat:
            updates.append(
                SuspicionUpdate(
                    player,
                    float(item["delta_suspicion"]),
                    float(item["delta_trust"]),
                    str(item.get("notes", "")),
                )
            )
    hypotheses = {
        tag: _players(players, context)
        for tag, players in value["intermediate_hypotheses"].items()
        if tag in HYPOTHESIS_TAGS and isinstance(players, list)
    }
    return SessionStep(
        raw=value,
        end=bool(value["end_investigation"]),
        session_type=str(value["session_type"]),
        targets=_players(value["target_players"], context),
        reasoning=str(value["reasoning"]),
        tools=[ToolRequest.from_json(t) for t in value["requested_tools"]],
        updates=updates,
        hypotheses=hypotheses,
    )


def _players(values: Sequence[Any], context: SessionContext) -> list[int]:
    found = (parse_player(v, context) for v in values)
    return list(dict.fromkeys(p for p in found if p is not None))


StepListener = Callable[[SessionResult, SessionStep], None]


class Investigation:
    """Runs sessions for one decision: the prompts, the loop, the tools."""

    def __init__(
        self,
        caller: StageCaller,
        toolbox: Toolbox,
        plan: str,
        beliefs: Callable[[], str],
        limits: SessionLimits,
        on_step: StepListener | None = None,
    ) -> None:
        self.caller = caller
        self.toolbox = toolbox
        self.context = caller.context
        self.plan = plan
        self.beliefs = beliefs
        self.limits = limits
        self.on_step = on_step
        self.schema = session_schema(self.context, limits)

    async def run_all(self, specs: Sequence[SessionSpec]) -> list[SessionResult]:
        """Run ``specs`` concurrently; one failing session never affects the others."""
        return list(await asyncio.gather(*(self.run(spec) for spec in specs)))

    async def run(self, spec: SessionSpec) -> SessionResult:
        result = SessionResult(spec)
        messages = self._opening(spec)
        retries_left = self.limits.json_retries
        while len(result.steps) < self.limits.max_steps:
            try:
                text = await self.caller.call(
                    "session",
                    messages,
                    max_tokens=self.limits.max_tokens,
                    schema=self.schema,
                    session_type=spec.session_type,
                    step=len(result.steps) + 1,
                )
            except LLMError as exc:
                result.ended_by, result.error = "model_error", str(exc)
                return result
            try:
                step = parse_step(text, self.context, self.schema)
            except BadStep as exc:
                if retries_left <= 0:
                    result.ended_by, result.error = "bad_json", str(exc)
                    return result
                retries_left -= 1
                messages = [*messages, *_bad_step_hint(text, str(exc))]
                continue
            retries_left = self.limits.json_retries
            result.steps.append(step)
            if self.on_step is not None:
                self.on_step(result, step)
            if step.end:
                result.ended_by = "end_investigation"
                return result
            if not step.tools:
                result.ended_by = "no_tools"
                return result
            if len(result.steps) >= self.limits.max_steps:
                break
            outputs = self.toolbox.run_all(step.tools[: self.limits.max_tools])
            result.tool_calls += len(outputs)
            messages = [*messages, *self._continue(step, outputs, len(result.steps))]
        result.ended_by = "step_limit"
        return result

    def _opening(self, spec: SessionSpec) -> list[Message]:
        ctx = self.context
        targets = ", ".join(ctx.label(p) for p in spec.targets) or "all living players"
        system = (
            f"You are the investigation module of a player in {ctx.variant}. {ctx.describe()}\n"
            f"Purpose: {self.plan}\n"
            f"This investigation: {spec.session_type} on {targets}. {spec.focus}\n\n"
            "Answer every step with ONE JSON object with exactly these keys: end_investigation "
            '(true once you know enough), session_type, target_players (ids like "p3"), '
            "reasoning (what you read and what it means), requested_tools (list of "
            '{"tool_name", "player_id", "time_scope"}, at most '
            f'{self.limits.max_tools}), suspicion_updates (list of {{"player_id", '
            '"delta_suspicion", "delta_trust", "notes"}, deltas from -1 to 1), '
            'intermediate_hypotheses ({"likely_detective_candidates": [], '
            '"likely_doctor_candidates": [], "likely_easy_mislynches": [], '
            '"likely_strong_town": []}).\n\n' + TOOL_HELP
        )
        user = (
            f"Your current beliefs:\n{self.beliefs()}\n\n"
            f"Step 1 of at most {self.limits.max_steps}: request the tools you need."
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def _continue(self, step: SessionStep, outputs: Sequence[Any], done: int) -> list[Message]:
        results = "\n\n".join(o.render() for o in outputs)
        left = self.limits.max_steps - done
        ask = (
            "This is your last step: set end_investigation to true and give your final updates."
            if left <= 1
            else "Update reasoning, suspicion_updates and hypotheses; request more tools or set "
            "end_investigation to true."
        )
        return [
            {"role": "assistant", "content": json.dumps(step.raw, ensure_ascii=False)},
            {"role": "user", "content": f"Tool results:\n{results}\n\nStep {done + 1}. {ask}"},
        ]


def _bad_step_hint(reply: str, problem: str) -> list[Message]:
    return [
        {"role": "assistant", "content": clip(reply, 400)},
        {
            "role": "user",
            "content": f"That reply was not a valid investigation step ({problem}). Answer with "
            "only one JSON object with the keys " + ", ".join(SESSION_KEYS) + ".",
        },
    ]
