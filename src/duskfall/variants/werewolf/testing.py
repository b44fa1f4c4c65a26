"""What a Werewolf seat may not know, randomised (for the test kit's no-leak check)."""

from __future__ import annotations

import copy
import random

from duskfall.core.events import Event, visible_to
from duskfall.core.variant import State
from duskfall.variants.werewolf.events import Cause
from duskfall.variants.werewolf.facts import FACTS
from duskfall.variants.werewolf.roles import WEREWOLF
from duskfall.variants.werewolf.rules import WerewolfState
from duskfall.variants.werewolf.units import UNITS


def scramble_hidden(state: State, seat: int, rng: random.Random) -> WerewolfState:
    """A copy of ``state`` with everything ``seat`` may not know randomised.

    Roles are shuffled among the seats whose role ``seat`` does not know (keeping the side of
    seats its private events taught it, such as a check's result); other seats' secrets
    (potions, the roles' night choices, the wolves' target, pending answers, hidden events) are
    replaced by random values.
    ``observe(seat)`` must not change.
    """
    if not isinstance(state, WerewolfState):
        raise TypeError(f"not a werewolf game: {type(state).__name__}")
    new = copy.deepcopy(state)
    n = state.num_seats
    role = state.role_of[seat]
    known = {seat}
    if role == WEREWOLF or state.outcome() is not None:
        known |= {s for s in range(n) if state.is_wolf[s]} if role == WEREWOLF else set(range(n))
    known |= {e.payload["seat"] for e in state.events if e.kind == "hunter_shot"}
    known |= set(state.revealed)  # roles shown to everybody (by a role's exile hook)
    team_known = _sides_learnt(state, seat)
    groups: dict[bool | None, list[int]] = {}
    for s in range(n):
        if s not in known:
            groups.setdefault(team_known.get(s), []).append(s)
    for members in groups.values():
        roles = [new.role_of[s] for s in members]
        rng.shuffle(roles)
        for s, r in zip(members, roles, strict=True):
            new.role_of[s] = r
    living = state._living() or (seat,)
    if role != WEREWOLF:
        new._attacked = rng.choice(living)  # a role told of it keeps it in its notes
    for unit in UNITS.values():
        if unit.name != role:
            unit.scramble(new, rng)  # what only a unit's holder knows
    new._night_deaths = [(rng.choice(living), Cause.WOLVES.value)]
    new._legal = {}  # choices are rebuilt from the scrambled state
    for other, kind in state._asks.items():
        if other != seat and other in state._answers:
            new._answers[other] = state._choice(other, kind).sample(rng)
    channels = state.channels(seat)
    for i, event in enumerate(new.events):
        if not visible_to(event, seat, channels):
            new.events[i] = Event(
                event.kind, {"scrambled": rng.random()}, event.visibility, event.day, event.phase
            )
    new._derive()  # every seat's history is rebuilt from the scrambled events
    return new


def _sides_learnt(state: WerewolfState, seat: int) -> dict[int, bool]:
    """The players whose side ``seat``'s own private events taught it (player -> evil?)."""
    channels = state.channels(seat)
    sides: dict[int, bool] = {}
    for event in state.events:
        if visible_to(event, seat, channels):
            learnt = FACTS.learnt(event.kind, event.payload)
            if learnt is not None:
                sides.update(learnt.checks)
    return sides
