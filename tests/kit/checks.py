"""The checks of the variant test kit."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, PUBLIC, Event
from duskfall.core.outcome import Termination
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import State, Variant, parse_config
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay

ScrambleFn = Callable[[State, int, random.Random], State]


def play_random(
    variant: Variant,
    config: Mapping[str, Any],
    seed: int,
    *,
    on_decision: Callable[[State], None] | None = None,
    max_steps: int = 20_000,
) -> tuple[State, list[Event]]:
    """Play a game with uniformly random legal actions; return the final state and events."""
    state = variant.new_game(parse_config(variant, config), seed)
    events = list(state.opening_events())
    rng = derive_rng(seed, "kit")
    for _ in range(max_steps):
        if state.outcome() is not None:
            return state, events
        pending = state.pending()
        assert pending, "no outcome but nobody to act"
        if on_decision is not None:
            on_decision(state)
        decision = pending[rng.randrange(len(pending))]
        action = state.legal(decision.seat).sample(rng)
        events.extend(state.apply(decision.seat, action))
    raise AssertionError(f"game with seed {seed} did not end within {max_steps} steps")


def _check_visibility(event: Event, num_seats: int) -> None:
    vis = event.visibility
    if vis in (PUBLIC, ADMIN):
        return
    scope, _, rest = vis.partition(":")
    assert scope in ("team", "seats") and rest, f"bad visibility {vis!r} on {event.kind}"
    if scope == "seats":
        seats = [int(s) for s in rest.split(",")]
        assert all(0 <= s < num_seats for s in seats), f"{vis!r} names a missing seat"


_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """A checked validator per distinct schema (checking a schema is slow; games repeat them)."""
    key = json.dumps(schema, sort_keys=True)
    validator = _VALIDATORS.get(key)
    if validator is None:
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = _VALIDATORS[key] = jsonschema.Draft202012Validator(schema)
    return validator


def _json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


@dataclass
class VariantKit:
    """The checks every variant must pass, for one variant id and some configs."""

    variant_id: str
    configs: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    scramble: ScrambleFn | None = None
    playouts: int = 2000
    leak_games: int = 60

    @property
    def variant(self) -> Variant:
        return get_variant(self.variant_id)

    # -- API contract ----------------------------------------------------------------

    def check_api(self, seeds: range = range(30)) -> None:
        variant = self.variant
        for field_name in ("id", "name", "teams", "team_aliases", "config_model"):
            assert hasattr(variant, field_name), f"Variant lacks {field_name}"
        assert {"random", "heuristic"} <= set(variant.bots()), "needs random and heuristic bots"
        for config in self.configs:
            for seed in seeds:
                self._check_api_game(variant, config, seed)

    def _check_api_game(self, variant: Variant, config: Mapping[str, Any], seed: int) -> None:
        rng = derive_rng(seed, "kit-api")

        def at_decision(state: State) -> None:
            pending = state.pending()
            pending_seats = {d.seat for d in pending}
            assert len(pending_seats) == len(pending), "a seat is pending twice"
            for decision in pending:
                legal = state.legal(decision.seat)
                assert legal.kind == decision.kind
                schema = legal.schema()
                validator = _validator(schema)
                _json_roundtrip(legal.to_wire())
                assert isinstance(legal.describe(), str) and legal.describe()
                for _ in range(3):
                    action = legal.sample(rng)
                    wire = _json_roundtrip(action.to_dict())
                    validator.validate(wire)
                    assert legal.parse(wire) == action, "to_dict/parse do not round-trip"
                legal.parse(legal.default(rng).to_dict())  # the fallback is always legal
                obs = state.observe(decision.seat)
                assert _json_roundtrip(obs) == obs, "observation is not plain JSON"
            others = [s for s in range(state.num_seats) if s not in pending_seats]
            if others:
                seat = rng.choice(others)
                try:
                    state.legal(seat)
                except IllegalAction as exc:
                    assert exc.code == "not_your_turn"
                else:
                    raise AssertionError("legal() for a seat that is not pending must raise")
                try:
                    state.apply(seat, state.legal(pending[0].seat).sample(rng))
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("apply() for a seat that is not pending must raise")
            bad = pending[0].seat
            for junk in ({"type": "NOT_A_REAL_ACTION"}, "not an action", {"target": 10_000}):
                try:
                    state.legal(bad).parse(junk)
                except IllegalAction as exc:
                    assert exc.hint, "an IllegalAction needs a hint"
                    continue
                except Exception as exc:
                    raise AssertionError(
                        f"parse({junk!r}) raised {exc!r}, not IllegalAction"
                    ) from exc

        state, events = play_random(variant, config, seed, on_decision=at_decision)
        for event in events:
            _check_visibility(event, state.num_seats)
            assert event.source == "rules"
            _json_roundtrip(event.to_dict())
        outcome = state.outcome()
        assert outcome is not None and not state.pending()
        assert set(state.roles()) == set(range(state.num_seats))
        alive = state.alive()
        assert isinstance(alive, list) and all(0 <= s < state.num_seats for s in alive), (
            "state.alive() must return the living seats"
        )
        for seat in range(state.num_seats):
            assert state.team_of(seat) in variant.teams
            assert isinstance(state.channels(seat), frozenset)

    # -- determinism -------------------------------------------------------------------

    def check_determinism(self, seeds: range = range(10)) -> None:
        variant = self.variant
        for config in self.configs:
            for seed in seeds:
                _, first = play_random(variant, config, seed)
                _, second = play_random(variant, config, seed)
                assert [e.to_dict() for e in first] == [e.to_dict() for e in second]

    def check_runtime_determinism(self, tmp_path: Path, agents: str = "heuristic") -> None:
        """The same config, seed and agents give the same event log through the runtime."""
        for config in self.configs:
            logs = []
            for run in range(2):
                setup = GameSetup(
                    variant=self.variant_id,
                    seed=7,
                    agents=agents,
                    config=config,
                    game_id="determinism",
                    log_path=tmp_path / f"run{run}.jsonl",
                )
                asyncio.run(run_game(setup))
                logs.append([e.to_dict() for e in read_log(setup.log_path).events])
            assert logs[0] == logs[1]

    # -- random playouts ---------------------------------------------------------------

    def check_playouts(self) -> None:
        variant = self.variant
        for config in self.configs:
            for seed in range(self.playouts):
                state, _ = play_random(variant, config, 100_000 + seed)
                outcome = state.outcome()
                assert outcome is not None
                if outcome.termination is Termination.WIN:
                    assert outcome.winner in variant.teams
                else:
                    assert outcome.winner is None

    # -- replay ------------------------------------------------------------------------

    def check_replay(self, tmp_path: Path, agents: str = "random", games: int = 5) -> None:
        for config in self.configs:
            for seed in range(games):
                path = tmp_path / f"replay-{seed}.jsonl"
                setup = GameSetup(
                    variant=self.variant_id, seed=seed, agents=agents, config=config, log_path=path
                )
                asyncio.run(run_game(setup))
                log = read_log(path)
                assert log.finished
                result = replay(log)
                assert result.state.outcome() == log.outcome

    # -- no leak -----------------------------------------------------------------------

    def check_no_leak(self) -> None:
        """Scrambling what a seat may not know never changes its view, choices or prompts."""
        assert self.scramble is not None, "the variant must provide scramble_hidden"
        scramble = self.scramble
        variant = self.variant
        checked = 0
        for config in self.configs:
            for seed in range(self.leak_games):
                rng = derive_rng(seed, "kit-leak")

                def at_decision(state: State, rng: random.Random = rng) -> None:
                    nonlocal checked
                    pending = [d.seat for d in state.pending()]
                    sample = rng.sample(pending, min(2, len(pending)))
                    seats = {*sample, rng.randrange(state.num_seats)}
                    for seat in seats:
                        view = state.observe(seat)
                        other = scramble(state, seat, rng)
                        assert other is not state, "scramble must return a copy"
                        assert other.observe(seat) == view, (
                            f"seat {seat}'s observation depends on hidden information"
                        )
                        if seat in pending:
                            legal, other_legal = state.legal(seat), other.legal(seat)
                            assert legal.to_wire() == other_legal.to_wire()
                            assert legal.describe() == other_legal.describe()
                            assert variant.render_prompts(
                                view, legal, None
                            ) == variant.render_prompts(other.observe(seat), other_legal, None)
                        checked += 1

                play_random(variant, config, seed, on_decision=at_decision)
        assert checked > 0
