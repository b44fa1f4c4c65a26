"""Sports-mafia actions, in the wire form of the seed's ACTION_RESPONSE ``action`` objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NUM_PLAYERS = 10
SKIP = -1


@dataclass(frozen=True, slots=True)
class Declaration:
    """Beliefs (-3..3 per player), sheriff claims (one row per turn) and a nomination policy."""

    declaration: tuple[int, ...]
    sheriff_claims: tuple[tuple[int, ...], ...]
    nomination_policy: tuple[tuple[int, float], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "DECLARATION",
            "declaration": list(self.declaration),
            "sheriff_claims": [list(row) for row in self.sheriff_claims],
            "nomination_policy": {str(t): p for t, p in self.nomination_policy},
        }


@dataclass(frozen=True, slots=True)
class Vote:
    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "VOTE", "target": self.target}


@dataclass(frozen=True, slots=True)
class EliminateAllVote:
    vote: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "ELIMINATE_ALL_VOTE", "vote": self.vote}


@dataclass(frozen=True, slots=True)
class Kill:
    """The night kill; ``target == -1`` skips."""

    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "KILL", "target": self.target}


@dataclass(frozen=True, slots=True)
class DonCheck:
    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "DON_CHECK", "target": self.target}


@dataclass(frozen=True, slots=True)
class SheriffCheck:
    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "SHERIFF_CHECK", "target": self.target}


ZERO_DECLARATION: tuple[int, ...] = (0,) * NUM_PLAYERS
ZERO_CLAIMS: tuple[tuple[int, ...], ...] = (ZERO_DECLARATION,) * NUM_PLAYERS
