"""A seat played by a person in the browser.

:class:`WebHumanSeat` is a participant: ``decide`` publishes the decision (the seat's
observation, the legal actions in words, in wire form and as a JSON schema, and the hint after
a refused answer) to whoever listens (the seat's page) and waits, with a long deadline, for
:meth:`WebHumanSeat.answer` with a matching ``request_id``.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

from duskfall.core.errors import DuskfallError

DEFAULT_HUMAN_TIMEOUT = 3600.0

Listener = Callable[[dict[str, Any] | None], None]


class StaleAnswer(DuskfallError):
    """An answer to a decision that is no longer open (already answered, or timed out)."""


def _jsonable(observation: Any) -> Any:
    to_dict = getattr(observation, "to_dict", None)
    return to_dict() if callable(to_dict) else dict(observation)


class WebHumanSeat:
    """The participant of a human seat; see the module docstring."""

    renders_prompts = False

    def __init__(self, seat: int, timeout: float = DEFAULT_HUMAN_TIMEOUT) -> None:
        self.seat = seat
        self.decision_timeout = timeout
        self.request: dict[str, Any] | None = None
        self.listeners: list[Listener] = []
        self._future: asyncio.Future[Any] | None = None
        self._ids = itertools.count(1)

    def describe(self) -> str:
        return "human"

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener(self.request)

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any:
        legal = extra["legal"]
        decision = extra.get("decision")
        self.request = {
            "request_id": next(self._ids),
            "seat": self.seat,
            "kind": getattr(decision, "kind", legal.kind),
            "describe": legal.describe(),
            "valid_actions": legal.to_wire(),
            "schema": legal.schema(),
            "observation": _jsonable(extra["observation"]),
            "hint": extra.get("hint"),
            "attempt": extra.get("attempt", 0),
            "timeout": self.decision_timeout,
        }
        self._future = asyncio.get_running_loop().create_future()
        self._notify()
        try:
            return await self._future
        finally:
            self._future = None
            self.request = None
            self._notify()

    def answer(self, request_id: int, action: Any) -> None:
        """Hand in the action for the open decision ``request_id``."""
        future, request = self._future, self.request
        if future is None or request is None or future.done():
            raise StaleAnswer(f"seat {self.seat} has no open decision")
        if request_id != request["request_id"]:
            raise StaleAnswer(
                f"decision {request_id} is closed; the open one is {request['request_id']}"
            )
        future.set_result(action)
