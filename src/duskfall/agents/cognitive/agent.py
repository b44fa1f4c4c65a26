"""CognitiveAgent: planner -> investigation sessions -> writer -> reflector, per decision.

The agent follows its seat's visible events through ``watch_game`` (the runtime forwards only
what the seat may see) into the seat's record folder, which its tools read. For each decision
it parses a :class:`SessionContext`, asks the planner for one sentence of purpose, runs the
investigation sessions the decision calls for (concurrently, each bounded in steps and
tokens), updates its suspicion model, lets the writer produce the move under the decision's
JSON schema and the reflector check it (one revision at most). It returns the writer's raw
reply; the runtime validates it and re-asks with a hint, which the agent answers with the
writer alone (the plan and investigations of the decision are kept).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from duskfall.agents.beliefs import DailyBeliefs, ask_beliefs
from duskfall.agents.cognitive import agenda, planner, writer
from duskfall.agents.cognitive.caller import Emit, StageCaller
from duskfall.agents.cognitive.context import Knowledge, SessionContext, session_context
from duskfall.agents.cognitive.records import (
    HISTORY,
    SESSIONS,
    SUSPICION,
    SeatRecords,
    records_root,
)
from duskfall.agents.cognitive.reflector import reflect, revision_request
from duskfall.agents.cognitive.session import Investigation, SessionResult, SessionSpec, SessionStep
from duskfall.agents.cognitive.settings import CognitiveSettings
from duskfall.agents.cognitive.suspicion import SuspicionModel
from duskfall.agents.cognitive.tools import Toolbox
from duskfall.core.usage import Tally
from duskfall.core.variant import Variant
from duskfall.llm import CallOptions, LLMError, Model, ProviderUnavailable
from duskfall.llm.memory import clip
from duskfall.runtime.participant import BaseParticipant, DecisionRequest

SESSION_SHARE = 0.55  # of the decision's time the investigations may use


@dataclass
class Deliberation:
    """What one decision produced before the writer: reused when the runtime re-asks."""

    key: tuple[Any, ...]
    plan: str
    sessions: list[SessionResult] = field(default_factory=list)


class CognitiveAgent(BaseParticipant):
    """A seat that deliberates (seed 003); see the module docstring."""

    renders_prompts = True
    decision_timeout: float

    def __init__(
        self,
        model: Model,
        *,
        seat: int,
        variant: Variant,
        settings: CognitiveSettings | None = None,
        sampler: CallOptions | None = None,
    ) -> None:
        self.model = model
        self.seat = seat
        self.variant = variant
        self.settings = settings or CognitiveSettings()
        # every stage samples alike: the temperature and the sampler settings pinned
        self.call_options = replace(sampler or CallOptions(), temperature=self.settings.temperature)
        self.decision_timeout = self.settings.decision_timeout or max(300.0, 6 * model.timeout)
        self.tally = Tally()
        self.records: SeatRecords | None = None
        self.game_id: str | None = None
        self.suspicion = SuspicionModel(seat)
        self._last: Deliberation | None = None
        self._broken: LLMError | None = None
        self._beliefs = DailyBeliefs(self.settings.beliefs)

    def describe(self) -> str:
        return f"cognitive:{self.model.spec}"

    def models(self) -> tuple[Model]:
        """The one model this seat calls."""
        return (self.model,)

    # -- following the game ----------------------------------------------------------------

    def watch_game(self, game_id: str, log_path: Path | None) -> SeatRecords:
        """Open this seat's record folder; the runtime feeds it the seat's visible events."""
        self._start_game(game_id, log_path)
        assert self.records is not None
        return self.records

    def _start_game(self, game_id: str, log_path: Path | None) -> None:
        base = self.settings.records_dir
        scratch = None
        if base is None and log_path is None:
            base = scratch = Path(tempfile.mkdtemp(prefix="duskfall-records-"))
        root = records_root(game_id, log_path, base) / f"seat-{self.seat}"
        self.records = SeatRecords(root, self.seat, self.variant, scratch=scratch)
        self.game_id = game_id
        self.suspicion = SuspicionModel(self.seat)
        self._last = None
        self._beliefs = DailyBeliefs(self.settings.beliefs)

    # -- deciding --------------------------------------------------------------------------

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> str:
        if self._broken is not None:
            raise self._broken
        game_id = request.game_id or "game"
        if self.records is None or self.game_id != game_id:
            self._start_game(game_id, None)  # not followed by the runtime: own notes only
        records = self.records
        assert records is not None
        observation = request.observation
        context = session_context(
            self.seat,
            request.variant or self.variant.id,
            request.kind,
            observation,
            self.variant.info.facts,
            records.root,
        )
        emit = request.emit
        caller = StageCaller(
            self.model,
            context,
            emit,
            options=self.call_options,
            deadline=self.decision_timeout * 0.3,
            tally=self.tally,
        )
        known = self._refresh_beliefs(context, records)
        try:
            deliberation = await self._deliberate(
                caller, context, records, known, system_prompt, user_prompt, request
            )
            await self._daily_beliefs(
                context, known, deliberation, system_prompt, user_prompt, observation, emit
            )
            reply = await self._write(
                caller, context, records, known, deliberation, system_prompt, user_prompt, request
            )
        except ProviderUnavailable as exc:
            self._broken = exc
            raise
        return reply

    def _refresh_beliefs(self, context: SessionContext, records: SeatRecords) -> Knowledge:
        """Add new players; pin what the seat's own records prove (team mates, checks)."""
        self.suspicion.add_players(context.players or context.alive)
        known = Knowledge.from_history(
            self.seat, records.read_lines(HISTORY), self.variant.info.facts
        )
        for ally in known.allies:
            self.suspicion.pin(ally, evil=False, reason="team mate")
        for player, evil in known.checks.items():
            verdict = "evil" if evil else "good"
            self.suspicion.pin(player, evil=evil, reason=f"own check: {verdict}")
        return known

    async def _deliberate(
        self,
        caller: StageCaller,
        context: SessionContext,
        records: SeatRecords,
        known: Knowledge,
        system_prompt: str,
        user_prompt: str,
        request: DecisionRequest,
    ) -> Deliberation:
        """Planner and sessions, or the previous ones when the runtime re-asks this decision."""
        emit = request.emit
        key = (context.day, context.phase, context.decision, observation_marker(request))
        if request.attempt and self._last is not None and self._last.key == key:
            return self._last
        plan, planned = await planner.plan(
            caller, system_prompt, user_prompt, self.settings.plan_tokens
        )
        stage = "plan" if planned else "plan (default)"
        records.note_thought(context.day, context.phase, stage, plan)
        deliberation = Deliberation(key, plan)
        specs = agenda.sessions_for(context, self.suspicion, known, self.settings.max_sessions)
        if specs:
            deliberation.sessions = await self._investigate(
                caller, context, records, plan, specs, emit
            )
            emit(self.suspicion.event(context.day, context.phase.upper()))
            records.write_json(SUSPICION, self.suspicion.to_record())
        self._last = deliberation
        return deliberation

    async def _investigate(
        self,
        caller: StageCaller,
        context: SessionContext,
        records: SeatRecords,
        plan: str,
        specs: list[SessionSpec],
        emit: Emit,
    ) -> list[SessionResult]:
        toolbox = Toolbox(records, context, max_chars=self.settings.tool_chars)

        def on_step(result: SessionResult, step: SessionStep) -> None:
            self.suspicion.apply(step.updates)
            self.suspicion.merge_hypotheses(step.hypotheses)
            label = f"session {result.spec.session_type} step {len(result.steps)}"
            records.note_thought(context.day, context.phase, label, step.reasoning)

        investigation = Investigation(
            caller,
            toolbox,
            plan,
            lambda: self.suspicion.summary(context.names),
            self.settings.limits,
            on_step,
        )
        tasks = [asyncio.ensure_future(investigation.run(spec)) for spec in specs]
        done, pending = await asyncio.wait(tasks, timeout=self.decision_timeout * SESSION_SHARE)
        for task in pending:
            task.cancel()
        results = []
        for spec, task in zip(specs, tasks, strict=True):
            if task in done and task.exception() is None:
                results.append(task.result())
            else:
                reason = "timeout" if task in pending else f"error: {task.exception()}"
                results.append(SessionResult(spec, ended_by=reason))
        for result in results:
            when = {"day": context.day, "phase": context.phase}
            records.append(SESSIONS, {**when, **result.to_record()})
        return results

    async def _daily_beliefs(
        self,
        context: SessionContext,
        known: Knowledge,
        deliberation: Deliberation,
        system_prompt: str,
        user_prompt: str,
        observation: Mapping[str, Any],
        emit: Emit,
    ) -> None:
        """With ``beliefs=daily``: the first decision of a day states beliefs, from what the
        writer is about to be shown (plan, investigations, suspicion model, facts)."""
        if not observation or not self._beliefs.due(context.day):
            return
        brief = self._brief(context, known, deliberation)
        messages = writer.writer_messages(context, system_prompt, user_prompt, brief)
        await ask_beliefs(
            self.model,
            messages,
            observation,
            seat=self.seat,
            day=context.day,
            phase=str(observation.get("phase") or context.phase),
            emit=emit,
            options=self.call_options,
            deadline=self.decision_timeout * 0.1,
        )

    def _brief(
        self, context: SessionContext, known: Knowledge, deliberation: Deliberation
    ) -> writer.Brief:
        """What the writer is shown besides the decision's own prompt."""
        return writer.Brief(
            deliberation.plan,
            deliberation.sessions,
            self.suspicion.summary(context.names),
            known,
        )

    async def _write(
        self,
        caller: StageCaller,
        context: SessionContext,
        records: SeatRecords,
        known: Knowledge,
        deliberation: Deliberation,
        system_prompt: str,
        user_prompt: str,
        request: DecisionRequest,
    ) -> str:
        """The writer's move, checked by the reflector and revised once on a conflict."""
        action_schema = request.schema
        brief = self._brief(context, known, deliberation)
        settings = self.settings
        caller.deadline = self.decision_timeout * 0.2

        async def draft(revision: str | None = None) -> str:
            return await writer.write(
                caller,
                system_prompt,
                user_prompt,
                brief,
                action_schema,
                max_tokens=settings.max_tokens,
                hint=request.hint,
                revision=revision,
            )

        reply = await draft()
        if settings.reflect:
            verdict = reflect(reply, context, request.legal, self.suspicion, known)
            if not verdict.ok:
                conflict = str(verdict.conflict)
                records.note_thought(context.day, context.phase, "reflection", conflict)
                try:
                    reply = await draft(revision_request(verdict))
                except LLMError as exc:
                    if isinstance(exc, ProviderUnavailable):
                        raise
                    records.note_thought(
                        context.day, context.phase, "reflection", f"revision failed: {exc}"
                    )
        records.note_thought(context.day, context.phase, "move", clip(reply, 600))
        return reply


def observation_marker(request: DecisionRequest) -> Any:
    """Something that changes when the same decision kind comes round again on the same day."""
    observation = request.observation
    history = observation.get("history") or observation.get("public_log")
    return len(history) if isinstance(history, list) else None
