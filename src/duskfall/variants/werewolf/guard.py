"""The Guard (a god of seed 004): each night he protects one living player (himself included)
from the werewolves' attack, never the same player two nights running, or nobody; protection
does not stop poison. A player both guarded and saved by the antidote survives, or dies where
the table says so (``guarded_and_saved``: the unit that saves settles it, as for any shielded
seat).

Everything about him is here: his rules text, power and coaching hint, his night choice
(question, targets, how it shields, what he remembers at dawn, how a bot picks), his view
(``last_guarded``), the typed model, line and mark of ``guard_action``, and what the no-leak
check randomises of what only he knows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from duskfall.core.events import seats_visibility
from duskfall.core.spectator import mark, night_of
from duskfall.variants.werewolf.events import WerewolfEvent
from duskfall.variants.werewolf.role_unit import (
    Mind,
    Night,
    NightChoice,
    Obs,
    RoleUnit,
    said,
    saver_in_play,
)

GUARD = "Guard"
KIND = "GUARD"
_TONIGHT, _LAST = "Guard tonight", "Guard last night"  # his notes


class GuardAction(WerewolfEvent):
    kind: ClassVar[str] = "guard_action"
    sub_phase: str | None = KIND
    seat: int
    target: int | None


def _targets(night: Night, seat: int) -> tuple[int, ...]:
    last = night.notes.get(_LAST)
    return tuple(s for s in night.living() if s != last)


def _resolve(night: Night, seat: int, target: int | None) -> None:
    night.notes[_TONIGHT] = target
    if target is not None:
        night.shielded.add(target)
    night.emit(GuardAction.kind, seats_visibility([seat]), KIND, seat=seat, target=target)


def _settle(night: Night, deaths: dict[int, str]) -> None:
    """Tonight's protection is last night's tomorrow (nobody's if he did not act)."""
    night.notes[_LAST] = night.notes.pop(_TONIGHT, None)


def _bot(obs: Obs, targets: Sequence[int], mind: Mind) -> int | None:
    """Protect the checker it trusts, else the sheriff, else itself."""
    for choice in (mind.trusted_checker(obs), obs["sheriff"], mind.seat):
        if choice in targets:
            return choice
    return None


def _scramble(state: Any, rng: random.Random) -> None:
    seat = rng.choice(state.living() or (0,))
    state.notes[_LAST] = state.notes[_TONIGHT] = seat
    state.shielded = {seat}


def _rules(obs: Obs) -> list[str]:
    guard = (
        "- The Guard protects one living player (itself included) from the werewolves' "
        "attack, never the same player two nights running; protection does not stop poison."
    )
    if saver_in_play(obs):
        fate = "survives" if obs["rules"]["guarded_and_saved"] == "survives" else "dies"
        guard += f" A player both guarded and saved by the antidote {fate}."
    return [guard]


GUARD_UNIT = RoleUnit(
    GUARD,
    god=True,
    night=30,
    power=said(
        "Each night you protect one living player (yourself included) from the werewolves' "
        "attack, never the same player two nights running. Protection does not stop poison."
    ),
    strategy="Protect the player the werewolves most want dead (a revealed {checker}, the "
    "sheriff), and vary your protection, since no player can be protected two nights running.",
    night_rules=_rules,
    view=lambda state, seat: {"last_guarded": state.notes.get(_LAST)},
    lines={GuardAction.kind: lambda p, n: f"[guard] {n(p['seat'])} protects {n(p['target'])}"},
    marks={
        GuardAction.kind: lambda e: mark(
            e.payload.get("target"), "guarded", f"guarded, {night_of(e)}"
        )
    },
    events=(GuardAction,),
    choice=NightChoice(
        KIND,
        "Whom do you protect tonight (not the same player two nights running)?",
        _resolve,
        targets=_targets,
        none_word="nobody",
        settle=_settle,
        bot=_bot,
        mode="protect",
    ),
    scramble=_scramble,
)
