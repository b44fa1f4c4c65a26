"""A game's seats at a glance: what each did and how it went, read from the log alone.

Per seat: its role and side, its exile votes and how many of them fell on the evil side ("votes
on wolves" in werewolf, on the mafia in mafia), its public role claims true and false (as the
variant's facts read them, :mod:`duskfall.report.metrics`), whether it survived, and the
speeches the leak reader flagged (:mod:`duskfall.lab.leaks`: self or teammate exposures,
verbatim private text, false or unfounded check claims). Nothing here is new counting: it puts
the two readers' numbers side by side for the game page's key moments.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from duskfall.core.sides import EVIL, side_of
from duskfall.lab.leaks import leak_report
from duskfall.report.metrics import seat_metrics
from duskfall.store.log import GameLog
from duskfall.store.replay import new_state_for


def seat_summary(log: GameLog) -> dict[str, Any]:
    """The summary of every seat of ``log``'s game (module docstring), with the name of the
    evil team the votes are counted against."""
    variant, state = new_state_for(log)
    roles = state.roles()
    sides = {seat: side_of(variant, state.team_of(seat)) for seat in roles}
    metrics = seat_metrics(log)
    report = leak_report(log)
    flagged = Counter(finding.seat for finding in report.findings)
    seats = []
    for seat in sorted(roles):
        counts = metrics[seat]
        evil = sides[seat] == EVIL
        seats.append(
            {
                "seat": seat,
                "role": roles[seat],
                "side": sides[seat],
                "votes": counts.exile_votes,
                # an evil seat's "accurate" votes are on the village: its votes on its own
                # side are its teammate votes
                "votes_on_evil": counts.teammate_votes if evil else counts.accurate_votes,
                "claims": counts.claims,
                "true_claims": counts.true_claims,
                "false_claims": counts.claims - counts.true_claims,
                "survived": bool(counts.survived),
                "won": bool(counts.wins),
                "leaks": flagged[seat],
                "findings": [
                    {"kind": f.kind, "event": f.event, "evidence": f.evidence}
                    for f in report.findings
                    if f.seat == seat
                ],
            }
        )
    return {"evil_team": variant.teams[-1], "seats": seats}
