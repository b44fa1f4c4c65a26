"""A Werewolf seat's system prompt: the rules of the roles in play, and who the seat is.

Built from what never changes during a game (the roster's names, the roles in play, the table's
options, the seat's role and team-mates), so it is the same at every decision of the seat.
Private knowledge that changes (checks, potions, tonight's attack) is in the situation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.variants.werewolf.event_text import namer
from duskfall.variants.werewolf.prompt_labels import player_names
from duskfall.variants.werewolf.role_unit import in_play
from duskfall.variants.werewolf.roles import (
    GODS,
    ROLES,
    VILLAGER,
    WOLF_TEAM,
    describe_counts,
    unit_of,
)
from duskfall.variants.werewolf.units import CHOICES, UNITS, strategy_of

Obs = Mapping[str, Any]


def _wolf_night(obs: Obs) -> str:
    rounds = obs["rules"]["wolf_rounds"]
    again = (
        f"If their votes differ they talk and vote again, up to {rounds} rounds in all; then the "
        if rounds > 1
        else "If their votes differ, the "
    )
    return (
        "- The werewolves know one another. When more than one is alive they first talk "
        "privately, then every living werewolf votes for a living player to attack (any living "
        f"player, or no kill). {again}target with the most votes is attacked (a tie goes to the "
        "choice of the lowest-numbered werewolf who voted for one of the tied targets)."
    )


def _night_rules(obs: Obs) -> list[str]:
    lines = ["Night:", _wolf_night(obs)]
    acting = sorted(
        (unit for unit in UNITS.values() if unit.night is not None and in_play(obs, unit.name)),
        key=lambda unit: unit.night or 0,
    )
    for unit in acting:
        lines.extend(unit.night_rules(obs))
    roles = [unit.name for unit in CHOICES.values() if in_play(obs, unit.name)]
    if roles:  # the roles' own night choices, asked at once (in night order)
        verb = "act" if len(roles) > 1 else "acts"
        lines.append(
            f"- The {' and the '.join(roles)} {verb} last, without being told whom the "
            "werewolves attacked."
        )
    lines.append("- The night's deaths take effect at dawn.")
    return lines


def _badge_election() -> str:
    return (
        "- Day 1 opens with the sheriff election, before the night's deaths are announced (so "
        "everyone takes part). Every player says whether they run. With two or more "
        "candidates, each gives a campaign speech in seat order, then the candidates may "
        "withdraw; the players who did not run vote for one remaining candidate or abstain, and "
        "the one with the most votes is sheriff (a tie or no vote: no sheriff). A single "
        "candidate, or a single one left after withdrawals, is sheriff unopposed."
    )


def _day_rules(obs: Obs) -> list[str]:
    rules = obs["rules"]
    badge = bool(rules["badge"])
    lines = ["Day:"]
    if badge:
        lines.append(_badge_election())
    last_words = (
        "Players who died on night 1 say last words; later night deaths have none."
        if rules["last_words_first_night_only"]
        else "Players who died in the night say last words."
    )
    lines.append(f"- At dawn the night's dead are announced, without roles or causes. {last_words}")
    lines.append(
        "- Every living player gives one speech, in seat order"
        + (", the sheriff last" if badge else "")
        + f". A speech holds at most {rules['speech_max_chars']} characters (longer ones are cut)."
    )
    lines.append(
        "- Then every living player votes to exile another living player, or abstains; the "
        "votes are revealed when the vote closes"
        + ("; the sheriff's vote counts 1.5" if badge else "")
        + ". The player with the most votes is exiled and says last words; a tie exiles nobody."
    )
    for unit in UNITS.values():
        lines.extend(unit.day_rules(obs))
    if badge:
        lines.append("- A dying sheriff passes the badge to a living player or tears it up.")
    return lines


def _win_rules(obs: Obs) -> list[str]:
    rules = obs["rules"]
    if rules["win_condition"] == "all-kill":
        wolves_win = "every player who is not a werewolf is dead"
    else:
        gods = [r for r in ROLES if r in GODS and in_play(obs, r)]
        sides = []
        if gods:
            sides.append(f"every god ({', '.join(gods)}) is dead")
        if in_play(obs, VILLAGER):
            sides.append("every Villager is dead")
        wolves_win = " or when ".join(sides)
    return [
        "Winning (checked after every death):",
        "- The village wins when every werewolf is dead.",
        f"- The werewolves win when {wolves_win}.",
        f"- If nobody has won by the end of day {rules['day_limit']}, the game is a draw.",
    ]


def rules_text(obs: Obs) -> str:
    """The rules of this table: the roles in play and the options it is played with."""
    name = namer(player_names(obs))
    seats = ", ".join(name(p["seat"]) for p in obs["players"])
    lines = [
        "Rules of this game:",
        f"{len(obs['players'])} players: {seats}.",
        f"Roles in play: {describe_counts(obs['roles_in_play'])}. The Werewolves are the "
        "werewolf team; every other role belongs to the village. Roles are secret: a role is "
        "not revealed when its player dies, and every role is revealed when the game ends.",
        "The game alternates nights and days, starting with night 1.",
        *_night_rules(obs),
        *_day_rules(obs),
        *_win_rules(obs),
    ]
    return "\n".join(lines)


def role_text(obs: Obs) -> str:
    """Who the seat is: name, seat, role, team, power, goal and (werewolves) team-mates."""
    name = namer(player_names(obs))
    lines = [
        f"You are {name(obs['seat'])}, the {obs['role']}, on the {obs['team']} team.",
        unit_of(obs["role"]).power(obs),
    ]
    if obs["team"] == WOLF_TEAM:
        mates = [name(w) for w in obs.get("wolves", ()) if w != obs["seat"]]
        lines.append(
            f"Your fellow werewolves: {', '.join(mates)}."
            if mates
            else "You are the only werewolf."
        )
        lines.append("Your goal: the werewolves' win (see Winning).")
    else:
        lines.append("Your goal: the village's win, when every werewolf is dead.")
    return "\n".join(lines)


def system_text(obs: Obs, *, coaching: bool) -> str:
    """The seat's fixed system prompt (the composer adds the output contract): the rules
    first, the same for every seat (so a prefix cache shares them), then the seat."""
    parts = [
        "This is the social deduction game Werewolf.",
        rules_text(obs),
        f"You are {obs['name']}, a player of this game.\n{role_text(obs)}",
    ]
    if coaching:
        parts.append(f"Strategy hints: {strategy_of(unit_of(obs['role']))}")
    return "\n\n".join(parts)
