"""Werewolf observations as numbers, and the menu as Werewolf actions.

Features (``N`` seats): own seat, role, alive seats, day, night/day, the decision asked, the
sheriff, the wolf pack (wolves only), the seer's checks, the witch's potions and tonight's
victim, the guard's last protection; from the public speeches (read like the heuristic bot
reads them): who claimed seer (and who first), how often each seat was called a werewolf or
good by a claimant, suspected in a speech (ever, today), voted against (ever, by whom), and
the seat-by-seat matrix of exile votes.

Statements: ACCUSE ``i`` says "I suspect seat i." (in the wolves' chat: "Let us kill seat
i."), CLAIM_BAD/CLAIM_GOOD ``i`` say "I am the Seer. Seat i is a werewolf/good.", DEFEND says
"I am a villager.", NONE "I have nothing to add.".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from duskfall.core.encoding import Features, Menu, index_of, none_only, target_mask
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.actions import Pick, Say, YesNo
from duskfall.variants.werewolf.bot_reading import GOOD_RESULT, WOLF_RESULT, Reading
from duskfall.variants.werewolf.legal import SpeechChoice, TargetChoice, YesNoChoice
from duskfall.variants.werewolf.roles import GUARD, HUNTER, SEER, VILLAGER, WEREWOLF
from duskfall.variants.werewolf.witch import (
    ANTIDOTE,
    PASS,
    POISON,
    WITCH,
    Potion,
    WitchChoice,
)

# The roles of the learned layout, fixed so that a vector keeps its meaning (and a trained
# policy its inputs) when a role is added: a role outside it reads as no role.
ROLES = (WEREWOLF, VILLAGER, SEER, WITCH, HUNTER, GUARD)

# The decision kinds of the learned layout, fixed likewise (a kind outside it reads as none).
KINDS = (
    P.WOLF_CHAT, P.WOLF_KILL, "WITCH", "GUARD", "SEER", P.BADGE_RUN, P.BADGE_SPEECH,
    P.BADGE_WITHDRAW, P.BADGE_VOTE, P.LAST_WORDS, P.HUNTER_SHOT, P.BADGE_PASS, P.SPEECH, P.VOTE,
)  # fmt: skip


class WerewolfEncoder:
    def __init__(self, seats: int, seat: int) -> None:
        self.menu = Menu(seats)
        self.seat = seat
        self.n = seats
        self.size = 18 * seats + seats * seats + len(ROLES) + len(KINDS) + 5
        self.reading = Reading()

    def features(self, obs: Mapping[str, Any]) -> np.ndarray:
        n, r = self.n, self.reading
        r.update(obs)
        f = Features(self.size)
        f.one_hot(self.seat, n)
        f.one_hot(index_of(ROLES, obs["role"]), len(ROLES))
        f.seats((p["seat"] for p in obs["players"] if p["alive"]), n)
        f.scalar(obs["day"] / 20)
        f.scalar(1.0 if obs["phase"] == P.NIGHT else 0.0)
        f.scalar(1.0 if obs["alive"] else 0.0)
        f.one_hot(index_of(KINDS, obs["decision"]), len(KINDS))
        f.one_hot(obs["sheriff"], n)
        f.seats(obs.get("wolves", ()), n)
        checks = obs.get("checks", ())
        f.seats((c["target"] for c in checks if c["result"] == WOLF_RESULT), n)
        f.seats((c["target"] for c in checks if c["result"] == GOOD_RESULT), n)
        f.scalar(1.0 if obs.get("antidote") else 0.0)
        f.scalar(1.0 if obs.get("poison") else 0.0)
        f.one_hot(obs.get("attacked_tonight"), n)
        f.one_hot(obs.get("last_guarded"), n)
        f.seats(r.claims, n)
        f.one_hot(next(iter(r.claims), None), n)
        called_bad = np.zeros(n)
        called_good = np.zeros(n)
        for results in r.claims.values():
            for seat, result in results.items():
                if 0 <= seat < n:
                    (called_bad if result == WOLF_RESULT else called_good)[seat] += 1
        f.values(called_bad, n)
        f.values(called_good, n)
        suspected = np.zeros(n)
        today = np.zeros(n)
        for day, _speaker, seat in r.suspicions:
            if 0 <= seat < n:
                suspected[seat] += 1 / n
                today[seat] += (1 / n) if day == obs["day"] else 0
        f.values(suspected, n)
        f.values(today, n)
        votes = np.zeros((n, n))
        for _day, voter, target in r.votes:
            votes[voter, target] += 1
        f.values(votes.sum(axis=0) / n, n)
        f.values(votes[:, self.seat], n)
        f.values(np.minimum(votes, 3) / 3, n * n)
        f.seats(r.attacked, n)
        f.seats(r.exiled, n)
        return f.done()

    def mask(self, legal: Any, obs: Mapping[str, Any]) -> np.ndarray:
        menu = self.menu
        if isinstance(legal, TargetChoice):
            return target_mask(menu, legal.targets, legal.none_allowed)
        if isinstance(legal, YesNoChoice):
            return target_mask(menu, (), True) | _one(menu, menu.yes)
        if isinstance(legal, WitchChoice):
            mask = target_mask(menu, legal.poison_targets, True)
            if legal.can_save:
                mask[menu.yes] = 1
            return mask
        if isinstance(legal, SpeechChoice):
            mask = none_only(menu)
            others = [s for s in range(self.n) if s != self.seat]
            for seat in others:
                mask[menu.accuse(seat)] = 1
                if legal.kind != P.WOLF_CHAT:
                    mask[menu.claim_bad(seat)] = 1
                    mask[menu.claim_good(seat)] = 1
            if legal.kind != P.WOLF_CHAT:
                mask[menu.defend] = 1
            return mask
        return none_only(menu)

    def action(self, legal: Any, obs: Mapping[str, Any], index: int) -> Any:
        slot, seat = self.menu.read(index)
        kind = legal.kind
        if isinstance(legal, TargetChoice):
            return Pick(kind, seat if slot == "TARGET" else None)
        if isinstance(legal, YesNoChoice):
            return YesNo(kind, slot == "YES")
        if isinstance(legal, WitchChoice):
            if slot == "YES":
                return Potion(ANTIDOTE, legal.attacked)
            return Potion(POISON, seat) if slot == "TARGET" else Potion(PASS)
        return Say(kind, self._text(kind, slot, seat))

    def _text(self, kind: str, slot: str, seat: int | None) -> str:
        if slot == "ACCUSE":
            return f"Let us kill seat {seat}." if kind == P.WOLF_CHAT else f"I suspect seat {seat}."
        if slot == "CLAIM_BAD":
            return f"I am the Seer. Seat {seat} is a werewolf. I suspect seat {seat}."
        if slot == "CLAIM_GOOD":
            return f"I am the Seer. Seat {seat} is good."
        if slot == "DEFEND":
            return "I am a villager."
        return "I have nothing to add."


def _one(menu: Menu, index: int) -> np.ndarray:
    mask = np.zeros(menu.size, dtype=np.int8)
    mask[index] = 1
    return mask
