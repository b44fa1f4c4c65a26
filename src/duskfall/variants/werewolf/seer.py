"""The Seer (a god of seed 004): each night he checks one other living player and learns
whether they are Good or a Werewolf; only he learns the result.

Everything about him is here: his rules text, power and coaching hint, his night choice
(question, how a check applies, how a bot picks), his view (``checks``),
the typed model, line and mark of ``seer_action`` and what it teaches him in the common facts,
how he claims his role in speech (``claim``: the bots read, trust and fake such claims), and
what the no-leak check randomises of what only he knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from duskfall.core.events import Event, seats_visibility
from duskfall.core.facts import Learnt
from duskfall.core.planted import PrivateFact
from duskfall.core.spectator import mark, night_of
from duskfall.variants.werewolf.events import WerewolfEvent
from duskfall.variants.werewolf.role_unit import Mind, Night, NightChoice, Obs, RoleUnit, said

SEER = "Seer"
KIND = "SEER"


class SeerResult(StrEnum):
    GOOD = "Good"
    WEREWOLF = "Werewolf"


class SeerAction(WerewolfEvent):
    """The Seer's check tonight and its result (seen by him alone)."""

    kind: ClassVar[str] = "seer_action"
    sub_phase: str | None = KIND
    seat: int
    target: int
    result: SeerResult


def _checks(state: Any, seat: int) -> dict[str, Any]:
    checks = state.notes.get(SEER, ())
    return {"checks": [{"night": n, "target": t, "result": r} for n, t, r in checks]}


def _check(night: Night, seat: int, target: int | None) -> None:
    assert target is not None  # the Seer must choose
    result = SeerResult.WEREWOLF.value if night.is_wolf[target] else SeerResult.GOOD.value
    night.notes[SEER] = (*night.notes.get(SEER, ()), (night.day, target, result))
    night.emit(SeerAction.kind, seats_visibility([seat]), KIND, seat=seat, target=target,
               result=result)  # fmt: skip


def _believe_check(state: Any, payload: Mapping[str, Any], value: str) -> None:
    """The Seer's record of the check ``payload`` tells now says ``value``."""
    target, told = payload.get("target"), payload.get("result")
    checks = list(state.notes.get(SEER, ()))
    for index in range(len(checks) - 1, -1, -1):
        night, checked, result = checks[index]
        if checked == target and result == told:
            checks[index] = (night, checked, value)
            state.notes[SEER] = tuple(checks)
            return
    raise ValueError(f"the Seer has no check of seat {target} to change")


SEER_CHECK = PrivateFact(
    SeerAction.kind,
    "check",
    "result",
    {
        "good": SeerResult.GOOD.value,
        "evil": SeerResult.WEREWOLF.value,
        "werewolf": SeerResult.WEREWOLF.value,
        "wolf": SeerResult.WEREWOLF.value,
    },
    _believe_check,
)
"""The Seer's check result, which a fork may tell otherwise (``--set-result SEQ=good|evil``)."""


def _next_check(obs: Obs, targets: Sequence[int], mind: Mind) -> int | None:
    """The heuristic Seer's next check: a counter-claimant, then who accused it, then anyone
    unknown."""
    checked = {c["target"] for c in obs["checks"]}
    legal = set(targets)
    fresh = legal - checked
    reading = mind.reading
    against = reading.votes_against({mind.seat})
    order = [c for c in reading.claims if c != mind.seat]
    order += sorted(against, key=lambda s: (-against[s], s))
    order += sorted(reading.suspecters_of({mind.seat}))
    for seat in order:
        if seat in fresh:
            return int(seat)
    return int(mind.rng.choice(sorted(fresh or legal)))


def _check_mark(event: Event) -> list[dict[str, Any]]:
    result = event.payload.get("result")
    return mark(event.payload.get("target"), "checked", f"checked: {result}, {night_of(event)}")


def _learnt(payload: Mapping[str, Any]) -> Learnt | None:
    if not isinstance(payload.get("target"), int):
        return None
    evil = str(payload["result"]).lower() == "werewolf"
    return Learnt(checks={payload["target"]: evil})


def _scramble(state: Any, rng: random.Random) -> None:
    living = state.living() or (0,)
    state.notes[SEER] = ((1, rng.choice(living), rng.choice(list(SeerResult)).value),)


SEER_UNIT = RoleUnit(
    SEER,
    god=True,
    night=31,
    power=said(
        "Each night you check one other living player and learn whether they are Good or a "
        "Werewolf; only you learn the result."
    ),
    strategy="Check the players whose side matters most (loud speakers, sheriff candidates) "
    "and reveal your results when they can swing a vote: once you claim, the werewolves hunt "
    "you.",
    night_rules=lambda obs: [
        "- The Seer checks one other living player and learns whether they are Good or a Werewolf."
    ],
    view=_checks,
    lines={
        SeerAction.kind: lambda p, n: (
            f"[seer] {n(p['seat'])} checks {n(p['target'])}: {p['result']}"
        ),
    },
    marks={SeerAction.kind: _check_mark},
    learnt={SeerAction.kind: _learnt},
    claim="I am the Seer.",
    events=(SeerAction,),
    private_facts=(SEER_CHECK,),
    choice=NightChoice(
        KIND,
        "Whose identity do you check tonight?",
        _check,
        bot=_next_check,
        mode="inspect",
    ),
    scramble=_scramble,
)
