"""Roles, teams, presets and the check-bot's tables of Werewolf, as data: the roles are the
units of :mod:`duskfall.variants.werewolf.units` (each declared in one place); the tables
that deal several roles are listed here, so that a role's module names no other role."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from duskfall.variants.werewolf.classic_roles import HUNTER, VILLAGER, WEREWOLF
from duskfall.variants.werewolf.guard import GUARD
from duskfall.variants.werewolf.role_unit import VILLAGE_TEAM, WOLF_TEAM, RoleUnit
from duskfall.variants.werewolf.seer import SEER
from duskfall.variants.werewolf.units import UNITS
from duskfall.variants.werewolf.witch import WITCH

__all__ = ["GUARD", "HUNTER", "SEER", "VILLAGER", "WEREWOLF", "WITCH", "RoleUnit", "unit_of"]

ROLES: tuple[str, ...] = tuple(UNITS)
GODS: frozenset[str] = frozenset(name for name, unit in UNITS.items() if unit.god)
UNIQUE_ROLES: frozenset[str] = GODS

TEAMS: tuple[str, ...] = (VILLAGE_TEAM, WOLF_TEAM)

TEAM_ALIASES: dict[str, str] = {
    "werewolf": WOLF_TEAM,
    "werewolves": WOLF_TEAM,
    "wolf": WOLF_TEAM,
    "wolves": WOLF_TEAM,
    "village": VILLAGE_TEAM,
    "good": VILLAGE_TEAM,
    "town": VILLAGE_TEAM,
}

PRESETS: dict[str, tuple[str, ...]] = {
    "werewolf-12": (WEREWOLF,) * 4 + (VILLAGER,) * 4 + (SEER, WITCH, HUNTER, GUARD),
    "werewolf-9": (WEREWOLF,) * 3 + (VILLAGER,) * 3 + (SEER, WITCH, HUNTER),
    "werewolf-6": (WEREWOLF,) * 2 + (VILLAGER,) * 2 + (SEER, WITCH),
}
DEFAULT_PRESET = "werewolf-12"
LIST_EXAMPLE = (WEREWOLF, WEREWOLF, SEER)  # how a custom role list starts, in the config's help

KIT_GAMES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("werewolf-witch", (WITCH, WEREWOLF, WEREWOLF, SEER, VILLAGER, VILLAGER), "witch"),
    ("werewolf-hunter", (HUNTER, WEREWOLF, WEREWOLF, SEER, WITCH, VILLAGER, VILLAGER), "hunter"),
    ("werewolf-badge", (VILLAGER, WEREWOLF, WEREWOLF, SEER, WITCH, VILLAGER, VILLAGER), "badge"),
    ("werewolf-wolf", (WEREWOLF, WEREWOLF, SEER, WITCH, VILLAGER, VILLAGER), "spare"),
)
"""The check-bot's games of the table's own decisions: name, roles dealt in order (the program
at seat 0) and what the steering bots aim at."""
CHECK_TABLE: tuple[str, ...] = (WEREWOLF, WEREWOLF, SEER, VILLAGER, VILLAGER, VILLAGER)
"""The other roles of the check-bot's game of a role's own night choice (that role at seat 0),
unless :data:`CHECK_TABLES` gives the role its own (a role this table deals already)."""
CHECK_TABLES: dict[str, tuple[str, ...]] = {SEER: (WEREWOLF, WEREWOLF, WITCH, VILLAGER, VILLAGER)}

MIN_SEATS = 4
MAX_SEATS = 18

DEFAULT_NAMES: tuple[str, ...] = (
    "Ada", "Bram", "Cleo", "Dax", "Edda", "Finn", "Greta", "Hugo", "Iris",
    "Jonas", "Kira", "Lars", "Mira", "Nils", "Olga", "Piet", "Runa", "Sven",
)  # fmt: skip


def unit_of(role: str) -> RoleUnit:
    """The unit of ``role`` (a canonical role name)."""
    return UNITS[role]


def team_of_role(role: str) -> str:
    return UNITS[role].team


def canonical_role(name: str) -> str:
    """``"seer"``, ``"Seers"``, ``"werewolves"`` -> the canonical role name, else ValueError."""
    key = name.strip().lower()
    for role, unit in UNITS.items():
        if key in (role.lower(), role.lower() + "s", role.lower() + "es", unit.plural_name.lower()):
            return role
    raise ValueError(f"unknown role {name!r}; roles are {', '.join(ROLES)}")


def check_role_list(roles: Sequence[str]) -> None:
    """Raise ValueError saying what is wrong with a custom role list."""
    if not MIN_SEATS <= len(roles) <= MAX_SEATS:
        raise ValueError(f"a game needs {MIN_SEATS} to {MAX_SEATS} roles, got {len(roles)}")
    counts = Counter(roles)
    if counts[WEREWOLF] == 0:
        raise ValueError("the role list needs at least one Werewolf")
    if counts[WEREWOLF] * 2 >= len(roles):
        raise ValueError("werewolves must be fewer than half of the players")
    for role in UNIQUE_ROLES:
        if counts[role] > 1:
            raise ValueError(f"at most one {role} per game, got {counts[role]}")


def plural(role: str) -> str:
    return UNITS[role].plural_name


def describe_counts(counts: Mapping[str, int]) -> str:
    """``"4 Werewolves, 4 Villagers, Seer, Witch"`` in role order."""
    parts = []
    for role in ROLES:
        n = counts.get(role, 0)
        if n == 1:
            parts.append(role)
        elif n > 1:
            parts.append(f"{n} {plural(role)}")
    return ", ".join(parts)
