"""Roles as data: who is on which side, who chats with whom, and the default deal."""

from __future__ import annotations

from dataclasses import dataclass

from duskfall.core.errors import ConfigError

TOWN = "town"
MAFIA_TEAM = "mafia"

MAFIA = "MAFIA"
DOCTOR = "DOCTOR"
SHERIFF = "SHERIFF"
VIGILANTE = "VIGILANTE"
VILLAGER = "VILLAGER"


@dataclass(frozen=True, slots=True)
class Role:
    """One role: its side, the private channel its holders share, and what it does."""

    name: str
    team: str
    channel: str | None
    description: str


ROLES: dict[str, Role] = {
    MAFIA: Role(
        MAFIA,
        MAFIA_TEAM,
        "mafia",
        "Each night the mafia talk in private and vote on one player to kill.",
    ),
    DOCTOR: Role(
        DOCTOR,
        TOWN,
        "doctors",
        "Each night protect one player from the mafia's kill; never the same player two "
        "nights in a row (yourself included).",
    ),
    SHERIFF: Role(
        SHERIFF,
        TOWN,
        "sheriffs",
        "Each night investigate one player and learn their exact roles.",
    ),
    VIGILANTE: Role(
        VIGILANTE,
        TOWN,
        "vigilantes",
        "Once per game, shoot one player at night; a doctor cannot stop the shot.",
    ),
    VILLAGER: Role(VILLAGER, TOWN, None, "No night action: find the mafia by talking and voting."),
}

# Night order of the acting roles (seed 000): mafia, doctors, sheriffs, vigilantes.
NIGHT_ORDER: tuple[str, ...] = (MAFIA, DOCTOR, SHERIFF, VIGILANTE)


RoleSet = tuple[str, ...]


def team_of_roles(roles: RoleSet) -> str:
    """Mafia side if MAFIA is among the roles, else town."""
    return MAFIA_TEAM if MAFIA in roles else TOWN


def role_label(roles: RoleSet) -> str:
    """``MAFIA+DOCTOR`` style label."""
    return "+".join(roles)


def parse_role_entry(entry: str, allow_multi_role: bool) -> RoleSet:
    """One player's roles from ``"DOCTOR"`` or ``"mafia+doctor"``, in canonical order."""
    names = [part.strip().upper() for part in entry.split("+")]
    unknown = [n for n in names if n not in ROLES]
    if unknown or not names:
        raise ConfigError(
            f"unknown role {unknown[0] if unknown else entry!r} in {entry!r}; "
            f"roles are {', '.join(ROLES)}"
        )
    if len(set(names)) != len(names):
        raise ConfigError(f"role entry {entry!r} repeats a role")
    if len(names) > 1:
        if not allow_multi_role:
            raise ConfigError(
                f"role entry {entry!r} combines roles; set allow_multi_role to true to allow it"
            )
        if VILLAGER in names:
            raise ConfigError(f"role entry {entry!r}: VILLAGER cannot be combined with a role")
    order = list(ROLES)
    return tuple(sorted(names, key=order.index))


def default_deal(players: int) -> list[RoleSet]:
    """floor(n/4) Mafia, a Doctor, a Sheriff, a Vigilante from 6 players, the rest Villagers."""
    if players < 5:
        raise ConfigError(
            f"the default deal needs at least 5 players (got {players}); "
            "give an explicit 'roles' list for smaller games"
        )
    mafia: list[RoleSet] = [(MAFIA,)] * (players // 4)
    deal = [*mafia, (DOCTOR,), (SHERIFF,)]
    if players >= 6:
        deal.append((VIGILANTE,))
    deal += [(VILLAGER,)] * (players - len(deal))
    return deal
