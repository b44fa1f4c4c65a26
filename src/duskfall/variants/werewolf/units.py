"""Every Werewolf role, as its unit (:class:`~duskfall.variants.werewolf.role_unit.RoleUnit`),
in the order the roles are listed (roles in play, presets, prompts), and the typed model of every
event kind the rules emit: the table's and each unit's."""

from __future__ import annotations

from duskfall.core.planted import PrivateFact
from duskfall.core.typed_event import event_types
from duskfall.variants.werewolf.bodyguard import BODYGUARD_UNIT
from duskfall.variants.werewolf.classic_roles import (
    HUNTER_UNIT,
    VILLAGER_UNIT,
    WEREWOLF_UNIT,
    WITCH_UNIT,
)
from duskfall.variants.werewolf.events import TABLE_EVENTS, WerewolfEvent
from duskfall.variants.werewolf.guard import GUARD_UNIT
from duskfall.variants.werewolf.idiot import IDIOT_UNIT
from duskfall.variants.werewolf.role_unit import RoleUnit
from duskfall.variants.werewolf.seer import SEER_UNIT

UNITS: dict[str, RoleUnit] = {
    unit.name: unit
    for unit in (
        WEREWOLF_UNIT,
        VILLAGER_UNIT,
        SEER_UNIT,
        WITCH_UNIT,
        HUNTER_UNIT,
        GUARD_UNIT,
        IDIOT_UNIT,
        BODYGUARD_UNIT,
    )
}

CHOICES: dict[str, RoleUnit] = {
    u.choice.kind: u
    for u in sorted(UNITS.values(), key=lambda u: u.night or 0)
    if u.choice is not None
}
"""The units that decide at night on their own, by decision kind, in night order."""

CHECKER: RoleUnit = next(u for u in UNITS.values() if u.claim)
"""The role whose holder checks players at night and claims it in speech with the results (its
unit's ``claim``): the bots read, trust and fake such claims, the common facts count them, and
other units' prose names it ``{checker}``."""


def strategy_of(unit: RoleUnit) -> str:
    """A unit's coaching hint, the roles it names by what they do filled in (``{checker}``)."""
    return unit.strategy.format(checker=CHECKER.name)


PRIVATE_FACTS: dict[str, PrivateFact] = {
    fact.kind: fact for unit in UNITS.values() for fact in unit.private_facts
}
"""The private results a fork may tell a seat otherwise, by event kind (the units' own)."""

EVENT_TYPES: dict[str, type[WerewolfEvent]] = event_types(
    (*TABLE_EVENTS, *(m for u in UNITS.values() for m in u.events))
)
