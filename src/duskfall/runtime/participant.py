"""The Participant protocol (seed 004), and the adapter that makes a bot a participant.

A participant returns a raw string (an LLM's reply, a human's input, a remote client's JSON),
or an already-parsed action. One that declares ``renders_prompts = False`` is never shown
prompts; with ``reads_history = True`` it is still given ``entries`` (a person's terminal
shows them its own way). Programmatic bots are :class:`duskfall.core.bot.Bot` (synchronous
``act``): the handler calls them directly, and :class:`BotParticipant` wraps one where a
participant is needed.

``extra`` always carries:

* ``decision``: the :class:`~duskfall.core.Decision` (seat and kind);
* ``observation``: the seat's view (a lazy mapping: built on first access);
* ``legal``: the :class:`~duskfall.core.LegalActions` of the seat;
* ``schema``: the JSON schema to ask a model for the action in (the legal view's LLM form,
  :func:`duskfall.core.llm_form.llm_schema`), lazily: call ``extra["schema"].get()``;
* ``prompt_kit``: the variant's :class:`~duskfall.core.prompting.PromptKit` (or None);
* ``entries``: with a prompt kit, every rules event the seat could see so far, flattened,
  oldest first, for a participant that renders prompts or reads the history (else None);
* ``hint``: on a retry, why the previous answer was refused;
* ``attempt``: 0 for the first ask, then 1, 2, ...
* ``game_id``, ``variant``: which game this is; ``day``, ``phase``: where it stands;
* ``emit``: a callable taking an :class:`~duskfall.core.Event` to record (e.g. an ``admin``
  ``llm_call`` event with the prompt, reply, tokens and cost; set ``source`` to ``llm``/``agent``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, runtime_checkable

from duskfall.core.bot import Bot


@runtime_checkable
class Participant(Protocol):
    """A player that makes decisions; see the module docstring for ``extra``."""

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any: ...


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


class BotParticipant:
    """A :class:`~duskfall.core.bot.Bot` as a :class:`Participant` (no prompts rendered)."""

    renders_prompts = False

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any:
        return self.bot.act(extra["observation"], extra["legal"])

    def describe(self) -> str:
        return self.bot.describe()
