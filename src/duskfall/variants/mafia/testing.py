"""Randomise everything one seat may not know (for the test kit's no-leak check).

``scramble_hidden(state, seat, rng)`` returns a copy in which other seats' hidden roles are
shuffled (among seats the observer cannot tell apart), other teams' chats, votes and targets,
other seats' private notes and histories, pending secret ballots and the rules' RNG are all
replaced by random values. ``observe(seat)`` must read the same on both.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from duskfall.core.variant import State
from duskfall.variants.mafia.actions import Choose
from duskfall.variants.mafia.roles import ROLES
from duskfall.variants.mafia.rules import Investigation, MafiaState


def scramble_hidden(state: State, seat: int, rng: random.Random) -> MafiaState:
    """A copy of ``state`` that ``seat`` cannot tell from the original."""
    if not isinstance(state, MafiaState):
        raise TypeError(f"not a mafia game: {type(state).__name__}")
    out = copy.deepcopy(state)
    mine = out.channels(seat)
    known = _known_seats(out, seat)
    _shuffle_roles(out, seat, known, rng)
    for channel, log in out.channel_logs.items():
        if channel not in mine:
            out.channel_logs[channel] = [_noise(entry, out, rng) for entry in log]
    for other, log in out.private_logs.items():
        if other != seat:
            out.private_logs[other] = [_noise(entry, out, rng) for entry in log]
    out.investigations = [
        inv if inv in state.known_investigations(seat) else _random_investigation(inv, out, rng)
        for inv in out.investigations
    ]
    for doctor, (night, _target) in list(out.last_protection.items()):
        if doctor != seat and "doctors" not in mine:
            out.last_protection[doctor] = (night, rng.randrange(out.num_seats))
    for vigilante, (night, _target) in list(out.shots.items()):
        if vigilante != seat and "vigilantes" not in mine:
            out.shots[vigilante] = (night, rng.randrange(out.num_seats))
    _scramble_night(out, seat, mine, rng)
    for step in out.steps:
        for other in step.received:
            if other != seat and isinstance(step.received[other], Choose):
                target = rng.choice([None, *out.alive()])
                step.received[other] = Choose(step.received[other].type, target)
    out._index_roles()
    out.rng = random.Random(rng.random())
    out.seed = rng.randrange(2**31)
    return out


def _known_seats(state: MafiaState, seat: int) -> set[int]:
    known = {seat} | {s for s in range(state.num_seats) if not state.living[s]}
    known |= {inv.target for inv in state.known_investigations(seat)}
    return known


def _shuffle_roles(state: MafiaState, seat: int, known: set[int], rng: random.Random) -> None:
    """Permute role sets among seats that look alike to ``seat`` (same roles known of them)."""
    groups: dict[frozenset[str], list[int]] = {}
    for other in range(state.num_seats):
        if other in known:
            continue
        visible = frozenset(
            role.name
            for role in ROLES.values()
            if role.channel in state.channels(seat) and other in state.members(role.channel)
        )
        groups.setdefault(visible, []).append(other)
    for members in groups.values():
        dealt = [state.seat_roles[s] for s in members]
        rng.shuffle(dealt)
        for other, roles in zip(members, dealt, strict=True):
            state.seat_roles[other] = roles
            state.teams[other] = "mafia" if "MAFIA" in roles else "town"


def _noise(entry: dict[str, Any], state: MafiaState, rng: random.Random) -> dict[str, Any]:
    noisy = dict(entry)
    for key, value in entry.items():
        if key in ("says", "name", "target_name"):
            noisy[key] = f"noise-{rng.randrange(10**6)}"
        elif key in ("seat", "target") and isinstance(value, int):
            noisy[key] = rng.randrange(state.num_seats)
    return noisy


def _random_investigation(
    inv: Investigation, state: MafiaState, rng: random.Random
) -> Investigation:
    roles = rng.choice(state.seat_roles)
    return Investigation(inv.night, inv.sheriff, rng.randrange(state.num_seats), roles, inv.shared)


def _scramble_night(state: MafiaState, seat: int, mine: frozenset[str], rng: random.Random) -> None:
    night = state.tonight()
    alive = state.alive()
    for channel, votes in night["votes"].items():
        if channel not in mine:
            for voter in votes:
                votes[voter] = rng.choice(alive)
    if "mafia" not in mine and night["kill"] is not None:
        night["kill"] = rng.choice(alive)
    for doctor in night["protections"]:
        if doctor != seat and "doctors" not in mine:
            night["protections"][doctor] = rng.choice(alive)
    if "sheriffs" not in mine:
        night["assigned"] = [rng.choice(alive) for _ in night["assigned"]]
    shot = night["shot"]
    if shot is not None and shot[0] != seat and "vigilantes" not in mine:
        night["shot"] = (shot[0], rng.choice(alive))
