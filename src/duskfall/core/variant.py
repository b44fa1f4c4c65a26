"""The Variant / State contract every game implements, and the typed capabilities of a variant.

Modelled on OpenSpiel's Game/State split and python-chess's legal-move view:

* a :class:`Variant` is the static description and the factory ``new_game(config, seed)``;
* a :class:`State` is a plain, deterministic state machine: ``pending()`` says who must decide
  now (several seats at once where the rules allow simultaneity), ``legal(seat)`` gives the
  legal actions (also as a JSON schema), ``apply`` changes the state and returns events,
  ``observe(seat)`` is the *only* place a seat's view is built, ``outcome()`` says who won.

Simultaneous decisions are applied one at a time (in any order); the rules resolve them when
the last pending one arrives. ``apply_all`` applies a batch in ascending seat order.

Variants are found by :mod:`duskfall.core.registry`; a seat's legal actions are
:mod:`duskfall.core.legal`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from duskfall.core.events import Event
from duskfall.core.facts import GameFacts
from duskfall.core.kit_entries import KitEntries
from duskfall.core.learning import Learning
from duskfall.core.legal import LegalActions
from duskfall.core.outcome import Outcome
from duskfall.core.planted import PrivateFact
from duskfall.core.prompting import PromptKit
from duskfall.core.spectator import Spectator
from duskfall.core.terminal_form import TerminalForm
from duskfall.core.validation import validated


@dataclass(frozen=True, slots=True)
class Decision:
    """Seat ``seat`` must make a decision of ``kind`` (a sub-phase id such as ``VOTING``)."""

    seat: int
    kind: str


class State(Protocol):
    """A game in progress. Pure and synchronous: no I/O, no clock, randomness seeded."""

    @property
    def variant_id(self) -> str: ...

    @property
    def num_seats(self) -> int: ...

    @property
    def day(self) -> int: ...

    @property
    def phase(self) -> str: ...

    def opening_events(self) -> list[Event]:
        """Events of the deal (roles, teams), emitted once before the first decision."""
        ...

    def pending(self) -> Sequence[Decision]: ...

    def legal(self, seat: int) -> LegalActions: ...

    def apply(self, seat: int, action: Any) -> list[Event]: ...

    def apply_all(self, actions: Mapping[int, Any]) -> list[Event]: ...

    def observe(self, seat: int) -> Mapping[str, Any]:
        """The seat's view (plain JSON data; read-only), built by the variant's ``view.py``."""
        ...

    def outcome(self) -> Outcome | None: ...

    def channels(self, seat: int) -> frozenset[str]:
        """Private channels (teams, role chats) whose events this seat sees."""
        ...

    def roles(self) -> dict[int, str]:
        """Every seat's role (god view only)."""
        ...

    def team_of(self, seat: int) -> str: ...

    def alive(self) -> list[int]: ...


class WireCodec(Protocol):
    """How a client rebuilds a variant's legal actions from an ``ACTION_REQUEST``.

    ``valid_actions`` is the seed's wire form; ``legal_state`` is duskfall's additive extension
    (plain JSON ``{"kind": NAME, "fields": {...}}`` where NAME is one the variant declares; no
    Python paths cross the wire). It holds only what the seat is being asked. ``observation``
    is the type of a request's observation (the ``TypedDict`` of the variant's ``view.py``),
    or None if the variant does not declare one.
    """

    observation: type[Any] | None

    def legal_state(self, legal: LegalActions) -> dict[str, Any] | None:
        """The JSON extension for ``legal``, or None if this legal view has none."""
        ...

    def legal_from_wire(
        self,
        phase: str,
        valid_actions: Mapping[str, Any],
        legal_state: Mapping[str, Any] | None,
    ) -> LegalActions:
        """The legal actions behind a request; raise ValueError if they cannot be read."""
        ...


@runtime_checkable
class TypedEvent(Protocol):
    """A rules event as its typed model: made from the plain event, and back."""

    def to_event(self) -> Event: ...


