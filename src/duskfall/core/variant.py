"""The Variant / State contract every game implements, and the registry that finds variants.

Modelled on OpenSpiel's Game/State split and python-chess's legal-move view:

* a :class:`Variant` is the static description and the factory ``new_game(config, seed)``;
* a :class:`State` is a plain, deterministic state machine: ``pending()`` says who must decide
  now (several seats at once where the rules allow simultaneity), ``legal(seat)`` gives the
  legal actions (also as a JSON schema), ``apply`` changes the state and returns events,
  ``observe(seat)`` is the *only* place a seat's view is built, ``outcome()`` says who won.

Simultaneous decisions are applied one at a time (in any order); the rules resolve them when
the last pending one arrives. ``apply_all`` applies a batch in ascending seat order.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome


@dataclass(frozen=True, slots=True)
class Decision:
    """Seat ``seat`` must make a decision of ``kind`` (a sub-phase id such as ``VOTING``)."""

    seat: int
    kind: str


@runtime_checkable
class Action(Protocol):
    """A small typed value; ``to_dict()`` is its wire form (``{"type": ..., ...}``)."""

    def to_dict(self) -> dict[str, Any]: ...


class LegalActions(Protocol):
    """The legal actions of one seat for one decision (python-chess's legal-move view)."""

    kind: str

    def schema(self) -> dict[str, Any]:
        """JSON schema that every legal action's ``to_dict()`` satisfies."""
        ...

    def parse(self, data: Any) -> Any:
        """Turn a decoded JSON value (or an action) into a legal action; raise IllegalAction."""
        ...

    def default(self, rng: random.Random) -> Any:
        """The documented fallback: abstain/skip where legal, else a random legal action."""
        ...

    def sample(self, rng: random.Random) -> Any:
        """A random legal action."""
        ...

    def to_wire(self) -> dict[str, Any]:
        """``valid_actions`` as sent over the wire protocol."""
        ...

    def describe(self) -> str:
        """The choices in plain words, for prompts and human players."""
        ...


class State(Protocol):
    """A game in progress. Pure and synchronous: no I/O, no clock, randomness seeded."""

    variant_id: str
    num_seats: int
    day: int
    phase: str

    def opening_events(self) -> list[Event]:
        """Events of the deal (roles, teams), emitted once before the first decision."""
        ...

    def pending(self) -> Sequence[Decision]: ...

    def legal(self, seat: int) -> LegalActions: ...

    def apply(self, seat: int, action: Any) -> list[Event]: ...

    def apply_all(self, actions: Mapping[int, Any]) -> list[Event]: ...

    def observe(self, seat: int) -> dict[str, Any]: ...

    def outcome(self) -> Outcome | None: ...

    def channels(self, seat: int) -> frozenset[str]:
        """Private channels (teams, role chats) whose events this seat sees."""
        ...

    def roles(self) -> dict[int, str]:
        """Every seat's role (god view only)."""
        ...

    def team_of(self, seat: int) -> str: ...

    def alive(self) -> list[int]: ...


class Variant(Protocol):
    """Static description of a game and the factory of its states."""

    id: str
    name: str
    teams: tuple[str, ...]
    team_aliases: Mapping[str, str]
    config_model: type[BaseModel]

    def new_game(self, config: BaseModel, seed: int) -> State: ...

    def render_prompts(
        self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
    ) -> tuple[str, str]:
        """System and user prompt for one decision, built from the seat's view only."""
        ...

    def format_event(self, event: Event) -> str | None:
        """One line for the terminal (god view), or None to skip the event."""
        ...

    def bots(self) -> Mapping[str, Any]:
        """Built-in programmatic agents: name -> factory(seat, rng) -> Bot."""
        ...


_REGISTRY: dict[str, str] = {
    "sports-mafia": "duskfall.variants.sports_mafia:VARIANT",
    "werewolf": "duskfall.variants.werewolf:VARIANT",
    "mafia": "duskfall.variants.mafia:VARIANT",
}


def register_variant(variant_id: str, target: str) -> None:
    """Register a variant lazily as ``"package.module:ATTRIBUTE"``."""
    _REGISTRY[variant_id] = target
    _LOADED.pop(variant_id, None)


def variant_ids() -> list[str]:
    """Ids of the variants that are installed and importable."""
    found = []
    for vid, target in _REGISTRY.items():
        module = target.partition(":")[0]
        if importlib.util.find_spec(module) is not None:
            found.append(vid)
    return found


_LOADED: dict[str, Variant] = {}


def get_variant(variant_id: str) -> Variant:
    """Find a variant by id; a wrong id raises ConfigError listing the valid ones."""
    loaded = _LOADED.get(variant_id)
    if loaded is not None:
        return loaded
    target = _REGISTRY.get(variant_id)
    if target is None or variant_id not in variant_ids():
        raise ConfigError(
            f"unknown variant {variant_id!r}; valid variants: {', '.join(variant_ids())}"
        )
    module_name, _, attr = target.partition(":")
    variant: Variant = getattr(importlib.import_module(module_name), attr)
    _LOADED[variant_id] = variant
    return variant


def parse_config(variant: Variant, data: Mapping[str, Any] | None) -> BaseModel:
    """Validate a config mapping for ``variant``; errors become one clear ConfigError."""
    from pydantic import ValidationError

    try:
        return variant.config_model.model_validate(dict(data or {}))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'config'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid {variant.id} config: {problems}") from None
