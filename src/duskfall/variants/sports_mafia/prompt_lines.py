"""Sports-mafia events as a seat is shown them: their period (``Day 2``, ``Night 2``) and line.

The words are shared with the rest of the prompt kit: a player is ``player 4`` (``player 4
(you)`` for the seat itself), a belief is signed (``+3`` surely RED .. ``-3`` surely BLACK),
and a sheriff claim names the night of the check it reports: row ``k`` of the wire's
10x10 matrix is night ``k + 1`` (the night after day ``k + 1``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.prompting import Entry, Line, Period

NIGHT_PHASES = frozenset(("NIGHT_KILL", "NIGHT_DON", "NIGHT_SHERIFF"))
SETUP_KINDS = frozenset(("ROLES_DEALT", "GAME_STARTED", "ROLE_ASSIGNED", "MAFIA_TEAM"))
MARKERS = frozenset(("NIGHT_STARTED",))
FIRM = 3
VOTE_ROUNDS = {0: "vote", 1: "re-vote among the tied"}
SETUP = Period(0, 0, "Setup")


def who(player: int, obs: Mapping[str, Any]) -> str:
    """``player 4``, or ``player 4 (you)`` for the seat itself."""
    return f"player {player} (you)" if player == obs.get("player_id") else f"player {player}"


def players(numbers: Sequence[int]) -> str:
    """``players 3, 7`` (``player 3`` for one, ``nobody`` for none)."""
    if not numbers:
        return "nobody"
    listed = ", ".join(str(p) for p in numbers)
    return f"player {listed}" if len(numbers) == 1 else f"players {listed}"


def colour(value: int) -> str:
    return "RED" if value > 0 else "BLACK"


def beliefs(declaration: Sequence[int], *, firm_only: bool = False) -> str:
    """The non-zero beliefs (``2:+3, 5:-1``), or only the firm ones (``|3|``)."""
    shown = [
        f"{p}:{v:+d}" for p, v in enumerate(declaration) if v and (abs(v) >= FIRM or not firm_only)
    ]
    return ", ".join(shown)


def claims(matrix: Sequence[Sequence[int]]) -> str:
    """Every claimed check: ``night 1 player 3 is BLACK, night 2 player 5 is RED``."""
    return ", ".join(
        f"night {row + 1} player {p} is {colour(v)}"
        for row, values in enumerate(matrix)
        for p, v in enumerate(values)
        if v
    )


def declaration_text(entry: Mapping[str, Any], *, firm_only: bool = False) -> str:
    """What a declaration said: beliefs (all non-zero, or firm only) and claims."""
    said = beliefs(entry["declaration"], firm_only=firm_only)
    parts = [f"{'firm beliefs' if firm_only else 'beliefs'} {said}"] if said else []
    claimed = claims(entry["sheriff_claims"])
    if claimed:
        parts.append(f"claims: {claimed}")
    if parts:
        return "; ".join(parts)
    return "no firm beliefs, no claims" if firm_only else "no beliefs, no claims (all 0)"


def votes_text(round_: int, votes: Mapping[str, Any]) -> str:
    """A finished vote round: who voted whom (``0->3``), or yes/no in the eliminate-all vote."""
    if round_ == 2:
        yes = [int(v) for v, said in votes.items() if said]
        no = [int(v) for v, said in votes.items() if not said]
        return (
            f"eliminate-all vote: yes {', '.join(map(str, yes)) or 'nobody'}; "
            f"no {', '.join(map(str, no)) or 'nobody'}"
        )
    cast = ", ".join(f"{voter}->{target}" for voter, target in votes.items())
    return f"{VOTE_ROUNDS.get(round_, 'vote')} (voter->target): {cast}"


def period(entry: Entry) -> Period:
    """Setup (the deal) is day 0; day N and the night after it both count as day N."""
    if entry["kind"] in SETUP_KINDS:
        return SETUP
    day = int(entry["day"])
    if entry["phase"] in NIGHT_PHASES:
        return Period(2 * day + 1, day, f"Night {day}")
    return Period(2 * day, day, f"Day {day}")


def _declaration(e: Entry, obs: Mapping[str, Any]) -> Line:
    speaker = who(e["player_id"], obs)
    return Line(
        f"{speaker} declares: {declaration_text(e)}",
        f"{speaker} declared: {declaration_text(e, firm_only=True)}",
    )


def _check(e: Entry, obs: Mapping[str, Any]) -> Line:
    if "is_sheriff" in e:
        found = "is the Sheriff" if e["is_sheriff"] else "is not the Sheriff"
        return Line(f"your Don check: {who(e['target'], obs)} {found}")
    return Line(f"your Sheriff check: {who(e['target'], obs)} is {e['team']}")


def _eliminate_all_result(e: Entry, obs: Mapping[str, Any]) -> Line:
    outcome = "passed: they are all eliminated" if e["passed"] else "failed: nobody is eliminated"
    return Line(f"eliminate {players(e['tied'])}? yes {e['yes']}, no {e['no']}: {outcome}")


def _voting_started(e: Entry, obs: Mapping[str, Any]) -> Line:
    if e["candidates"]:
        return Line(f"the vote opens among the nominated: {players(e['candidates'])}")
    return Line("the vote opens; nobody was nominated, so any other living player may be voted")


def _mafia_team(e: Entry, obs: Mapping[str, Any]) -> Line:
    return Line(f"the BLACK team is {players(e['members'])}; the Don is player {e['don']}")


LINES: dict[str, Callable[[Entry, Mapping[str, Any]], Line]] = {
    "ROLES_DEALT": lambda e, o: Line("the roles are dealt in secret"),
    "GAME_STARTED": lambda e, o: Line(f"the game starts with {e['players']} players"),
    "ROLE_ASSIGNED": lambda e, o: Line(f"{who(e['player_id'], o)} is dealt the role {e['role']}"),
    "MAFIA_TEAM": _mafia_team,
    "DAY_STARTED": lambda e, o: Line(
        f"day {e['turn'] + 1} begins; {who(e['first_speaker'], o)} declares first"
    ),
    "DECLARATION": _declaration,
    "PLAYER_NOMINATED": lambda e, o: Line(f"{who(e['by'], o)} nominates {who(e['player_id'], o)}"),
    "VOTING_STARTED": _voting_started,
    "VOTES": lambda e, o: Line(votes_text(e["round"], e["votes"])),
    "REVOTE_STARTED": lambda e, o: Line(f"tie between {players(e['tied'])}: re-vote among them"),
    "ELIMINATE_ALL_STARTED": lambda e, o: Line(
        f"tie again between {players(e['tied'])}: vote on eliminating them all"
    ),
    "ELIMINATE_ALL_RESULT": _eliminate_all_result,
    "PLAYER_ELIMINATED": lambda e, o: Line(f"{who(e['player_id'], o)} is voted out"),
    "PLAYER_KILLED": lambda e, o: Line(f"{who(e['player_id'], o)} is killed in the night"),
    "NO_KILL": lambda e, o: Line("nobody is killed in the night"),
    "DON_CHECK_RESULT": _check,
    "SHERIFF_CHECK_RESULT": _check,
}


def line(entry: Entry, obs: Mapping[str, Any]) -> Line | None:
    """The entry's line; None for a marker (it only opens its period)."""
    kind = entry["kind"]
    if kind in MARKERS:
        return None
    render = LINES.get(kind)
    if render is None:
        raise ValueError(f"no sports-mafia prompt line for a {kind!r} event")
    return render(entry, obs)
