"""Seed 004's handlers: one per sub-phase, stateless, participants given at call time.

Each handler asks its seats through :func:`duskfall.runtime.handler.ask`, which renders each
seat's prompts from that seat's observation only, decodes the raw reply, validates it against
``legal``, re-asks with the refusal as a hint and finally records the documented fallback.
Speeches, the hunter's shot and the badge pass are asked one seat at a time; every other
sub-phase asks its seats concurrently (the scheduler runs the Guard and Seer handlers, which
share a batch, at the same time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.core.events import Event
from duskfall.runtime.handler import Handler, HandlerResult, PhaseContext, ask
from duskfall.runtime.participant import Participant
from duskfall.variants.werewolf import phases as P


class SubPhaseHandler:
    """Settles the pending decisions of one sub-phase (``kind``)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.concurrent = kind not in P.SEQUENTIAL_KINDS

    def __repr__(self) -> str:
        return f"SubPhaseHandler({self.kind!r})"

    async def __call__(
        self, context: PhaseContext, participants: Sequence[tuple[int, Participant]]
    ) -> HandlerResult:
        expected = {d.seat for d in context.decisions if d.kind == self.kind}
        given = [seat for seat, _ in participants]
        if set(given) != expected or len(given) != len(expected):
            raise ValueError(
                f"{self.kind} handler: asked for seats {sorted(given)}, "
                f"but the pending {self.kind} seats are {sorted(expected)}"
            )
        logs: list[list[Event]] = [[] for _ in participants]
        if self.concurrent and len(participants) > 1:
            answers = await asyncio.gather(
                *(
                    ask(context, seat, participant, logs[i], self.kind)
                    for i, (seat, participant) in enumerate(participants)
                )
            )
        else:
            answers = [
                await ask(context, seat, participant, logs[i], self.kind)
                for i, (seat, participant) in enumerate(participants)
            ]
        actions = dict(zip(given, answers, strict=True))
        return HandlerResult(
            actions, [event for log in logs for event in log], self._summary(actions)
        )

    def _summary(self, actions: Mapping[int, Any]) -> str:
        return f"{self.kind}: " + ", ".join(
            f"seat {seat} {actions[seat].to_dict()}" for seat in sorted(actions)
        )


HANDLERS: dict[str, Handler] = {kind: SubPhaseHandler(kind) for kind in P.ALL_KINDS}
