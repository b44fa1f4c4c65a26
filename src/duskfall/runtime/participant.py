"""The Participant protocol (seed 004) and the base class of programmatic bots.

A participant returns a raw string (an LLM's reply, a human's input, a remote client's JSON).
Programmatic bots may return an already-parsed action instead, and declare
``renders_prompts = False`` so that no prompt is ever rendered for them.

``extra`` always carries:

* ``decision``: the :class:`~duskfall.core.Decision` (seat and kind);
* ``observation``: the seat's view (a lazy mapping: built on first access);
* ``legal``: the :class:`~duskfall.core.LegalActions` of the seat;
* ``schema``: the JSON schema of a legal action, lazily: call ``extra["schema"].get()``;
* ``hint``: on a retry, why the previous answer was refused;
* ``attempt``: 0 for the first ask, then 1, 2, ...
* ``game_id``, ``variant``: which game this is; ``day``, ``phase``: where it stands;
* ``emit``: a callable taking an :class:`~duskfall.core.Event` to record (e.g. an ``admin``
  ``llm_call`` event with the prompt, reply, tokens and cost; set ``source`` to ``llm``/``agent``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, runtime_checkable

from duskfall.core import bot as core_bot
from duskfall.core.variant import LegalActions


@runtime_checkable
class Participant(Protocol):
    """A player that makes decisions; see the module docstring for ``extra``."""

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any: ...


class LazyObservation(Mapping[str, Any]):
    """A seat's observation, built by ``observe`` on first access and then cached."""

    __slots__ = ("_build", "_data")

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
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
        return self._get()


class Bot(core_bot.Bot):
    """Base of programmatic agents: implement :meth:`act`; no prompts are rendered for them.

    Each bot is created per seat and game with its own seeded ``rng``, so games are
    reproducible; bots may keep state across decisions.
    """

    renders_prompts = False
    name = "bot"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        raise NotImplementedError

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> Any:
        return self.act(extra["observation"], extra["legal"])

    def describe(self) -> str:
        return self.name
