"""What a variant puts on the wire, collected from its own rules: every decision kind with its
action schema and ``valid_actions``, and every event a seat may be sent.

The legal views give each decision's exact schema (``legal.schema()``, the one the server's
strict check holds an answer to); a kind's schema is those of every view met in random games
(the variant's ``info.kit.catalog`` configs x :data:`SEEDS`, chosen so that every kind of
every variant is met), each
generalised (a list of seats becomes "an integer") and merged. Events are the rules' own,
as the server forwards them (``GAME_EVENT`` frames), for every visibility but ``admin``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.events import ADMIN, Event
from duskfall.core.legal import LegalActions
from duskfall.core.rng import derive_rng
from duskfall.core.variant import State, Variant, parse_config
from duskfall.protocol.json_schema import Shape, generalize, merge
from duskfall.protocol.strict import wire_action_schema
from duskfall.server.broadcast import game_event_message

SEEDS = range(40)
MAX_STEPS = 20_000


@dataclass
class Decision:
    """One decision kind as the views met show it."""

    schema: dict[str, Any] | None = None  # generalised and merged legal.schema()
    valid_actions: Shape = field(default_factory=Shape)
    # the largest to_wire() met, per action types the view allows (a vote, an eliminate-all)
    examples: dict[tuple[str, ...], dict[str, Any]] = field(default_factory=dict)

    def add(self, legal: LegalActions) -> None:
        schema = legal.schema()
        general = generalize(schema)
        self.schema = general if self.schema is None else merge(self.schema, general)
        wire = legal.to_wire()
        self.valid_actions.add(wire)
        types = action_types(schema)
        if types not in self.examples or len(repr(wire)) > len(repr(self.examples[types])):
            self.examples[types] = wire

    def example(self, action_type: str | None = None) -> dict[str, Any]:
        """The largest ``valid_actions`` met for decisions allowing ``action_type``."""
        for types, wire in self.examples.items():
            if action_type is None or action_type in types:
                return wire
        return next(iter(self.examples.values()))

    @property
    def action(self) -> dict[str, Any]:
        """The JSON Schema of an answer's ``action`` for this kind."""
        assert self.schema is not None
        return wire_action_schema(self.schema)


@dataclass
class Catalog:
    """A variant's decision kinds and events, in order of first appearance."""

    variant: Variant
    decisions: dict[str, Decision] = field(default_factory=dict)
    events: dict[str, Shape] = field(default_factory=dict)
    visibility: dict[str, set[str]] = field(default_factory=dict)  # who may see each event

    def note_state(self, state: State) -> None:
        for decision in state.pending():
            self.decisions.setdefault(decision.kind, Decision()).add(state.legal(decision.seat))

    def note_events(self, events: Iterable[Event]) -> None:
        for event in events:
            if event.visibility == ADMIN:
                continue
            frame = game_event_message(event.kind, event.payload, "g")
            frame["seq"] = 1
            self.events.setdefault(event.kind, Shape()).add(frame)
            self.visibility.setdefault(event.kind, set()).add(_audience(event.visibility))


def action_types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """The ``type`` values a decision's schema allows (over its branches)."""
    found: list[str] = []
    for branch in schema.get("anyOf") or schema.get("oneOf") or [schema]:
        prop = branch.get("properties", {}).get("type", {})
        values = [prop["const"]] if "const" in prop else prop.get("enum", [])
        found += [str(v) for v in values if str(v) not in found]
    return tuple(found)


def _audience(visibility: str) -> str:
    if visibility.startswith("team:"):
        return "team"
    if visibility.startswith("seats:"):
        return "seats"
    return visibility


def walk(
    variant: Variant,
    config: Mapping[str, Any],
    seed: int,
    visit: Callable[[State], None],
    on_events: Callable[[list[Event]], None],
) -> None:
    """One game of random legal actions (``derive_rng(seed, "catalog")``), ``visit`` before
    every decision and ``on_events`` with every batch of rules events."""
    state = variant.new_game(parse_config(variant, config), seed)
    on_events(list(state.opening_events()))
    rng = derive_rng(seed, "catalog")
    for _ in range(MAX_STEPS):
        if state.outcome() is not None:
            return
        pending = state.pending()
        visit(state)
        decision = pending[rng.randrange(len(pending))]
        on_events(state.apply(decision.seat, state.legal(decision.seat).sample(rng)))
    raise RuntimeError(f"{variant.id} seed {seed}: no end within {MAX_STEPS} decisions")


def collect(
    variant: Variant,
    configs: Iterable[Mapping[str, Any]] | None = None,
    seeds: Iterable[int] = SEEDS,
) -> Catalog:
    """The catalog of ``variant`` from random games of ``configs`` x ``seeds`` (by default
    its ``info.kit.catalog`` configs and a table dealing every role the variant declares)."""
    catalog = Catalog(variant)
    seed_list = list(seeds)
    if configs is None:
        configs = [*variant.info.kit.catalog, *every_role(variant)]
    for config in configs:
        for seed in seed_list:
            walk(variant, config, seed, catalog.note_state, catalog.note_events)
    return catalog


def every_role(variant: Variant) -> list[dict[str, Any]]:
    """A table dealing each role the variant declares once (``{"roles": [...]}``), if its
    config takes a role list: a role added to a variant brings its events and decisions into
    the catalog without being named here."""
    if not variant.info.roles:
        return []
    config = {"roles": list(variant.info.roles)}
    try:
        parse_config(variant, config)
    except ConfigError:
        return []
    return [config]
