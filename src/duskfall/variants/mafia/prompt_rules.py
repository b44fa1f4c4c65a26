"""A mafia seat's fixed system prompt: the rules of the roles in play, its role, team and allies.

Nothing here changes during a game (no deaths, no results, no advice that depends on the
moment), so a provider can cache the prompt. ``coaching`` adds seed 000's strategy lines for
the seat's roles.
"""

from __future__ import annotations

from collections.abc import Mapping

from duskfall.variants.mafia.prompt_labels import Obs, seats_text
from duskfall.variants.mafia.roles import DOCTOR, MAFIA, ROLES, SHERIFF, VIGILANTE, VILLAGER

ROLE_RULES: dict[str, str] = {
    MAFIA: (
        "MAFIA (mafia side): the mafia know each other. Each night they talk in a private "
        "chat (when two or more are alive), then vote on one player outside the mafia to kill: "
        "most votes wins, a tie is drawn at random. The victim dies at dawn unless a doctor "
        "protected them."
    ),
    DOCTOR: (
        "DOCTOR (town side): each night protects one player (themselves allowed) from the "
        "mafia's kill, never the same player two nights in a row."
    ),
    SHERIFF: (
        "SHERIFF (town side): each night investigates one other player and learns their exact "
        "roles; nobody is investigated twice while someone not yet investigated remains."
    ),
    VIGILANTE: (
        "VIGILANTE (town side): once per game may shoot one player at night; a doctor cannot "
        "stop the shot. At most one vigilante shoots per night."
    ),
    VILLAGER: "VILLAGER (town side): no night action.",
}

SHARED_RULES: dict[str, str] = {
    DOCTOR: (
        "Doctors sharing a private chat talk, then vote: every doctor protects the player "
        "with the most votes (a tie is drawn at random)."
    ),
    SHERIFF: (
        "Sheriffs sharing a private chat talk, then each picks a different player in turn; "
        "they all learn every result."
    ),
    VIGILANTE: "Vigilantes sharing a private chat talk, then decide one by one.",
}

DAY_RULES = (
    "At dawn the night's dead are announced with their roles (not who killed them). By day "
    "the living speak in turn (a speech may name the player it is about and claim a role, "
    "true or not), then all vote at once or abstain: a player is eliminated only if they "
    "alone have the most votes and more than one vote; their roles are then revealed. The "
    "dead no longer act."
)
WIN_RULES = (
    "The town wins when no mafia remains; the mafia win when they are at least as many as "
    "everyone else alive. The game may also stop at a day limit with no winner."
)
MULTI_ROLE_RULES = (
    "Some players hold several roles (such as MAFIA+DOCTOR): they act in every phase of "
    "each role, and are on the mafia side if MAFIA is among them."
)

STRATEGY: dict[str, tuple[str, ...]] = {
    MAFIA: ("Agree with your team on tonight's kill.",),
    DOCTOR: (
        "Coordinate with your fellow doctors on who to protect tonight.",
        "Discuss strategic priorities and try to reach consensus on the protection target.",
        "You can each protect only one player, so coordinate wisely.",
    ),
    SHERIFF: (
        "Coordinate investigations to avoid duplicates.",
        "Split high-suspicion targets between sheriffs.",
        "Share investigation history (some targets are already investigated).",
    ),
    VIGILANTE: (
        "Coordinate shooting decisions to avoid friendly fire; discuss targets and evidence.",
        "Only one vigilante should shoot; agree on who shoots, or all pass.",
    ),
}
SOLO_STRATEGY: dict[str, tuple[str, ...]] = {
    VIGILANTE: ("You have one shot for the whole game: shoot only when you are confident.",),
}
DAY_STRATEGY = (
    "By day, share suspicions, defend yourself, or claim a role.",
    "Never reveal a private chat elsewhere unless it helps your side.",
)
CHANNEL_OF_ROLE = {role.name: role.channel for role in ROLES.values()}
TEAM_NOUN = {
    "mafia": "fellow mafia",
    "doctors": "fellow doctors",
    "sheriffs": "fellow sheriffs",
    "vigilantes": "fellow vigilantes",
}


def _in_play(setup: Mapping[str, int]) -> list[str]:
    return [role for role in ROLES if setup.get(role)]


def _deal_text(setup: Mapping[str, int]) -> str:
    return ", ".join(f"{setup[r]} {r}" for r in _in_play(setup))


def _rules(obs: Obs) -> list[str]:
    setup = obs["setup"]
    acting = [r for r in (MAFIA, DOCTOR, SHERIFF, VIGILANTE) if setup.get(r)]
    lines = [
        "Rules: the game alternates nights and days, starting with night 1. At night the "
        f"roles act in this order: {', '.join(acting)}.",
        *(f"- {ROLE_RULES[r]}" for r in _in_play(setup)),
        *(f"- {SHARED_RULES[r]}" for r in SHARED_RULES if setup.get(r, 0) >= 2),
    ]
    if sum(setup.values()) > len(obs["players"]):
        lines.append(f"- {MULTI_ROLE_RULES}")
    return [*lines, DAY_RULES, WIN_RULES]


def _others(obs: Obs, channel: str | None) -> list[int]:
    """This seat's fellows on ``channel`` (dead ones included: the team is fixed)."""
    members = obs["allies"].get(channel, []) if channel else []
    return [s for s in members if s != obs["seat"]]


def _identity(obs: Obs) -> list[str]:
    roles = obs["roles"]
    noun = "role" if len(roles) == 1 else "roles (you act in every phase of each)"
    lines = [
        f"You are playing Mafia, a social-deduction game, as {obs['name']} (seat {obs['seat']}).",
        f"Your {noun}: {' + '.join(roles)}. You are on the {obs['team']} side.",
    ]
    for channel in obs["allies"]:
        others = _others(obs, channel)
        if others:
            lines.append(
                f"Your {TEAM_NOUN.get(channel, channel)}, who share a private chat with you: "
                f"{seats_text(obs, others)}."
            )
        elif channel == "mafia":
            lines.append("You are the only mafia.")
    return lines


def _strategy(obs: Obs) -> list[str]:
    lines: list[str] = []
    for role in obs["roles"]:
        shared = bool(_others(obs, CHANNEL_OF_ROLE.get(role)))
        lines += STRATEGY.get(role, ()) if shared else SOLO_STRATEGY.get(role, ())
    return [*lines, *DAY_STRATEGY]


def system_text(obs: Obs, *, coaching: bool) -> str:
    """The seat's fixed system prompt (the composer adds the output contract): the table and
    its rules first, the same for every seat (so a prefix cache shares them), then the seat."""
    players = ", ".join(f"{p['name']} (seat {p['seat']})" for p in obs["players"])
    parts = [
        f"Players: {players}.\nRoles dealt: {_deal_text(obs['setup'])}.",
        "\n".join(_rules(obs)),
        "\n".join(_identity(obs)),
    ]
    if coaching:
        parts.append("Strategy hints:\n" + "\n".join(f"- {line}" for line in _strategy(obs)))
    return "\n\n".join(parts)
