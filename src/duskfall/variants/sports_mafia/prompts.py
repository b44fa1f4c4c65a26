"""Prompts for LLM players of sports mafia, built only from the seat's observation."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from duskfall.core.variant import LegalActions

RULES = """You are playing sports mafia, a 10-player social deduction game.
Teams: RED (6 Citizens + 1 Sheriff) against BLACK (2 Mafia + 1 Don). RED wins when every
BLACK player is out; BLACK wins when BLACK players equal or outnumber RED players.
Each day every living player, in turn, makes a DECLARATION: a belief score for each of the 10
players (-3 = surely BLACK ... 3 = surely RED), optional sheriff claims (a 10x10 matrix, row =
night turn, column = player, -1 claims BLACK, 1 claims RED, 0 no claim) and an optional
nomination. Then everyone votes among the nominated players (or anyone, if no one was
nominated); a tie leads to a re-vote among the tied, a second tie to a yes/no vote on
eliminating all of them. At night the Don (or a Mafia if the Don is out) kills one player
(or skips with -1), the Don checks whether a player is the Sheriff, and the Sheriff checks a
player's team. Roles are never revealed when players leave the game."""

ROLE_GOALS = {
    "CITIZEN": "You are a CITIZEN (RED). Find and vote out the BLACK players.",
    "SHERIFF": (
        "You are the SHERIFF (RED). Each night you learn one player's team; share what you "
        "learn (through claims and declarations) to lead RED to vote out BLACK players, but "
        "beware that BLACK will try to kill you."
    ),
    "MAFIA": (
        "You are MAFIA (BLACK). Your team is in private_info.mafia_team. Look like a citizen, "
        "steer the votes onto RED players and protect your teammates."
    ),
    "DON": (
        "You are the DON (BLACK), the head of the mafia. You choose the night kill and each "
        "night check whether a player is the Sheriff; hunt the Sheriff down."
    ),
}

OUTPUT = (
    'Answer with one JSON object: {"think": "your private reasoning", "says": "what you '
    'say to the table (may be empty)", "action": ACTION} where ACTION follows the legal '
    "choices below."
)


def _public_summary(obs: Mapping[str, Any]) -> str:
    lines = [
        f"Turn {obs['turn']} (0-based), phase {obs['phase']}. You are player {obs['player_id']}.",
        f"Alive players: {obs['alive_players']}.",
    ]
    if obs["nominated_players"]:
        lines.append(f"Nominated today: {obs['nominated_players']}.")
    if obs["tied_players"]:
        lines.append(f"Tied players: {obs['tied_players']}.")
    declared = [
        f"  player {p['player_id']}: {p['declarations']}"
        for p in obs["players"]
        if p["alive"] and any(p["declarations"])
    ]
    if declared:
        lines.append("Latest declarations (belief per player 0-9):")
        lines.extend(declared)
    claims = [
        f"  player {p['player_id']} claims: "
        + ", ".join(
            f"turn {t}: player {c} is {'RED' if v > 0 else 'BLACK'}"
            for t, row in enumerate(p["sheriff_claims"])
            for c, v in enumerate(row)
            if v
        )
        for p in obs["players"]
        if any(any(row) for row in p["sheriff_claims"])
    ]
    if claims:
        lines.append("Sheriff claims made so far:")
        lines.extend(claims)
    for record in obs["vote_history"][-4:]:
        lines.append(f"Votes on turn {record['turn']} round {record['round']}: {record['votes']}")
    return "\n".join(lines)


def render_prompts(
    observation: Mapping[str, Any], legal: LegalActions, hint: str | None
) -> tuple[str, str]:
    """System prompt: rules, role and goal. User prompt: the seat's view and its choices."""
    role = observation["role"]
    system = f"{RULES}\n\n{ROLE_GOALS[role]}\n\n{OUTPUT}"
    private = observation["private_info"]
    parts = [_public_summary(observation)]
    if private:
        parts.append(f"Your private information: {json.dumps(private)}")
    parts.append(f"Your decision now: {legal.describe()}")
    parts.append(f"Legal choices (wire form): {json.dumps(legal.to_wire())}")
    if hint:
        parts.append(f"Your previous answer was refused: {hint}. Answer again.")
    return system, "\n".join(parts)
