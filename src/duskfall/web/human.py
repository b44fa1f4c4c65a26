"""A seat played by a person in the browser.

:class:`WebHumanSeat` is a participant: ``decide`` publishes the decision (the seat's
observation, the legal actions in words, in wire form and as a JSON schema, and the hint after
a refused answer) to whoever listens (the seat's page) and waits, with a long deadline, for
:meth:`WebHumanSeat.answer` with a matching ``request_id`` (the open request is kept by an
:class:`~duskfall.runtime.awaiting.Awaiting`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.spectator import SeatCard, Spectator, observed_names
from duskfall.runtime.awaiting import Awaiting, StaleAnswer
from duskfall.runtime.participant import BaseParticipant, DecisionRequest
from duskfall.web.forms import Names, decision_form, seat_marks
from duskfall.web.present import spectator_of

DEFAULT_HUMAN_TIMEOUT = 300.0
MAX_HUMAN_TIMEOUT = 3600.0
BROWSER_AGENT = "human:browser"  # the roster's name of a seat played in the browser

Listener = Callable[[dict[str, Any] | None], None]

__all__ = ["DEFAULT_HUMAN_TIMEOUT", "Listener", "PageRequests", "StaleAnswer", "WebHumanSeat"]


def _jsonable(observation: Any) -> Any:
    to_dict = getattr(observation, "to_dict", None)
    return to_dict() if callable(to_dict) else dict(observation)


def _reader(legal: Any) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """The legal view's reading of an action (its wire form), or None if it refuses it."""

    def read(action: dict[str, Any]) -> dict[str, Any] | None:
        try:
            parsed = legal.parse(action)
        except Exception:  # refused: IllegalAction or a shape the parser does not take
            return None
        to_dict = getattr(parsed, "to_dict", None)
        return dict(to_dict()) if callable(to_dict) else dict(parsed)

    return read


def seat_form(
    spectator: Spectator, seat: int, legal: Any, observation: Mapping[str, Any]
) -> tuple[dict[str, Any], SeatCard]:
    """The form of ``seat``'s decision ``legal`` (its question in the variant's plain words,
    the seat itself and its teammates marked on every target) and the seat's card."""
    card = spectator.seat_card(observation)
    names = Names(observed_names(observation), seat_marks(seat, card.teammates))
    question = spectator.question(legal) or legal.describe()
    return decision_form(legal.form_schema(), _reader(legal), names, question), card


class PageRequests:
    """A browser seat's open request, told to its page's ``listeners`` as it opens and closes
    (the request, or None once it is answered or given up)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.listeners: list[Listener] = []
        self._requests: Awaiting[dict[str, Any]] = Awaiting(
            self._notify, on_close=self._notify, label=f"seat {seat}"
        )

    @property
    def request(self) -> dict[str, Any] | None:
        """The open request as published to the page, or None."""
        pending = self._requests.pending
        return pending.request if pending is not None else None

    def _notify(self, _: dict[str, Any]) -> None:
        request = self.request
        for listener in list(self.listeners):
            listener(request)


class WebHumanSeat(PageRequests, BaseParticipant):
    """The participant of a human seat; see the module docstring."""

    renders_prompts = False
    decision_timeout: float

    def __init__(self, seat: int, timeout: float = DEFAULT_HUMAN_TIMEOUT) -> None:
        super().__init__(seat)
        self.decision_timeout = timeout

    def describe(self) -> str:
        """``human:browser``: a resumed game must not hand this seat to the terminal."""
        return BROWSER_AGENT

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> Any:
        legal = request.legal
        observation = _jsonable(request.observation)
        describe = legal.describe()
        form, card = seat_form(spectator_of(request.variant), self.seat, legal, observation)

        def published(request_id: int) -> dict[str, Any]:
            return {
                "request_id": request_id,
                "seat": self.seat,
                "kind": request.kind,
                "describe": describe,
                "valid_actions": legal.to_wire(),
                "schema": legal.schema(),
                "form": form,
                "knows": card.to_dict(),
                "observation": observation,
                "hint": request.hint,
                "attempt": request.attempt,
                "timeout": self.decision_timeout,
                "deadline": time.time() + self.decision_timeout,
            }

        return await self._requests.ask(published)

    def answer(self, request_id: int, action: Any) -> None:
        """Hand in the action for the open decision ``request_id``; raises StaleAnswer."""
        self._requests.answer(request_id, action)
