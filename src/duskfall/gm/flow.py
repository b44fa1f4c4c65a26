"""Walking a card's skeleton: the deal, who is still to act, and the next phase.

Pure functions over :class:`~duskfall.gm.state.GMState` (whose ``roles``, ``round``,
``phase``, ``acted`` and ``out`` come from the ``deal``, ``phase``, ``turn`` and ``out``
events), so a resumed game walks on from where its log stopped.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from duskfall.gm.skeleton import PhaseSpec, Skeleton
from duskfall.gm.state import GMState
from duskfall.gm.texts import Texts


def deal(skeleton: Skeleton, names: Sequence[str], rng: random.Random) -> dict[str, str]:
    """Each player's role, shuffled by ``rng``."""
    deck = skeleton.deck()
    rng.shuffle(deck)
    return dict(zip(names, deck, strict=True))


def known_roles(skeleton: Skeleton, roles: dict[str, str], name: str) -> dict[str, str]:
    """The roles ``name`` learns at the deal: its own, then the players its role knows."""
    own = roles[name]
    known_roles = skeleton.role(own).knows
    known = {p: role for p, role in roles.items() if role in known_roles and p != name}
    return {name: own, **known}


def role_message(skeleton: Skeleton, roles: dict[str, str], name: str, texts: Texts) -> str:
    """What ``name`` is told at the deal: its role, and the players its role knows."""
    own = roles[name]
    lines = [texts.role_secret.format(role=own)]
    known = [p for p in known_roles(skeleton, roles, name) if p != name]
    if known:
        lines.append(
            texts.known_secret.format(
                roles=texts.joiner.join(skeleton.role(own).knows), names=texts.joiner.join(known)
            )
        )
    return " ".join(lines)


def living(state: GMState) -> list[str]:
    return [name for name in state.players if name not in state.out]


def current(skeleton: Skeleton, state: GMState) -> PhaseSpec | None:
    return skeleton.phases[state.phase] if state.phase >= 0 else None


def actors(skeleton: Skeleton, state: GMState) -> list[str]:
    """Who acts in the current phase (living players holding its roles, or its leader; first
    the players just announced out, in a phase with last words)."""
    phase = current(skeleton, state)
    if phase is None:
        return []
    alive = living(state)
    if phase.last_words:
        alive = [*state.out_now, *alive]
    if phase.leader:
        return [alive[(state.round - 1) % len(alive)]] if alive else []
    if not phase.actors:
        return alive
    return [name for name in alive if state.roles.get(name) in phase.actors]


def still_to_act(skeleton: Skeleton, state: GMState) -> list[str]:
    """The players the GM may pick now; empty once the phase is done."""
    phase = current(skeleton, state)
    if phase is None:
        return []
    picks = phase.picks_in(state.round)
    if picks is not None and len(state.acted) >= picks:
        return []
    return [name for name in actors(skeleton, state) if name not in state.acted]


def next_phase(skeleton: Skeleton, state: GMState) -> tuple[int, int]:
    """The (round, phase index) after the current one."""
    if state.phase < 0:
        return 1, 0
    if state.phase + 1 < len(skeleton.phases):
        return state.round, state.phase + 1
    return state.round + 1, 0


def rounds_done(skeleton: Skeleton, state: GMState) -> int:
    """Rounds fully played."""
    last = state.phase == len(skeleton.phases) - 1 and not still_to_act(skeleton, state)
    return state.round if last else max(0, state.round - 1)
