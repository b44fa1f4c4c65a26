"""Classic mafia observations as numbers, and the menu as mafia actions.

Features (``N`` seats): own seat, own roles, alive seats, day, the decision asked, what the
seat knows of each player's roles (mafia, town, unknown; dead players' roles are public,
investigations and allies private), its allies, public accusations (speeches naming a target)
ever and today, public sheriff claims and whom they accused, votes received, votes against
this seat, and the matrix of exile votes.

Statements (``Say``): ACCUSE ``i`` is "I suspect <name>." with target ``i``; CLAIM_BAD ``i``
claims SHERIFF with target ``i`` ("I am the sheriff: <name> is mafia."); DEFEND "I am town.";
NONE says nothing. CLAIM_GOOD is not offered (a claim's target reads as an accusation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from duskfall.core.encoding import Features, Menu, index_of, none_only, target_mask
from duskfall.variants.mafia import phases as P
from duskfall.variants.mafia.actions import Choose, Say
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.roles import ROLES

ROLE_NAMES = tuple(ROLES)
KINDS = tuple(
    value
    for name, value in vars(P).items()
    if name.isupper() and isinstance(value, str) and value.isupper() and "_" in value
)
MAFIA = "MAFIA"


class MafiaEncoder:
    def __init__(self, seats: int, seat: int) -> None:
        self.menu = Menu(seats)
        self.seat = seat
        self.n = seats
        self.size = 11 * seats + seats * seats + len(ROLE_NAMES) + len(KINDS) + 2

    def features(self, obs: Mapping[str, Any]) -> np.ndarray:
        n = self.n
        players = obs["players"]
        f = Features(self.size)
        f.one_hot(self.seat, n)
        f.seats((i for i, r in enumerate(ROLE_NAMES) if r in obs["roles"]), len(ROLE_NAMES))
        f.seats((p["seat"] for p in players if p["alive"]), n)
        f.scalar(obs["day"] / 10)
        f.scalar(1.0 if obs["alive"] else 0.0)
        f.one_hot(index_of(KINDS, obs["decision"]), len(KINDS))
        known = [p["roles"] for p in players]
        f.seats((i for i, roles in enumerate(known) if roles and MAFIA in roles), n)
        f.seats((i for i, roles in enumerate(known) if roles and MAFIA not in roles), n)
        f.seats((s for seats in obs["allies"].values() for s in seats), n)
        accused, today, claims, claimed_bad, votes_in = (np.zeros(n) for _ in range(5))
        votes = np.zeros((n, n))
        for entry in obs["public_log"]:
            if entry["kind"] == "speech" and entry.get("target") is not None:
                target = entry["target"]
                accused[target] += 1 / n
                today[target] += (1 / n) if entry["day"] == obs["day"] else 0
                if entry.get("claim") == "SHERIFF":
                    claims[entry["seat"]] = 1
                    claimed_bad[target] += 1
            elif entry["kind"] == "vote_result":
                for voter, target in entry["votes"].items():
                    if target is not None:
                        votes[int(voter), target] += 1
                        votes_in[target] += 1 / n
        f.values(accused, n)
        f.values(today, n)
        f.values(claims, n)
        f.values(claimed_bad, n)
        f.values(votes_in, n)
        f.values(votes[:, self.seat], n)
        f.values(np.minimum(votes, 3) / 3, n * n)
        return f.done()

    def mask(self, legal: Any, obs: Mapping[str, Any]) -> np.ndarray:
        menu = self.menu
        if isinstance(legal, TargetChoice):
            return target_mask(menu, legal.targets, legal.pass_type is not None)
        if isinstance(legal, SayChoice):
            mask = none_only(menu)
            for seat in legal.mentionable:
                mask[menu.accuse(seat)] = 1
                mask[menu.claim_bad(seat)] = 1
            mask[menu.defend] = 1
            return mask
        return none_only(menu)

    def action(self, legal: Any, obs: Mapping[str, Any], index: int) -> Any:
        slot, seat = self.menu.read(index)
        if isinstance(legal, TargetChoice):
            if slot == "TARGET":
                return Choose(legal.action_type, seat)
            return Choose(legal.pass_type or legal.action_type, None)
        name = obs["players"][seat]["name"] if seat is not None else ""
        if slot == "ACCUSE":
            return Say(f"I suspect {name}.", seat)
        if slot == "CLAIM_BAD":
            return Say(f"I am the sheriff: {name} is mafia.", seat, "SHERIFF")
        if slot == "DEFEND":
            return Say("I am town.")
        return Say("")
