"""Scripted play for mafia rule tables: fixed seats, chosen actions, the rest by default."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.variants.mafia.actions import Choose, Say
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.rules import MafiaState

# A script maps a decision kind to a function (state, seat) -> action, or to a per-seat
# mapping of targets; None means "use the quiet default" below.
Script = Mapping[str, Callable[[MafiaState, int], Any] | Mapping[int, int | None]]


def game(roles: list[str], seed: int = 0, **options: Any) -> MafiaState:
    """A game with ``roles`` dealt in seat order (no shuffle)."""
    config = MafiaConfig(roles=roles, shuffle_roles=False, allow_multi_role=True, **options)
    state = MafiaState(config, seed)
    state.opening_events()
    return state


def quiet(state: MafiaState, seat: int) -> Any:
    """Silent chat, abstain or pass where allowed, else the first legal target."""
    legal = state.legal(seat)
    if isinstance(legal, SayChoice):
        return Say("")
    assert isinstance(legal, TargetChoice)
    if legal.pass_type:
        return Choose(legal.pass_type)
    return Choose(legal.action_type, legal.targets[0])


def _action(state: MafiaState, seat: int, kind: str, script: Script) -> Any:
    rule = script.get(kind)
    if rule is None:
        return quiet(state, seat)
    if callable(rule):
        return rule(state, seat)
    if seat not in rule:
        return quiet(state, seat)
    legal = state.legal(seat)
    assert isinstance(legal, TargetChoice)
    target = rule[seat]
    return Choose(legal.pass_type if target is None else legal.action_type, target)  # type: ignore[arg-type]


def drive(
    state: MafiaState,
    script: Script | None = None,
    *,
    until: Callable[[MafiaState], bool] | None = None,
    trace: list[tuple[int, str]] | None = None,
) -> list[Event]:
    """Play until ``until(state)`` holds or the game ends; return the rules events.

    ``trace`` collects ``(day, kind)`` of every decision taken."""
    events: list[Event] = []
    while state.outcome() is None and not (until and until(state)):
        for decision in state.pending():
            if trace is not None:
                trace.append((state.day, decision.kind))
            events += state.apply(
                decision.seat, _action(state, decision.seat, decision.kind, script or {})
            )
    return events


def at(kind: str, day: int = 1) -> Callable[[MafiaState], bool]:
    """Stop when ``kind`` is pending on ``day`` (or the game has moved past that day)."""

    def reached(state: MafiaState) -> bool:
        pending = state.pending()
        return state.day > day or (state.day == day and bool(pending) and pending[0].kind == kind)

    return reached


def turn(kind: str, seat: int) -> Callable[[MafiaState], bool]:
    """Stop when ``seat`` is asked for a ``kind`` decision."""
    return lambda state: any(d.kind == kind and d.seat == seat for d in state.pending())


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def bots_game(
    config: MafiaConfig, seed: int, bot: str = "heuristic"
) -> tuple[MafiaState, list[Event]]:
    """A whole game played by built-in bots acting on observe()/legal()."""
    from duskfall.variants.mafia.bots import BOTS

    state = MafiaState(config, seed)
    events = state.opening_events()
    players = {s: BOTS[bot](s, random.Random(seed * 97 + s)) for s in range(state.num_seats)}
    while state.outcome() is None:
        for decision in state.pending():
            seat = decision.seat
            action = players[seat].act(state.observe(seat), state.legal(seat))
            events += state.apply(seat, action)
    return state, events
