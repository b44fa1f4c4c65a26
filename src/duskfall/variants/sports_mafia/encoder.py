"""Sports mafia (seed 001) observations as numbers, and the menu as its actions.

Features (10 seats): own seat, role, phase, turn, alive / nominated / tied seats, the black
team (black seats only), the sheriff's checks (black, red) and the don's (sheriff, not), every
player's declared beliefs (10 x 10, scaled to -1..1), every player's sheriff claims summed over
nights (10 x 10, -1 black .. 1 red) and who claims at all, and the vote matrix of every round
so far (voter x target, capped) with the votes each seat received.

Decisions: votes, kills, checks take TARGET ``i`` (a kill may take NONE = skip); the
eliminate-all vote YES or NONE. A DECLARATION is asked in two steps of the same seat (the
env selects it twice): first the statement, NONE (say nothing), ACCUSE ``i`` (declare ``i``
black, -3), CLAIM_BAD/CLAIM_GOOD ``i`` (from the second day: claim sheriff, adding a row for
last night that calls ``i`` black or red and keeping earlier claims; ``i`` is declared -3 or
+3) or DEFEND (+3 about oneself); then the nomination, TARGET ``i`` or NONE (nobody). The
second step's mask holds only the nomination, and the feature ``nominating`` is 1 there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from duskfall.core.encoding import MORE, Features, Menu, index_of, none_only, target_mask
from duskfall.variants.sports_mafia.actions import (
    NUM_PLAYERS,
    SKIP,
    ZERO_DECLARATION,
    Declaration,
    EliminateAllVote,
)
from duskfall.variants.sports_mafia.bots import ACTIONS
from duskfall.variants.sports_mafia.legal import DeclarationChoice, EliminateAllChoice, TargetChoice

ROLES = ("CITIZEN", "SHERIFF", "MAFIA", "DON")
PHASES = ("DECLARATION", "VOTING", "NIGHT_KILL", "NIGHT_DON", "NIGHT_SHERIFF", "GAME_OVER")
N = NUM_PLAYERS


class SportsMafiaEncoder:
    roles = ROLES
    phases = PHASES

    def __init__(self, seats: int, seat: int) -> None:
        assert seats == N
        self.menu = Menu(N)
        self.seat = seat
        self.size = 11 * N + 3 * N * N + len(ROLES) + len(PHASES) + 2
        self.statement: tuple[str, int | None] | None = None  # step one of a declaration

    def features(self, obs: Mapping[str, Any]) -> np.ndarray:
        players = obs["players"]
        private = obs["private_info"]
        f = Features(self.size)
        f.one_hot(self.seat, N)
        f.one_hot(index_of(ROLES, obs["role"]), len(ROLES))
        f.one_hot(index_of(PHASES, obs["phase"]), len(PHASES))
        f.scalar(obs["turn"] / 10)
        f.scalar(1.0 if self.statement is not None else 0.0)
        f.seats(obs["alive_players"], N)
        f.seats(obs["nominated_players"], N)
        f.seats(obs["tied_players"], N)
        f.seats(private.get("mafia_team", ()), N)
        sheriff_checks = private.get("sheriff_checks", {})
        f.seats((int(t) for t, r in sheriff_checks.items() if r == "BLACK"), N)
        f.seats((int(t) for t, r in sheriff_checks.items() if r == "RED"), N)
        don_checks = private.get("don_checks", {})
        f.seats((int(t) for t, r in don_checks.items() if r), N)
        f.seats((int(t) for t, r in don_checks.items() if not r), N)
        declared = np.array([p["declarations"] for p in players], dtype=np.float32) / 3
        f.values(declared, N * N)
        claims = np.array([p["sheriff_claims"] for p in players], dtype=np.float32).sum(axis=1)
        f.values(np.clip(claims, -1, 1), N * N)
        f.values((np.abs(claims).sum(axis=1) > 0).astype(np.float32), N)
        votes = np.zeros((N, N), dtype=np.float32)
        for record in obs["vote_history"]:
            for voter, target in record["votes"].items():
                if not isinstance(target, bool) and 0 <= target < N:
                    votes[int(voter), target] += 1
        f.values(np.minimum(votes, 3) / 3, N * N)
        f.values(votes.sum(axis=0) / N, N)
        return f.done()

    def mask(self, legal: Any, obs: Mapping[str, Any]) -> np.ndarray:
        menu = self.menu
        if isinstance(legal, TargetChoice):
            return target_mask(menu, legal.targets, legal.allow_skip)
        if isinstance(legal, EliminateAllChoice):
            mask = none_only(menu)
            mask[menu.yes] = 1
            return mask
        if isinstance(legal, DeclarationChoice):
            if self.statement is not None:
                return target_mask(menu, legal.nominable, True)
            mask = none_only(menu)
            for seat in range(N):
                if seat == self.seat:
                    continue
                mask[menu.accuse(seat)] = 1
                if 1 <= obs["turn"] <= N:
                    mask[menu.claim_good(seat)] = 1
                    mask[menu.claim_bad(seat)] = 1
            mask[menu.defend] = 1
            return mask
        return none_only(menu)

    def action(self, legal: Any, obs: Mapping[str, Any], index: int) -> Any:
        slot, seat = self.menu.read(index)
        if isinstance(legal, TargetChoice):
            return ACTIONS[legal.action_type][
                seat if slot == "TARGET" and seat is not None else SKIP
            ]
        if isinstance(legal, EliminateAllChoice):
            return EliminateAllVote(slot == "YES")
        if self.statement is None:
            self.statement = (slot, seat)
            return MORE
        (said, about), self.statement = self.statement, None
        beliefs = list(ZERO_DECLARATION)
        beliefs[self.seat] = 3 if said == "DEFEND" else 0
        claims = tuple(tuple(row) for row in obs["players"][self.seat]["sheriff_claims"])
        if about is not None:
            beliefs[about] = 3 if said == "CLAIM_GOOD" else -3
        if said in ("CLAIM_BAD", "CLAIM_GOOD") and about is not None:
            row = [0] * N
            row[about] = -1 if said == "CLAIM_BAD" else 1
            claims = tuple(tuple(row) if t == obs["turn"] - 1 else claims[t] for t in range(N))
        policy = ((seat, 1.0),) if slot == "TARGET" and seat is not None else ()
        return Declaration(tuple(beliefs), claims, policy)
