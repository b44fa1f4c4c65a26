"""The Participant protocol (seed 004), the request it is asked, and the bot adapter.

A participant's ``decide(system_prompt, user_prompt, request)`` returns a :data:`SeatAnswer`: a
raw string (a human's input), a decoded reply (an LLM's, parsed once by its model), a remote
client's checked JSON, or an already-parsed action. ``request`` is a
frozen :class:`DecisionRequest`: everything about the decision besides the two prompts.

A participant declares how it wants to be asked in three class attributes, with these
defaults in :class:`BaseParticipant` (which every participant of duskfall subclasses):

* ``renders_prompts``: False means it is never shown prompts (``system_prompt`` and
  ``user_prompt`` are empty: nothing is rendered for it);
* ``reads_history``: with True it is given ``request.entries`` even when it renders no
  prompts (a person's terminal shows them its own way);
* ``composes_prompts``: with True it composes its own prompts from ``request.prompt_kit``
  and ``request.entries`` where the variant has a prompt kit: it is given the entries and
  nothing is rendered for it (each decision's prompt is composed once, by the seat);
* ``decision_timeout``: its own deadline in seconds for one decision (None: the runtime's).

``describe()`` names it in the roster; ``watch_game(game_id, log_path)`` may return an
observer that the runtime feeds the seat's visible events (a participant keeping its own
records of the game); the base returns None. ``models()`` declares the models the seat calls
(a :class:`~duskfall.llm.Model` each: the pre-flight check goes through them); the base has
none.

:func:`describe_player` names any player (a participant or a bot) for the roster and the log.
Programmatic bots are :class:`duskfall.core.bot.Bot` (synchronous ``act``): the handler calls
them directly, and :class:`BotParticipant` wraps one where a participant is needed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeAlias, runtime_checkable

from duskfall.core.bot import Bot
from duskfall.core.events import Event
from duskfall.core.legal import Action, LegalActions
from duskfall.core.llm_form import llm_schema
from duskfall.core.prompting import PromptKit
from duskfall.core.variant import Decision
from duskfall.runtime.checking import CheckedAnswer
from duskfall.runtime.parsing import Reply
from duskfall.runtime.record import Observer

Emit = Callable[[Event], None]

SeatAnswer: TypeAlias = str | dict[str, Any] | Reply | CheckedAnswer | Action
"""What ``decide`` returns: a raw text (a model's reply, a person's input), a decoded JSON
object, a :class:`~duskfall.runtime.parsing.Reply` the participant decoded itself, a
:class:`~duskfall.runtime.checking.CheckedAnswer` it already judged, or a typed action."""


def _drop(event: Event) -> None:
    """Where the events of a request asked without a record go."""


@dataclass(frozen=True, kw_only=True)
class DecisionRequest:
    """One decision asked of one seat (the same for every attempt but ``hint``/``attempt``).

    * ``decision``: the seat and the decision kind;
    * ``observation``: the seat's view (a :class:`LazyObservation` from the runtime: built on
      first access);
    * ``legal``: the seat's :class:`~duskfall.core.LegalActions`;
    * ``schema``: the JSON schema to ask a model for the action in (the legal view's LLM form,
      :func:`duskfall.core.llm_form.llm_schema`), built on first access;
    * ``prompt_kit``: the variant's :class:`~duskfall.core.prompting.PromptKit` (or None);
    * ``entries``: with a prompt kit, every rules event the seat could see so far, flattened,
      oldest first, for a participant that renders prompts or reads the history (else None);
    * ``hint``: on a retry, why the previous answer was refused; ``attempt``: 0, then 1, 2...
    * ``game_id``, ``variant`` (its id): which game; ``day``, ``phase``: where it stands
      (None when the asker does not know, e.g. a client over the wire);
    * ``emit``: records an :class:`~duskfall.core.Event` (an ``admin`` ``llm_call`` event with
      the prompt, reply, tokens and cost; set ``source`` to ``llm``/``agent``).
    """

    decision: Decision
    observation: Mapping[str, Any]
    legal: LegalActions
    game_id: str = ""
    variant: str = ""
    day: int | None = None
    phase: str | None = None
    hint: str | None = None
    attempt: int = 0
    prompt_kit: PromptKit | None = None
    entries: Sequence[Mapping[str, Any]] | None = None
    emit: Emit = field(default=_drop, compare=False)

    @property
    def seat(self) -> int:
        return self.decision.seat

    @property
    def kind(self) -> str:
        return self.decision.kind

    @functools.cached_property
    def schema(self) -> dict[str, Any]:
        return llm_schema(self.legal)


@runtime_checkable
class Participant(Protocol):
    """A player that makes decisions (see the module docstring)."""

    @property
    def renders_prompts(self) -> bool: ...

    @property
    def reads_history(self) -> bool: ...

    @property
    def composes_prompts(self) -> bool: ...

    @property
    def decision_timeout(self) -> float | None: ...

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer: ...

    def describe(self) -> str: ...

    def watch_game(self, game_id: str, log_path: Path | None) -> Observer | None: ...


Player: TypeAlias = Participant | Bot
"""Whoever plays a seat: an asynchronous participant, or a synchronous bot."""


class BaseParticipant:
    """The defaults of :class:`Participant`'s declarations; subclass it and write ``decide``."""

    renders_prompts: bool = True
    reads_history: bool = False
    composes_prompts: bool = False
    decision_timeout: float | None = None

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer:
        raise NotImplementedError

    def describe(self) -> str:
        return type(self).__name__

    def watch_game(self, game_id: str, log_path: Path | None) -> Observer | None:
        """An observer the runtime feeds this seat's visible events from now on (or None)."""
        return None

    def models(self) -> tuple[object, ...]:
        """The models this seat calls (each checked once before a game starts); none here."""
        return ()


def describe_player(player: Player) -> str:
    """How a player (a participant or a bot) is named in the roster and the log."""
    return str(player.describe())


class LazyObservation(Mapping[str, Any]):
    """A seat's observation, built by ``observe`` on first access and then cached."""

    __slots__ = ("_build", "_data")

    def __init__(self, build: Callable[[], Mapping[str, Any]]) -> None:
        self._build = build
        self._data: Mapping[str, Any] | None = None

    def _get(self) -> Mapping[str, Any]:
        if self._data is None:
            self._data = self._build()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def to_dict(self) -> dict[str, Any]:
        data = self._get()
        return data if isinstance(data, dict) else dict(data)


class BotParticipant(BaseParticipant):
    """A :class:`~duskfall.core.bot.Bot` as a :class:`Participant` (no prompts rendered)."""

    renders_prompts = False

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer:
        return self.bot.act(request.observation, request.legal)

    def describe(self) -> str:
        return self.bot.describe()
