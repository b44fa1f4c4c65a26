"""The Bodyguard (a god): each night he protects one other living player; if the werewolves
attack that player and nobody else saves them (a protection, the antidote), the
Bodyguard dies in their place and they live. He cannot protect himself; protection does not
stop poison.

Everything about him is here: his rules text, power and coaching hint for the prompts, his
night choice (question, legal targets, how it applies, what it does at dawn, how a bot
picks), the typed model, line and mark of ``bodyguard_action``, and what the
no-leak check randomises of what only he knows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from duskfall.core.events import seats_visibility
from duskfall.core.spectator import mark, night_of
from duskfall.variants.werewolf.events import Cause, WerewolfEvent
from duskfall.variants.werewolf.role_unit import (
    Mind,
    Night,
    NightChoice,
    Obs,
    RoleUnit,
    in_play,
    said,
)

BODYGUARD = "Bodyguard"
KIND = "BODYGUARD"


class BodyguardAction(WerewolfEvent):
    """The Bodyguard's protection tonight (seen by him alone)."""

    kind: ClassVar[str] = "bodyguard_action"
    sub_phase: str | None = KIND
    seat: int
    target: int


def _resolve(night: Night, seat: int, target: int | None) -> None:
    assert target is not None  # he must choose a seat
    night.notes[BODYGUARD] = (night.day, seat, target)
    night.emit(BodyguardAction.kind, seats_visibility([seat]), KIND, seat=seat, target=target)


def _settle(night: Night, deaths: dict[int, str]) -> None:
    """The wolves' kill of his protected player falls on him instead."""
    note = night.notes.get(BODYGUARD)
    if note is None:
        return
    day, seat, target = note
    if day == night.day and night.attacked == target and deaths.get(target) == Cause.WOLVES:
        del deaths[target]
        deaths.setdefault(seat, Cause.WOLVES.value)  # poisoned as well: the poison killed him


def _bot(obs: Obs, targets: Sequence[int], mind: Mind) -> int | None:
    """Protect the checker it trusts, else the sheriff, else anyone (at random)."""
    for seat in (mind.trusted_checker(obs), obs["sheriff"]):
        if seat in targets:
            return seat
    return None


def _scramble(state: Any, rng: random.Random) -> None:
    if in_play({"roles_in_play": state.roles_in_play}, BODYGUARD):
        living = state.living() or (0,)
        state.notes[BODYGUARD] = (state.day, rng.choice(living), rng.choice(living))


BODYGUARD_UNIT = RoleUnit(
    BODYGUARD,
    god=True,
    night=35,
    power=said(
        "Each night you protect one other living player. If the werewolves attack them and "
        "nobody else saves them, you die in their place and they live. You cannot protect "
        "yourself, and protection does not stop poison."
    ),
    strategy="Protect the player the werewolves most want dead (a credible {checker}, the "
    "sheriff): your life for theirs is a good trade for the village.",
    night_rules=lambda obs: [
        "- The Bodyguard protects one other living player: if the werewolves attacked "
        "that player and nobody else saved them, the Bodyguard dies in their place and they "
        "live. Protection does not stop poison."
    ],
    lines={
        BodyguardAction.kind: lambda p, n: f"[bodyguard] {n(p['seat'])} protects {n(p['target'])}"
    },
    marks={
        BodyguardAction.kind: lambda e: mark(
            e.payload.get("target"), "guarded", f"bodyguarded, {night_of(e)}"
        )
    },
    events=(BodyguardAction,),
    choice=NightChoice(
        KIND,
        "Whom do you protect tonight (you die in their place if the werewolves attack them)?",
        _resolve,
        settle=_settle,
        bot=_bot,
        mode="protect",
    ),
    scramble=_scramble,
)
