"""A token observation of sports mafia for sequence models.

The seat's observation (``observe``, so nothing it may not know) is written as a sentence of
ids from a fixed vocabulary, in the spirit of the reference project's game grammar::

    BOS ME P3 ROLE_SHERIFF CHECK P7 RED TURN_2 PHASE_VOTING
    DEAD P5  P1 SAYS P4 B-3 P1 B+3  P4 CLAIMS NIGHT_0 P9 BLACK
    VOTES TURN_0 ROUND_0 P0 P4 P1 P4 ...  NOMINATED P4 P9  TIED ... EOS PAD PAD ...

* ``ME Pn ROLE_r``: the seat and its role; ``TEAM Pn``: each black teammate (black seats);
* ``CHECK Pn RED|BLACK`` (sheriff), ``DONCHECK Pn SHERIFF|NOT`` (don);
* ``TURN_t PHASE_p``: where the game is;
* ``DEAD Pn`` for each dead player;
* ``Pn SAYS (Pm B±v)*``: each player's non-zero declared beliefs (``B-3`` .. ``B+3``);
* ``Pn CLAIMS (NIGHT_k Pm RED|BLACK)*``: each player's sheriff claims;
* ``VOTES TURN_t ROUND_r (Pvoter Ptarget | Pvoter YES|NO)*``: every finished vote round;
* ``NOMINATED Pn*``, ``TIED Pn*``; then ``EOS`` and ``PAD`` up to :data:`MAX_TOKENS` (a longer
  stream keeps its first ``MAX_TOKENS - 1`` ids and ends with ``EOS``).

:data:`VOCABULARY` lists every token; its index is the id (``PAD`` is 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from duskfall.variants.sports_mafia.actions import NUM_PLAYERS
from duskfall.variants.sports_mafia.encoder import PHASES, ROLES

MAX_TOKENS = 1024
MAX_TURNS = 12
WORDS = (
    "PAD", "BOS", "EOS", "ME", "TEAM", "CHECK", "DONCHECK", "RED", "BLACK", "SHERIFF", "NOT",
    "DEAD", "SAYS", "CLAIMS", "VOTES", "YES", "NO", "NOMINATED", "TIED",
)  # fmt: skip
VOCABULARY: tuple[str, ...] = (
    *WORDS,
    *(f"P{p}" for p in range(NUM_PLAYERS)),
    *(f"ROLE_{r}" for r in ROLES),
    *(f"PHASE_{p}" for p in PHASES),
    *(f"TURN_{t}" for t in range(MAX_TURNS)),
    *(f"NIGHT_{k}" for k in range(NUM_PLAYERS)),
    *(f"ROUND_{r}" for r in range(3)),
    *(f"B{v:+d}" for v in range(-3, 4) if v),
)
ID: dict[str, int] = {word: i for i, word in enumerate(VOCABULARY)}


def _p(seat: int) -> int:
    return ID[f"P{seat}"]


def _turn(turn: int) -> int:
    return ID[f"TURN_{min(turn, MAX_TURNS - 1)}"]


def token_ids(obs: Mapping[str, Any]) -> list[int]:
    """The seat's observation as token ids (without padding)."""
    out = [ID["BOS"], ID["ME"], _p(obs["player_id"]), ID[f"ROLE_{obs['role']}"]]
    private = obs["private_info"]
    for mate in private.get("mafia_team", ()):
        if mate != obs["player_id"]:
            out += [ID["TEAM"], _p(mate)]
    for target, result in private.get("sheriff_checks", {}).items():
        out += [ID["CHECK"], _p(int(target)), ID["BLACK" if result == "BLACK" else "RED"]]
    for target, found in private.get("don_checks", {}).items():
        out += [ID["DONCHECK"], _p(int(target)), ID["SHERIFF" if found else "NOT"]]
    out += [_turn(obs["turn"]), ID[f"PHASE_{obs['phase']}"]]
    for player in obs["players"]:
        if not player["alive"]:
            out += [ID["DEAD"], _p(player["player_id"])]
    for player in obs["players"]:
        said = [(q, v) for q, v in enumerate(player["declarations"]) if v]
        if said:
            out += [_p(player["player_id"]), ID["SAYS"]]
            for q, v in said:
                out += [_p(q), ID[f"B{v:+d}"]]
        claims = [
            (k, q, v)
            for k, row in enumerate(player["sheriff_claims"])
            for q, v in enumerate(row)
            if v
        ]
        if claims:
            out += [_p(player["player_id"]), ID["CLAIMS"]]
            for k, q, v in claims:
                out += [ID[f"NIGHT_{k}"], _p(q), ID["RED" if v > 0 else "BLACK"]]
    for record in obs["vote_history"]:
        out += [ID["VOTES"], _turn(record["turn"]), ID[f"ROUND_{min(record['round'], 2)}"]]
        for voter, target in record["votes"].items():
            out.append(_p(int(voter)))
            if isinstance(target, bool):
                out.append(ID["YES" if target else "NO"])
            else:
                out.append(_p(target))
    if obs["nominated_players"]:
        out += [ID["NOMINATED"], *map(_p, obs["nominated_players"])]
    if obs["tied_players"]:
        out += [ID["TIED"], *map(_p, obs["tied_players"])]
    out.append(ID["EOS"])
    return out


def tokens(obs: Mapping[str, Any]) -> np.ndarray:
    """:func:`token_ids` padded (or cut) to :data:`MAX_TOKENS`, as int32."""
    ids = token_ids(obs)
    if len(ids) > MAX_TOKENS:
        ids = [*ids[: MAX_TOKENS - 1], ID["EOS"]]
    out = np.zeros(MAX_TOKENS, dtype=np.int32)
    out[: len(ids)] = ids
    return out


def words(ids: np.ndarray | list[int]) -> str:
    """The ids back as words, padding dropped (for reading and tests)."""
    return " ".join(VOCABULARY[i] for i in ids if i)