class EventModel(Protocol):
    """The typed model of one event kind (a class; its class methods do this)."""

    def from_event(self, event: Event, /) -> TypedEvent:
        """The plain event's model (ValueError if its payload does not fit)."""
        ...

    def wire_schema(self) -> dict[str, Any]:
        """The JSON Schema of the payload fields, as a ``GAME_EVENT`` frame carries them."""
        ...


@dataclass(frozen=True)
class VariantInfo:
    """A variant's optional capabilities, declared once (nobody probes a variant with getattr).

    * ``presets``: named role lists (``werewolf-6``...);
    * ``sequential_kinds``: decision kinds whose pending seats are asked one at a time
      (speeches); all others are asked concurrently;
    * ``render_view``: the seat's situation in words, for a person at the terminal (a variant
      without a ``prompt_kit``; with one, the person is shown the kit's pieces);
    * ``format_history_entry``: one line of a seat's history (entry, observation), likewise;
    * ``scramble_hidden``: a copy of a state with everything hidden from ``seat`` re-dealt,
      used by the no-leak check of the test kit;
    * ``wire``: how clients read the variant's legal actions back from the wire;
    * ``prompt_kit``: the pieces of its LLM prompts (:mod:`duskfall.core.prompting`), from
      which every LLM seat's prompt is composed, and a person's view at the terminal;
    * ``terminal_form``: how a person at the terminal enters a decision, question by question
      (:mod:`duskfall.core.terminal_form`; None for a decision answered in one line);
    * ``spectator``: how its events look to a spectator (lines, reveals, marks, ballots) and
      what a seat knows (:mod:`duskfall.core.spectator`);
    * ``facts``: what its events and views say in the common form metrics and agents read
      (votes, kills, claims, lessons, decision modes; :mod:`duskfall.core.facts`);
    * ``learning``: its learning encoder, for the PettingZoo environments
      (:mod:`duskfall.core.learning`; None: no environment);
    * ``event_types``: the typed model of every event kind its rules emit (empty: not
      declared); the kit checks every event of random games converts to it and back;
    * ``roles``: the names of the roles it deals (empty: not declared);
    * ``role_named``: the name of a role as people write it (``villagers`` -> ``Villager``), or
      ValueError naming the roles;
    * ``kit``: its entries in the agent writer's kit (check-bot games and rows, catalog
      tables; :mod:`duskfall.core.kit_entries`);
    * ``private_facts``: the private results a fork may tell a seat otherwise, by event kind
      (:mod:`duskfall.core.planted`; empty: none).
    """

    presets: Mapping[str, Sequence[str]] = field(default_factory=dict)
    sequential_kinds: frozenset[str] = frozenset()
    render_view: Callable[[Mapping[str, Any]], str] | None = None
    format_history_entry: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None] | None = None
    scramble_hidden: Callable[[State, int, random.Random], State] | None = None
    wire: WireCodec | None = None
    prompt_kit: PromptKit | None = None
    terminal_form: Callable[[Mapping[str, Any], Any], TerminalForm | None] | None = None
    spectator: Spectator = field(default_factory=Spectator)
    facts: GameFacts = field(default_factory=GameFacts)
    learning: Learning | None = None
    event_types: Mapping[str, EventModel] = field(default_factory=dict)
    roles: tuple[str, ...] = ()
    role_named: Callable[[str], str] | None = None
    kit: KitEntries = field(default_factory=KitEntries)
    private_facts: Mapping[str, PrivateFact] = field(default_factory=dict)


class Variant(Protocol):
    """Static description of a game and the factory of its states."""

    id: str
    name: str
    teams: tuple[str, ...]
    team_aliases: Mapping[str, str]
    config_model: type[BaseModel]
    info: VariantInfo

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


def parse_config(variant: Variant, data: Mapping[str, Any] | None) -> BaseModel:
    """Validate a config mapping for ``variant``; errors become one clear ConfigError."""
    return validated(variant.config_model, data or {}, f"{variant.id} config")
