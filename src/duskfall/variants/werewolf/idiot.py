"""The Idiot (a god of the common rule sets): the first time the village exiles him, he shows
his card instead of dying: he stays in the game and keeps speaking, but votes no more. A second
exile, a night kill or the poison kill him as anyone else.

Everything about him is here: his rules text and power for the prompts, his coaching hint,
what his view shows (``revealed``), the typed model, line, mark and reveal of
``idiot_revealed``, and the exile hook that reveals him (the rules then leave him out of the
exile votes).
"""

from __future__ import annotations

from typing import Any, ClassVar

from duskfall.core.events import PUBLIC
from duskfall.core.spectator import mark
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.events import WerewolfEvent
from duskfall.variants.werewolf.role_unit import Obs, RoleUnit, Table, in_play, said

IDIOT = "Idiot"


class IdiotRevealed(WerewolfEvent):
    """The village exiled the Idiot for the first time: he shows his card and stays."""

    kind: ClassVar[str] = "idiot_revealed"
    sub_phase: str | None = P.VOTE
    seat: int


def _exiled(table: Table, seat: int) -> bool:
    """The first exile reveals him (he lives on without a vote); a second one kills him."""
    if seat in table.revealed:
        return True
    table.revealed[seat] = IDIOT
    table.voteless.add(seat)
    table.emit(IdiotRevealed.kind, PUBLIC, P.VOTE, seat=seat)
    return False


def _day_rules(obs: Obs) -> list[str]:
    if not in_play(obs, IDIOT):
        return []
    return [
        "- The first time the village exiles the Idiot, he shows his card instead: he stays in "
        "the game and keeps speaking, but votes no more. Exiled again, or killed at night, he "
        "dies."
    ]


def _view(state: Any, seat: int) -> dict[str, Any]:
    return {"revealed": seat in state.revealed}


IDIOT_UNIT = RoleUnit(
    IDIOT,
    god=True,
    power=said(
        "You have no power at night. The first time the village exiles you, you show your "
        "card and stay in the game, speaking but no longer voting."
    ),
    strategy="Speak boldly and push your reads: an exile only reveals you the first time, and "
    "a revealed Idiot is a voice the whole village trusts.",
    day_rules=_day_rules,
    view=_view,
    lines={
        "idiot_revealed": lambda p, n: (
            f"{n(p['seat'])} is the Idiot: shown the card, he stays in the game without a vote."
        )
    },
    reveals={"idiot_revealed": lambda p: {int(p["seat"]): IDIOT}},
    marks={
        "idiot_revealed": lambda e: mark(
            e.payload.get("seat"), "revealed", f"the Idiot, revealed on day {e.day}: no vote"
        )
    },
    exiled=_exiled,
    events=(IdiotRevealed,),
)
