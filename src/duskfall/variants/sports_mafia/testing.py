"""What a sports-mafia seat may not know, randomised (for the test kit's no-leak check)."""

from __future__ import annotations

import copy
import random

from duskfall.core.variant import State
from duskfall.variants.sports_mafia.roles import BLACK, BLACK_ROLES, CITIZEN, DON, RED, SHERIFF
from duskfall.variants.sports_mafia.rules import SportsMafiaState


def _shuffle_roles(state: SportsMafiaState, seats: list[int], rng: random.Random) -> None:
    roles = [state.role_of[s] for s in seats]
    rng.shuffle(roles)
    for seat, role in zip(seats, roles, strict=True):
        state.role_of[seat] = role


def scramble_hidden(state: State, seat: int, rng: random.Random) -> SportsMafiaState:
    """A copy where other seats' unknown roles and others' check results are random."""
    if not isinstance(state, SportsMafiaState):
        raise TypeError(f"not a sports-mafia game: {type(state).__name__}")
    other = copy.deepcopy(state)
    role = state.role_of[seat]
    others = [s for s in range(state.num_seats) if s != seat]
    if role in BLACK_ROLES:
        # Black knows its team; red roles (who is the sheriff) are hidden, except seats the
        # don has checked (for the don itself).
        red = [s for s in others if state.role_of[s] not in BLACK_ROLES]
        known = set(state.don_checks) if role == DON else set()
        _shuffle_roles(other, [s for s in red if s not in known], rng)
    elif role == SHERIFF:
        checked = set(state.sheriff_checks)
        _shuffle_roles(other, [s for s in others if s not in checked], rng)
        for team_roles in (BLACK_ROLES, frozenset((CITIZEN,))):
            _shuffle_roles(
                other, [s for s in others if s in checked and state.role_of[s] in team_roles], rng
            )
    else:
        _shuffle_roles(other, others, rng)
    if role != DON:
        other.don_checks = {t: rng.random() < 0.5 for t in state.don_checks}
    if role != SHERIFF:
        other.sheriff_checks = {t: rng.choice((RED, BLACK)) for t in state.sheriff_checks}
    return other
