"""API-contract and determinism checks: what every variant's Variant and State must do."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from duskfall.core.errors import IllegalAction, MissingDependency
from duskfall.core.events import ADMIN, PUBLIC, Event
from duskfall.core.rng import derive_rng
from duskfall.core.variant import Decision, State, Variant, VariantInfo
from duskfall.testing.playouts import play_random_game

REQUIRED_ATTRIBUTES = ("id", "name", "teams", "team_aliases", "config_model", "info")
JUNK_ACTIONS: tuple[Any, ...] = ({"type": "NOT_A_REAL_ACTION"}, "not an action", {"target": 10_000})

_VALIDATORS: dict[str, Any] = {}


def _validator(schema: dict[str, Any]) -> Any:
    """A checked JSON-schema validator per distinct schema (games repeat their schemas)."""
    key = json.dumps(schema, sort_keys=True)
    validator = _VALIDATORS.get(key)
    if validator is None:
        try:
            jsonschema = importlib.import_module("jsonschema")
        except ImportError:
            raise MissingDependency("jsonschema", "test") from None
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = _VALIDATORS[key] = jsonschema.Draft202012Validator(schema)
    return validator


def json_roundtrip(value: Any) -> Any:
    """``value`` through JSON and back (raises if it is not plain JSON)."""
    return json.loads(json.dumps(value))


def check_visibility(event: Event, num_seats: int) -> None:
    """``event.visibility`` is well-formed and names only existing seats."""
    vis = event.visibility
    if vis in (PUBLIC, ADMIN):
        return
    scope, _, rest = vis.partition(":")
    assert scope in ("team", "seats") and rest, f"bad visibility {vis!r} on {event.kind}"
    if scope == "seats":
        seats = [int(s) for s in rest.split(",")]
        assert all(0 <= s < num_seats for s in seats), f"{vis!r} names a missing seat"


def check_variant_attributes(variant: Variant) -> None:
    """The static description: required attributes, ``info``, random and heuristic bots."""
    for name in REQUIRED_ATTRIBUTES:
        assert hasattr(variant, name), f"the Variant lacks {name!r}"
    assert isinstance(variant.info, VariantInfo), "Variant.info must be a VariantInfo"
    assert {"random", "heuristic"} <= set(variant.bots()), "needs random and heuristic bots"


def _check_wire(variant: Variant, decision: Decision, legal: Any, actions: list[Any]) -> None:
    """A client rebuilds the same legal actions from the request (``info.wire``)."""
    codec = variant.info.wire
    if codec is None:
        return
    wire = json_roundtrip(legal.to_wire())
    state_ext = codec.legal_state(legal)
    if state_ext is not None:
        assert json_roundtrip(state_ext) == state_ext, "legal_state is not plain JSON"
        assert set(state_ext) == {"kind", "fields"}, "legal_state must be {kind, fields}"
        state_ext = json_roundtrip(state_ext)
    rebuilt = codec.legal_from_wire(decision.kind, wire, state_ext)
    assert rebuilt.to_wire() == legal.to_wire(), "legal_from_wire gives other valid_actions"
    for action in actions:
        rebuilt.parse(json_roundtrip(action.to_dict()))


def _check_decision(variant: Variant, state: State, decision: Decision, rng: random.Random) -> None:
    legal = state.legal(decision.seat)
    assert legal.kind == decision.kind, f"legal().kind {legal.kind!r} != {decision.kind!r}"
    validator = _validator(legal.schema())
    json_roundtrip(legal.to_wire())
    assert isinstance(legal.describe(), str) and legal.describe(), "describe() is empty"
    actions = [legal.sample(rng) for _ in range(3)]
    for action in actions:
        wire = json_roundtrip(action.to_dict())
        validator.validate(wire)
        assert legal.parse(wire) == action, "to_dict/parse do not round-trip"
    legal.parse(legal.default(rng).to_dict())  # the fallback is always legal
    _check_wire(variant, decision, legal, actions)
    obs = state.observe(decision.seat)
    assert json_roundtrip(obs) == obs, "the observation is not plain JSON"


def _check_out_of_turn(state: State, pending: list[Decision], rng: random.Random) -> None:
    pending_seats = {d.seat for d in pending}
    others = [s for s in range(state.num_seats) if s not in pending_seats]
    if not others:
        return
    seat = rng.choice(others)
    try:
        state.legal(seat)
    except IllegalAction as exc:
        assert exc.code == "not_your_turn", f"legal() of a waiting seat: code {exc.code!r}"
    else:
        raise AssertionError("legal() for a seat that is not pending must raise")
    try:
        state.apply(seat, state.legal(pending[0].seat).sample(rng))
    except IllegalAction:
        pass
    else:
        raise AssertionError("apply() for a seat that is not pending must raise")


def _check_junk(state: State, seat: int) -> None:
    for junk in JUNK_ACTIONS:
        try:
            state.legal(seat).parse(junk)
        except IllegalAction as exc:
            assert exc.hint, "an IllegalAction needs a hint"
        except Exception as exc:
            raise AssertionError(f"parse({junk!r}) raised {exc!r}, not IllegalAction") from exc


def check_api_game(variant: Variant, config: Mapping[str, Any], seed: int) -> None:
    """One random game, checking the State contract at every decision and at the end."""
    rng = derive_rng(seed, "kit-api")

    def at_decision(state: State) -> None:
        pending = list(state.pending())
        assert len({d.seat for d in pending}) == len(pending), "a seat is pending twice"
        for decision in pending:
            _check_decision(variant, state, decision, rng)
        _check_out_of_turn(state, pending, rng)
        _check_junk(state, pending[0].seat)

    game = play_random_game(variant, config, seed, on_decision=at_decision)
    state = game.state
    for event in game.events:
        check_visibility(event, state.num_seats)
        assert event.source == "rules", f"{event.kind}: rules events have source 'rules'"
        json_roundtrip(event.to_dict())
    assert state.outcome() is not None and not state.pending(), "ended with seats pending"
    assert set(state.roles()) == set(range(state.num_seats)), "roles() must cover every seat"
    alive = state.alive()
    assert isinstance(alive, list) and all(0 <= s < state.num_seats for s in alive), (
        "state.alive() must return the living seats"
    )
    for seat in range(state.num_seats):
        assert state.team_of(seat) in variant.teams, f"team_of({seat}) is not a team"
        assert isinstance(state.channels(seat), frozenset), "channels() must be a frozenset"


def check_api(variant: Variant, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]) -> None:
    """The Variant/State contract, over random games of every config."""
    check_variant_attributes(variant)
    seed_list = list(seeds)
    for config in configs:
        for seed in seed_list:
            check_api_game(variant, config, seed)


def check_determinism(
    variant: Variant, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]
) -> None:
    """The same config and seed give the same events."""
    seed_list = list(seeds)
    for config in configs:
        for seed in seed_list:
            first = play_random_game(variant, config, seed).events
            second = play_random_game(variant, config, seed).events
            assert [e.to_dict() for e in first] == [e.to_dict() for e in second], (
                f"seed {seed} played twice gives different events"
            )
