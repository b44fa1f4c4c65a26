"""Every Werewolf role, as its unit (:class:`~duskfall.variants.werewolf.role_unit.RoleUnit`),
in the order the roles are listed (roles in play, presets, prompts), and the typed model of every
event kind the rules emit: the table's and each unit's."""

from __future__ import annotations

from typing import Any

from duskfall.core.planted import PrivateFact
from duskfall.core.typed_event import event_types
from duskfall.variants.werewolf.bodyguard import BODYGUARD_UNIT
from duskfall.variants.werewolf.classic_roles import HUNTER_UNIT, VILLAGER_UNIT, WEREWOLF_UNIT
from duskfall.variants.werewolf.events import TABLE_EVENTS, WerewolfEvent
from duskfall.variants.werewolf.guard import GUARD_UNIT
from duskfall.variants.werewolf.idiot import IDIOT_UNIT
from duskfall.variants.werewolf.role_unit import SAVERS, RoleUnit
from duskfall.variants.werewolf.seer import SEER_UNIT
from duskfall.variants.werewolf.witch import WITCH_UNIT

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

SAVERS.update(u.name for u in UNITS.values() if u.saves)
SAVER: RoleUnit = next(u for u in UNITS.values() if u.saves)
"""The role whose holder can save the wolves' victim at night (its unit's ``saves``); other
units' prose names it ``{saver}``."""


def strategy_of(unit: RoleUnit) -> str:
    """A unit's coaching hint, the roles it names by what they do filled in (``{checker}``,
    ``{saver}``)."""
    return unit.strategy.format(checker=CHECKER.name, saver=SAVER.name)


PRIVATE_FACTS: dict[str, PrivateFact] = {
    fact.kind: fact for unit in UNITS.values() for fact in unit.private_facts
}
"""The private results a fork may tell a seat otherwise, by event kind (the units' own)."""

TURNS: dict[str, RoleUnit] = {
    u.turn.kind: u for u in sorted(UNITS.values(), key=lambda u: u.night or 0) if u.turn is not None
}
"""The units with a night turn of their own (:class:`~.role_unit.NightTurn`), by decision
kind, in night order."""

UNIT_CHOICES: tuple[type[Any], ...] = tuple(u.turn.choice for u in TURNS.values() if u.turn)
"""The classes of those turns' legal choices."""

ATTACK_TOLD: frozenset[str] = frozenset(
    u.turn.told for u in TURNS.values() if u.turn and u.turn.told
)
"""The kinds of the events that tell a seat whom the wolves attacked (``target``)."""

MODES: dict[str, str] = {
    **{kind: u.turn.mode for kind, u in TURNS.items() if u.turn},
    **{kind: u.choice.mode for kind, u in CHOICES.items() if u.choice},
}
"""The decision mode (:mod:`duskfall.core.facts`) of every unit's own decision, by kind."""

EVENT_TYPES: dict[str, type[WerewolfEvent]] = event_types(
    (*TABLE_EVENTS, *(m for u in UNITS.values() for m in u.events))
)
