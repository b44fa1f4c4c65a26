"""Which investigation sessions a decision calls for (seed 003, section 3)."""

from __future__ import annotations

from duskfall.agents.cognitive.context import Knowledge, SessionContext
from duskfall.agents.cognitive.session import SessionSpec
from duskfall.agents.cognitive.suspicion import SuspicionModel

INVESTIGATED_MODES = frozenset({"discussion", "vote", "kill", "inspect", "protect"})


def sessions_for(
    context: SessionContext, model: SuspicionModel, known: Knowledge, max_sessions: int
) -> list[SessionSpec]:
    """The sessions to run, most useful first, at most ``max_sessions``."""
    if max_sessions <= 0 or context.mode not in INVESTIGATED_MODES:
        return []
    others = [p for p in context.others_alive if p not in known.allies]
    if not others:
        return []
    specs: list[SessionSpec] = []
    if context.mode == "kill":
        specs.append(
            SessionSpec(
                "find_detective",
                tuple(others),
                "Find who most likely holds an investigating or protecting role, or leads the "
                "village; that is the best kill target.",
            )
        )
    elif context.mode == "inspect":
        unknown = [p for p in model.ranked(others) if p not in known.checks] or others
        specs.append(
            SessionSpec(
                "choose_inspect_target",
                tuple(unknown[:4]),
                "Find the player whose alignment is most uncertain and matters most to the votes.",
            )
        )
    elif context.mode == "protect":
        specs.append(
            SessionSpec(
                "find_power_role",
                tuple(others),
                "Find the players most likely to hold a power role or to be attacked tonight.",
            )
        )
    else:
        pattern = "find_detective" if context.is_evil else "vote_pattern_analysis"
        focus = (
            "Find who most likely holds a power role, and who would make a safe scapegoat."
            if context.is_evil
            else "Compare who voted for whom with what they said; look for wagons and "
            "opportunistic votes."
        )
        specs.append(SessionSpec(pattern, tuple(others), focus))
        for suspect in model.ranked(others):
            specs.append(
                SessionSpec(
                    "investigate_player",
                    (suspect,),
                    "Read this player's speeches and votes and judge which side they are on.",
                )
            )
            if len(specs) >= max_sessions:
                break
        if context.mode == "vote":
            specs.reverse()  # the top suspect first when a vote is due
    return specs[:max_sessions]
