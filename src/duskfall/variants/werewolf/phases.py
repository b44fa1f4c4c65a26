"""Phases and sub-phases of Werewolf, and the order the rules walk them in.

Every sub-phase id is also the ``kind`` of the decisions asked in it. The kinds in
``SEQUENTIAL_KINDS`` (speeches, the hunter's shot, the badge pass) are asked one seat at a time
(the variant declares them in ``info.sequential_kinds``); the other sub-phases ask all their
seats at once (the roles' own night choices share one batch, so they are asked
concurrently).
"""

from __future__ import annotations

NIGHT = "NIGHT"
DAY = "DAY"

WOLF_CHAT = "WOLF_CHAT"
WOLF_KILL = "WOLF_KILL"
BADGE_RUN = "BADGE_RUN"
BADGE_SPEECH = "BADGE_SPEECH"
BADGE_WITHDRAW = "BADGE_WITHDRAW"
BADGE_VOTE = "BADGE_VOTE"
LAST_WORDS = "LAST_WORDS"
HUNTER_SHOT = "HUNTER_SHOT"
BADGE_PASS = "BADGE_PASS"
SPEECH = "SPEECH"
VOTE = "VOTE"

NIGHT_ORDER: tuple[tuple[str, ...], ...] = (
    (WOLF_CHAT,),  # each living wolf in seat order, on the wolves' private channel
    (WOLF_KILL,),  # living wolves at once; repeated with more chat until they agree
)  # then the roles' own turns (units.TURNS: told, then asked), then their own choices
# (units.CHOICES), all at the same time
DAY_ORDER: tuple[tuple[str, ...], ...] = (
    (BADGE_RUN,),  # day 1 only: every living seat says whether it runs
    (BADGE_SPEECH,),  # candidates in seat order
    (BADGE_WITHDRAW,),  # candidates at once
    (BADGE_VOTE,),  # everyone who did not run, at once
    (LAST_WORDS, HUNTER_SHOT, BADGE_PASS),  # after each death, in that order
    (SPEECH,),  # seat order, the sheriff last
    (VOTE,),  # every living seat at once; abstaining allowed
)

SPEECH_KINDS: frozenset[str] = frozenset({WOLF_CHAT, BADGE_SPEECH, LAST_WORDS, SPEECH})
SEQUENTIAL_KINDS: frozenset[str] = SPEECH_KINDS | {HUNTER_SHOT, BADGE_PASS}
