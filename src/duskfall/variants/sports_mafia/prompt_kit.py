"""The sports-mafia prompt kit (:class:`~duskfall.core.prompting.PromptKit`).

The system prompt is fixed for a seat's whole game: the rules, the seat's number, role, team
and (for BLACK) its team-mates. The situation is the table now, every player labelled; the
decision names every option and gives an example with placeholders. The seed's observation
carries no event history, so :meth:`SportsMafiaKit.entries` is None: the runtime hands the
kit the events the seat saw, and a remote client shows the table state of the situation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.core.prompting import DecisionPrompt, Entry, Line, Period
from duskfall.variants.sports_mafia import prompt_lines
from duskfall.variants.sports_mafia.actions import NUM_PLAYERS, SKIP
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.sports_mafia.prompt_lines import (
    declaration_text,
    players,
    votes_text,
    who,
)
from duskfall.variants.sports_mafia.roles import BLACK, BLACK_ROLES, RED

RULES = """Sports mafia, 10 players numbered 0 to 9: RED (6 Citizens and the Sheriff) against \
BLACK (2 Mafia and the Don). Roles are secret and are never revealed, not even when a player \
leaves the game. RED wins when no BLACK player is left; BLACK wins as soon as BLACK players are \
as many as RED players. A game that reaches its day limit is a draw.

