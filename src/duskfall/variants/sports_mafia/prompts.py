"""Text for players: prompts for LLMs (built only from the seat's observation), and one line
per event for the god view."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.variant import LegalActions

RULES = """Sports mafia, 10 players: RED (6 Citizens + Sheriff) vs BLACK (2 Mafia + Don).
RED wins when no BLACK is left; BLACK wins when BLACK >= RED. Each day every living player
DECLARES a belief per player (-3 surely BLACK .. 3 surely RED), may claim sheriff checks
(matrix row = night, column = player: -1 BLACK, 1 RED) and may nominate one player. All then
vote among the nominated (anyone if none); a tie means a re-vote among the tied, a second tie a
yes/no vote to eliminate them all. At night the Don (or a Mafia) kills one player or skips
(-1), the Don checks if a player is the Sheriff, the Sheriff checks a player's team. Roles stay
secret when players leave."""

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
        f"Turn {obs['turn']}, phase {obs['phase']}. You are player {obs['player_id']}.",
        f"Alive players: {obs['alive_players']}.",
    ]
    if obs["nominated_players"]:
        lines.append(f"Nominated today: {obs['nominated_players']}.")
    if obs["tied_players"]:
        lines.append(f"Tied players: {obs['tied_players']}.")
    declared = []
    alive = set(obs["alive_players"])
    for p in obs["players"]:
        if p["alive"] and any(p["declarations"]):
            strong = [
                f"{target}:{value:+d}"
                for target, value in enumerate(p["declarations"])
                if abs(value) == 3 and target != p["player_id"] and target in alive
            ]
            if strong:
                declared.append(f"  {p['player_id']} -> " + " ".join(strong))
    if declared:
        lines.append("Firm beliefs declared (player -> target:+3 RED / -3 BLACK):")
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
    for record in obs["vote_history"][-1:]:
        votes = " ".join(f"{voter}->{target}" for voter, target in record["votes"].items())
        lines.append(f"Votes (turn {record['turn']}, round {record['round']}): {votes}")
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
    if hint:
        parts.append(f"Your previous answer was refused: {hint}. Answer again.")
    return system, "\n".join(parts)


def format_event(event: Event) -> str | None:
    """One terminal line (god view, rich markup) for a rules event, or None to skip it."""
    p = event.payload
    kind = event.kind
    simple: dict[str, Callable[[], str]] = {
        "ROLES_DEALT": lambda: "roles: " + ", ".join(f"{i}={r}" for i, r in enumerate(p["roles"])),
        "DAY_STARTED": lambda: f"[bold]Day {p['turn'] + 1}[/] (first speaker {p['first_speaker']})",
        "DECLARATION": lambda: (
            f"player {p['player_id']} declares {p['declaration']}"
            + (
                " [magenta]with sheriff claims[/]"
                if any(any(r) for r in p["sheriff_claims"])
                else ""
            )
        ),
        "PLAYER_NOMINATED": lambda: f"player {p['by']} nominates [yellow]{p['player_id']}[/]",
        "VOTES": lambda: (
            f"votes (round {p['round']}): " + ", ".join(f"{k}->{v}" for k, v in p["votes"].items())
        ),
        "REVOTE_STARTED": lambda: f"tie between {p['tied']}: re-vote",
        "ELIMINATE_ALL_STARTED": lambda: f"tie again between {p['tied']}: eliminate-all vote",
        "ELIMINATE_ALL_RESULT": lambda: f"eliminate all {p['tied']}? yes {p['yes']}, no {p['no']}",
        "PLAYER_ELIMINATED": lambda: f"[red]player {p['player_id']} is eliminated[/]",
        "NIGHT_STARTED": lambda: "[blue]Night falls[/]",
        "PLAYER_KILLED": lambda: f"[red]player {p['player_id']} is killed in the night[/]",
        "NO_KILL": lambda: "nobody is killed tonight",
        "DON_CHECK_RESULT": lambda: (
            f"(don) checks {p['target']}: " + ("SHERIFF" if p["is_sheriff"] else "not the sheriff")
        ),
        "SHERIFF_CHECK_RESULT": lambda: f"(sheriff) checks {p['target']}: {p['team']}",
    }
    render = simple.get(kind)
    return render() if render else None
