"""What the heuristic Werewolf bot reads in its seat's history (and nothing else).

:class:`Reading` folds a seat's visible history, entry by entry, into the public facts the bot
reasons with: claimed checks and their results (in the order they were made), the sheriff's
suggestion, who suspected whom in speeches, who voted for whom, and the seats the wolves
attacked (known to the witch only; a wolf never attacks a partner). Speech is read the way a
person would read it, so the bot follows LLMs and people who speak plainly:

* the checking role's claim (its unit's ``claim``, :data:`~.units.CHECKER`) followed by
  ``Seat 4 is a werewolf. Seat 2 is good.`` is a claimed check with results;
* ``I suspect seat 3`` an accusation; ``exile seat 3`` (from the sheriff) a suggestion;
* in the wolves' chat, ``kill seat 5`` or ``no kill`` a proposal.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.units import ATTACK_TOLD, CHECKER

CLAIM = re.compile(rf"\b{re.escape(CHECKER.claim.rstrip('.'))}\b", re.IGNORECASE)
RESULT = re.compile(r"\bseat (\d+)(?: \([^)]*\))? is (?:a )?(werewolf|good)\b", re.IGNORECASE)
SUGGESTION = re.compile(r"\b(?:exile|vote(?: for)?|kill) seat (\d+)\b", re.IGNORECASE)
SUSPECT = re.compile(r"\bsuspect seat (\d+)\b", re.IGNORECASE)
NO_KILL = re.compile(r"\bno kill\b", re.IGNORECASE)

WOLF_RESULT = "Werewolf"
GOOD_RESULT = "Good"


@dataclass
class Reading:
    """The public facts of one seat's history, updated incrementally by :meth:`update`."""

    read: int = 0
    claims: dict[int, dict[int, str]] = field(default_factory=dict)  # claimant -> results
    suggested: int | None = None  # the sheriff's latest "exile seat N"
    proposals: dict[int, int | None] = field(default_factory=dict)  # tonight's wolf chat
    votes: list[tuple[int, int, int]] = field(default_factory=list)  # (day, voter, target)
    suspicions: list[tuple[int, int, int]] = field(default_factory=list)  # (day, speaker, seat)
    attacked: set[int] = field(default_factory=set)  # wolves' targets this seat was told of
    exiled: list[int] = field(default_factory=list)

    def update(self, obs: Mapping[str, Any]) -> None:
        history = obs["history"]
        for entry in history[self.read :]:
            kind = entry["kind"]
            if kind == "night_start":
                self.proposals = {}
            elif kind == "speech":
                self._hear(entry, obs)
            elif kind == "vote" and entry["sub_phase"] == P.VOTE and entry["target"] is not None:
                self.votes.append((entry["day"], entry["seat"], entry["target"]))
            elif kind in ATTACK_TOLD and entry["target"] is not None:
                self.attacked.add(entry["target"])
            elif kind == "exiled":
                self.exiled.append(entry["seat"])
        self.read = len(history)

    def _hear(self, entry: Mapping[str, Any], obs: Mapping[str, Any]) -> None:
        speaker, text = entry["seat"], entry["text"]
        if entry["sub_phase"] == P.WOLF_CHAT:
            if NO_KILL.search(text):
                self.proposals.setdefault(speaker, None)
            elif match := SUGGESTION.search(text):
                self.proposals.setdefault(speaker, int(match.group(1)))
            return
        if CLAIM.search(text):
            results = self.claims.setdefault(speaker, {})
            for seat, result in RESULT.findall(text):
                results[int(seat)] = WOLF_RESULT if result.lower() == "werewolf" else GOOD_RESULT
        if speaker == obs["sheriff"] and (match := SUGGESTION.search(text)):
            self.suggested = int(match.group(1))
        for match in SUSPECT.finditer(text):
            self.suspicions.append((entry["day"], speaker, int(match.group(1))))

    # -- derived facts ---------------------------------------------------------------------

    def accused_by(self, claimant: int, result: str = WOLF_RESULT) -> list[int]:
        return [s for s, r in self.claims.get(claimant, {}).items() if r == result]

    def votes_against(self, seats: set[int]) -> Counter[int]:
        """How often each seat voted to exile one of ``seats``."""
        return Counter(voter for _, voter, target in self.votes if target in seats)

    def suspected_today(self, day: int) -> Counter[int]:
        return Counter(seat for d, _, seat in self.suspicions if d == day)

    def suspecters_of(self, seats: set[int]) -> set[int]:
        return {speaker for _, speaker, seat in self.suspicions if seat in seats}