Each day N:
1. Declarations, public, one living player after the other (day 1 from player 0; each later \
day from the first living player after the previous day's first speaker). A declaration gives \
a belief about each player, from -3 (surely BLACK) through 0 (no opinion) to +3 (surely RED); \
it may claim Sheriff checks, each naming a night, a player and the team found ("night 1 \
player 3 is BLACK": the check made in night 1 found player 3 BLACK); and it may nominate one \
living player, not yet nominated that day, for the vote. Declarations are the only talk; \
a player's latest declaration stands until their next one.
2. The vote: every living player votes at once to eliminate one player: one of the \
nominated, or any other living player if nobody was nominated. The most voted player is \
voted out. A tie leads to one re-vote among the tied players; a second tie to a yes/no vote \
on eliminating all of them, which passes only if "yes" votes are more than half of the \
living players.

Each night N (after day N):
1. The Don kills one player or nobody (once the Don is dead, the lowest-numbered living Mafia \
does); the kill takes effect at once.
2. The Don, if alive, checks one player and learns whether that player is the Sheriff.
3. The Sheriff, if alive, checks one player and learns that player's team, RED or BLACK.
Check results are told only to the checker."""

ROLES = {
    "CITIZEN": "a CITIZEN (team RED): find the BLACK players and vote them out.",
    "SHERIFF": (
        "the SHERIFF (team RED): each night you learn one player's team; help RED vote out "
        "the BLACK players."
    ),
    "MAFIA": "a MAFIA (team BLACK): get RED players voted out and killed until BLACK wins.",
    "DON": (
        "the DON (team BLACK): you choose the night kill and each night learn whether a "
        "player is the Sheriff; get RED players voted out and killed until BLACK wins."
    ),
}

HINTS = {
    "CITIZEN": (
        "Watch who claims Sheriff and whether the claims stay the same from day to day; "
        "BLACK players often fake claims and vote together."
    ),
    "SHERIFF": (
        "Claim your checks (always the same nights and results) once you have found a BLACK "
        "player or a rival claims Sheriff; declare your checks at +3/-3 and nominate and vote "
        "the BLACK ones. BLACK will try to kill you once you are known."
    ),
    "MAFIA": (
        "Look like a citizen: declare plausible beliefs, never vote a team-mate while a RED "
        "player can be voted, agree on one RED target; a fake Sheriff claim calling a RED "
        "player BLACK can turn the vote."
    ),
    "DON": (
        "Check the likeliest Sheriff first (claimers first) and kill the Sheriff you find; "
        "otherwise kill trusted RED players. Look like a citizen by day."
    ),
}

PHASES = {
    "DECLARATION": "declarations",
    "VOTING": "the vote",
    "NIGHT_KILL": "the night kill",
    "NIGHT_DON": "the Don's check",
    "NIGHT_SHERIFF": "the Sheriff's check",
    "GAME_OVER": "the game is over",
}
NIGHT_PHASES = prompt_lines.NIGHT_PHASES
PLAYER = "<player>"
PLAYER_OR_SKIP = "<player or -1>"
BELIEF = "<-3..3>"
YES_OR_NO = "<true or false>"
TARGET_QUESTIONS = {
    "VOTE": "Your vote: whom do you vote to eliminate?",
    "KILL": "The night kill: whom do you kill?",
    "DON_CHECK": "Your Don check: whom do you check (you learn whether that player is the "
    "Sheriff)?",
    "SHERIFF_CHECK": "Your Sheriff check: whom do you check (you learn that player's team)?",
}


def _team(obs: Mapping[str, Any]) -> str:
    return BLACK if obs["role"] in BLACK_ROLES else RED


def _mates(obs: Mapping[str, Any]) -> list[int]:
    return [p for p in obs["private_info"].get("mafia_team", ()) if p != obs["player_id"]]


def _checks(obs: Mapping[str, Any]) -> dict[int, str]:
    """What the seat's own checks found, by player: ``RED``/``BLACK``, or whether Sheriff."""
    private = obs["private_info"]
    found = {int(p): team for p, team in private.get("sheriff_checks", {}).items()}
    for p, is_sheriff in private.get("don_checks", {}).items():
        found[int(p)] = "the Sheriff" if is_sheriff else "not the Sheriff"
    return found


def label(player: int, obs: Mapping[str, Any]) -> str:
    """``player 3 (fellow BLACK, dead)``: what the seat knows of a player, now."""
    tags = []
    if player == obs["player_id"]:
        tags.append("you")
    elif player in _mates(obs):
        tags.append("fellow BLACK")
    if player not in obs["alive_players"]:
        tags.append("dead")
    if player in obs["nominated_players"]:
        tags.append("nominated")
    if player in obs["tied_players"]:
        tags.append("tied")
    found = _checks(obs).get(player)
    if found is not None:
        tags.append(f"checked: {found}")
    return f"player {player} ({', '.join(tags)})" if tags else f"player {player}"


def when(obs: Mapping[str, Any]) -> str:
    """``Day 2, declarations`` or ``Night 2, the Don's check``."""
    day = obs["turn"] + 1
    part = "Night" if obs["phase"] in NIGHT_PHASES else "Day"
    return f"{part} {day}, {PHASES.get(obs['phase'], obs['phase'])}"


class SportsMafiaKit:
    """The pieces of a sports-mafia seat's prompts."""

    markers = prompt_lines.MARKERS

    def system(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        role = obs["role"]
        seat = [f"You are player {obs['player_id']}, {ROLES[role]}"]
        mates = _mates(obs)
        if mates:
            seat.append(f"Your BLACK team-mates: {players(mates)}.")
        if coaching:
            seat.append(f"Hints: {HINTS[role]}")
        return f"{RULES}\n\n" + "\n".join(seat)

    def period(self, entry: Entry) -> Period:
        return prompt_lines.period(entry)

    def line(self, entry: Entry, obs: Mapping[str, Any]) -> Line | None:
        return prompt_lines.line(entry, obs)

    def entries(self, obs: Mapping[str, Any]) -> Sequence[Entry] | None:
        return None

    def situation(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        me = obs["player_id"]
        lines = [
            f"{when(obs)}. You are player {me}: {obs['role']}, team {_team(obs)}.",
            "Players: " + "; ".join(label(p["player_id"], obs) for p in obs["players"]) + ".",
        ]
        if obs["phase"] in ("DECLARATION", "VOTING"):
            lines.append(f"Nominated for today's vote: {players(obs['nominated_players'])}.")
        if obs["tied_players"]:
            lines.append(f"Tied in the last vote: {players(obs['tied_players'])}.")
        checks = _checks(obs)
        if checks:
            found = ", ".join(f"player {p} is {team}" for p, team in sorted(checks.items()))
            lines.append(f"Your checks so far: {found}.")
        lines.extend(self._table(obs))
        return "\n".join(lines)

    def _table(self, obs: Mapping[str, Any]) -> list[str]:
        """The latest declaration of each living player and today's finished vote rounds."""
        alive = set(obs["alive_players"])
        standing = [
            f"- {who(p['player_id'], obs)}: "
            + declaration_text(
                {"declaration": p["declarations"], "sheriff_claims": p["sheriff_claims"]}
            )
            for p in obs["players"]
            if p["player_id"] in alive
            and (any(p["declarations"]) or any(map(any, p["sheriff_claims"])))
        ]
        if standing:
            lines = ["Latest declaration of each living player (all 0 if not listed):", *standing]
        else:
            lines = ["No living player has declared a belief or a claim yet."]
        today = [r for r in obs["vote_history"] if r["turn"] == obs["turn"]]
        day = obs["turn"] + 1
        lines.extend(f"Day {day} {votes_text(r['round'], r['votes'])}" for r in today)
        return lines

    def decision(self, obs: Mapping[str, Any], legal: Any, *, coaching: bool) -> DecisionPrompt:
        if isinstance(legal, DeclarationChoice):
            return self._declaration(obs, legal)
        if isinstance(legal, EliminateAllChoice):
            return DecisionPrompt(
                f"Eliminate all the tied players ({players(obs['tied_players'])}) at once? "
                "It passes only if more than half of the living players vote true.",
                {"type": "ELIMINATE_ALL_VOTE", "vote": YES_OR_NO},
                'Fields: "type" is always "ELIMINATE_ALL_VOTE"; "vote" is true to eliminate '
                "them all, false to keep them.",
            )
        if isinstance(legal, TargetChoice):
            return self._target(obs, legal)
        raise TypeError(f"not a sports-mafia decision: {type(legal).__name__}")

    def _target(self, obs: Mapping[str, Any], legal: TargetChoice) -> DecisionPrompt:
        options = [label(p, obs) for p in legal.targets]
        if legal.allow_skip:
            options.append(f"{SKIP} (nobody)")
        question = TARGET_QUESTIONS[legal.action_type]
        if legal.action_type == "VOTE" and obs["tied_players"]:
            question = "Re-vote among the tied players: whom do you vote to eliminate?"
        text = f"{question}\nOptions: {'; '.join(options)}."
        fields = (
            f'Fields: "type" is always "{legal.action_type}"; "target" is the number of the '
            f"player you choose{f', or {SKIP} for nobody' if legal.allow_skip else ''}."
        )
        target = PLAYER_OR_SKIP if legal.allow_skip else PLAYER
        return DecisionPrompt(text, {"type": legal.action_type, "target": target}, fields)

    def _declaration(self, obs: Mapping[str, Any], legal: DeclarationChoice) -> DecisionPrompt:
        nominable = "; ".join(label(p, obs) for p in legal.nominable) or "nobody"
        nights = obs["turn"]  # on day N, nights 1..N-1 have passed
        passed = f"nights 1 to {nights} have passed" if nights else "no night has passed yet"
        text = (
            f"Your declaration for day {obs['turn'] + 1} (every player sees it).\n"
            f"Players you may nominate: {nominable}; or {SKIP} (nobody)."
        )
        fields = (
            'Fields: "type" is always "DECLARATION"; "beliefs" gives your belief about every '
            'player, keyed by number ("0" to "9", yourself included), from -3 (surely BLACK) '
            "through 0 (no opinion) to 3 (surely RED); "
            '"nomination" is the number of the player you nominate, or -1 for nobody; '
            '"claims" (leave it out unless you claim to be the Sheriff) lists the checks you '
            'claim, each an object with "night" (the night of the check; '
            f'{passed}), "player" (the player checked) and "team" ("RED" or "BLACK", what '
            "the check found). Your declaration replaces your previous one: claims you leave "
            "out are withdrawn."
        )
        example = {
            "type": "DECLARATION",
            "beliefs": {str(p): BELIEF for p in range(NUM_PLAYERS)},
            "nomination": PLAYER_OR_SKIP,
        }
        return DecisionPrompt(text, example, fields)


KIT = SportsMafiaKit()
