"""Typed sports-mafia events: one model per event kind the rules emit (seed 001's
``PLAYER_NOMINATED``, ``PLAYER_ELIMINATED``, ``SHERIFF_CHECK_RESULT``, ``DON_CHECK_RESULT`` and
duskfall's added ones), declared as ``VariantInfo.event_types`` (:data:`EVENT_TYPES`).

The rules emit plain :class:`duskfall.core.Event` values; the variant kit checks that every event
of random games converts to its model and back unchanged, and the published event schemas
(``duskfall schema``) are these models' (:meth:`~duskfall.core.typed_event.TypedEventModel.
wire_schema`). Field names are the seed's, seats are 0..9, and every value set that is closed is
an enum. ``GAME_OVER`` is the server's (from the outcome), not a rules event.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import Field, model_validator

from duskfall.core.typed_event import TypedEventModel, event_types
from duskfall.variants.sports_mafia.actions import NUM_PLAYERS
from duskfall.variants.sports_mafia.roles import (
    BLACK,
    BLACK_ROLES,
    CITIZEN,
    DECK,
    DON,
    MAFIA,
    RED,
    SHERIFF,
)

Seat = Annotated[int, Field(ge=0, le=NUM_PLAYERS - 1)]
SEAT_KEY = f"^[0-{NUM_PLAYERS - 1}]$"
"""A seat as a JSON object key."""
Belief = Annotated[int, Field(ge=-3, le=3)]
Claim = Annotated[int, Field(ge=-1, le=1)]
"""One cell of the claim matrix: -1 black, 0 none, 1 red."""
PerSeat = Field(min_length=NUM_PLAYERS, max_length=NUM_PLAYERS)
ELIMINATE_ALL_ROUND = 2
BLACK_TEAM_SIZE = sum(role in BLACK_ROLES for role in DECK)


def _keyed_by_seat(schema: dict[str, Any]) -> None:
    """An object keyed by seat, as JSON Schema says it (pydantic writes ``patternProperties``,
    which leaves other keys open)."""
    values = schema.pop("patternProperties")[SEAT_KEY]
    schema.update(propertyNames={"pattern": SEAT_KEY}, additionalProperties=values)


class Role(StrEnum):
    CITIZEN = CITIZEN
    SHERIFF = SHERIFF
    MAFIA = MAFIA
    DON = DON


class Team(StrEnum):
    RED = RED
    BLACK = BLACK


class RolesDealt(TypedEventModel):
    """Every seat's role, in seat order (admin: the god view only)."""

    kind: ClassVar[str] = "ROLES_DEALT"
    roles: Annotated[list[Role], PerSeat]


class GameStarted(TypedEventModel):
    kind: ClassVar[str] = "GAME_STARTED"
    players: Literal[10]


class RoleAssigned(TypedEventModel):
    kind: ClassVar[str] = "ROLE_ASSIGNED"
    player_id: Seat
    role: Role


class MafiaTeam(TypedEventModel):
    """The black team (the Don among them), told to the black team only."""

    kind: ClassVar[str] = "MAFIA_TEAM"
    members: Annotated[list[Seat], Field(min_length=BLACK_TEAM_SIZE, max_length=BLACK_TEAM_SIZE)]
    don: Seat


class DayStarted(TypedEventModel):
    """``turn`` is 0-based (day ``turn + 1``), as in the seed's observation."""

    kind: ClassVar[str] = "DAY_STARTED"
    turn: Annotated[int, Field(ge=0)]
    first_speaker: Seat


class Declaration(TypedEventModel):
    """A speaker's beliefs (one per player) and sheriff claims (row ``k``: night ``k + 1``)."""

    kind: ClassVar[str] = "DECLARATION"
    player_id: Seat
    declaration: Annotated[list[Belief], PerSeat]
    sheriff_claims: Annotated[list[Annotated[list[Claim], PerSeat]], PerSeat]


class PlayerNominated(TypedEventModel):
    kind: ClassVar[str] = "PLAYER_NOMINATED"
    player_id: Seat
    by: Seat


class VotingStarted(TypedEventModel):
    """The vote opens on ``candidates`` (empty: anyone but the voter may be voted for)."""

    kind: ClassVar[str] = "VOTING_STARTED"
    candidates: list[Seat]


class Votes(TypedEventModel):
    """A closed round's votes by voter: a seat in rounds 0 (the vote) and 1 (the re-vote among
    the tied), yes/no in round 2 (the eliminate-all vote)."""

    kind: ClassVar[str] = "VOTES"
    round: Literal[0, 1, 2]
    votes: Annotated[
        dict[Annotated[str, Field(pattern=SEAT_KEY)], Seat | bool],
        Field(json_schema_extra=_keyed_by_seat),
    ]

    @model_validator(mode="after")
    def _ballots_fit_the_round(self) -> Self:
        yes_no = self.round == ELIMINATE_ALL_ROUND
        if any(isinstance(v, bool) != yes_no for v in self.votes.values()):
            raise ValueError(f"round {self.round} votes must be {'yes/no' if yes_no else 'seats'}")
        return self


class RevoteStarted(TypedEventModel):
    kind: ClassVar[str] = "REVOTE_STARTED"
    tied: list[Seat]


class EliminateAllStarted(TypedEventModel):
    kind: ClassVar[str] = "ELIMINATE_ALL_STARTED"
    tied: list[Seat]


class EliminateAllResult(TypedEventModel):
    """``passed``: more than half of the living voted yes (then every tied player is out)."""

    kind: ClassVar[str] = "ELIMINATE_ALL_RESULT"
    tied: list[Seat]
    yes: Annotated[int, Field(ge=0)]
    no: Annotated[int, Field(ge=0)]
    passed: bool


class PlayerEliminated(TypedEventModel):
    kind: ClassVar[str] = "PLAYER_ELIMINATED"
    player_id: Seat


class NightStarted(TypedEventModel):
    kind: ClassVar[str] = "NIGHT_STARTED"


class PlayerKilled(TypedEventModel):
    kind: ClassVar[str] = "PLAYER_KILLED"
    player_id: Seat


class NoKill(TypedEventModel):
    """The killer skipped the night's kill."""

    kind: ClassVar[str] = "NO_KILL"


class DonCheckResult(TypedEventModel):
    kind: ClassVar[str] = "DON_CHECK_RESULT"
    target: Seat
    is_sheriff: bool


class SheriffCheckResult(TypedEventModel):
    kind: ClassVar[str] = "SHERIFF_CHECK_RESULT"
    target: Seat
    team: Team


MODELS: tuple[type[TypedEventModel], ...] = (
    RolesDealt, GameStarted, RoleAssigned, MafiaTeam, DayStarted, Declaration, PlayerNominated,
    VotingStarted, Votes, RevoteStarted, EliminateAllStarted, EliminateAllResult,
    PlayerEliminated, NightStarted, PlayerKilled, NoKill, DonCheckResult, SheriffCheckResult,
)  # fmt: skip
EVENT_TYPES: dict[str, type[TypedEventModel]] = event_types(MODELS)
"""Every event kind the rules emit, by kind."""
