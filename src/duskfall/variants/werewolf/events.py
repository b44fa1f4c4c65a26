"""Typed Werewolf events (seed 004's ``WerewolfKill``, ``Vote``...): the
events of the table and of the classic roles; a role unit declares the models of the events it
adds (:attr:`~duskfall.variants.werewolf.role_unit.RoleUnit.events`).

The rules emit plain :class:`duskfall.core.Event` values (cheap in the hot path); the variant
declares every kind's model (``VariantInfo.event_types``, from
:data:`duskfall.variants.werewolf.units.EVENT_TYPES`), and the variant kit checks that every
event of random games converts to its model with ``from_event`` and back with
``model.to_event()`` unchanged (the base, :class:`~duskfall.core.typed_event.TypedEventModel`,
is every variant's). Each model carries its phase, sub-phase and visibility. Payloads hold
JSON-native values only (lists, no int keys), so an event survives a trip through the JSONL log
unchanged.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, model_validator

from duskfall.core.typed_event import TypedEventModel
from duskfall.variants.werewolf import phases as P


class Cause(StrEnum):
    WOLVES = "wolves"
    POISON = "poison"
    EXILE = "exile"
    HUNTER = "hunter"


class WerewolfEvent(TypedEventModel):
    """Base: a werewolf event also says its ``sub_phase`` (in its payload)."""

    # the sub-phases an event of this kind happens in (empty: only its ``sub_phase`` default)
    sub_phases: ClassVar[tuple[str | None, ...]] = ()
    sub_phase: str | None = None

    @classmethod
    def allowed_sub_phases(cls) -> tuple[str | None, ...]:
        return cls.sub_phases or (cls.model_fields["sub_phase"].default,)

    @model_validator(mode="after")
    def _in_its_sub_phase(self) -> Self:
        if self.sub_phase not in self.allowed_sub_phases():
            raise ValueError(f"a {self.kind} event in sub-phase {self.sub_phase!r}")
        return self

    @classmethod
    def wire_schema(cls) -> dict[str, Any]:
        schema = super().wire_schema()
        schema["properties"]["sub_phase"] = {"enum": list(cls.allowed_sub_phases())}
        return schema


class Cast(BaseModel):
    """One vote: ``target`` None is an abstention (or a wolf's no-kill)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    target: int | None


class Tally(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    votes: float


class Death(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=True)
    seat: int
    cause: Cause


class GameStart(WerewolfEvent):
    kind: ClassVar[str] = "game_start"
    players: list[str]
    roles_in_play: dict[str, int]
    options: dict[str, Any]


class RolesDealt(WerewolfEvent):
    kind: ClassVar[str] = "roles_dealt"
    roles: list[str]


class RoleAssigned(WerewolfEvent):
    kind: ClassVar[str] = "role_assigned"
    seat: int
    role: str


class WolfTeam(WerewolfEvent):
    kind: ClassVar[str] = "wolf_team"
    wolves: list[int]


class NightStart(WerewolfEvent):
    kind: ClassVar[str] = "night_start"


class DayStart(WerewolfEvent):
    kind: ClassVar[str] = "day_start"


class Speech(WerewolfEvent):
    """Wolf chat, campaign speech, day speech or last words (``sub_phase`` says which)."""

    kind: ClassVar[str] = "speech"
    sub_phases: ClassVar[tuple[str | None, ...]] = (
        P.WOLF_CHAT,
        P.BADGE_SPEECH,
        P.SPEECH,
        P.LAST_WORDS,
    )
    seat: int
    text: str


class WolfVotes(WerewolfEvent):
    """The wolves did not agree yet; they talk again."""

    kind: ClassVar[str] = "wolf_votes"
    sub_phase: str | None = P.WOLF_KILL
    round: int
    votes: list[Cast]


class WerewolfKill(WerewolfEvent):
    kind: ClassVar[str] = "werewolf_kill"
    sub_phase: str | None = P.WOLF_KILL
    target: int | None
    votes: list[Cast]


class NightResolved(WerewolfEvent):
    kind: ClassVar[str] = "night_resolved"
    attacked: int | None
    saved: bool
    guarded: bool
    poisoned: int | None
    deaths: list[Death]


class BadgeCandidates(WerewolfEvent):
    kind: ClassVar[str] = "badge_candidates"
    sub_phase: str | None = P.BADGE_RUN
    candidates: list[int]


class BadgeWithdrawals(WerewolfEvent):
    kind: ClassVar[str] = "badge_withdrawals"
    sub_phase: str | None = P.BADGE_WITHDRAW
    withdrawn: list[int]
    remaining: list[int]


class Vote(WerewolfEvent):
    """A cast vote, revealed when the vote closes (``sub_phase`` VOTE or BADGE_VOTE)."""

    kind: ClassVar[str] = "vote"
    sub_phases: ClassVar[tuple[str | None, ...]] = (P.BADGE_VOTE, P.VOTE)
    seat: int
    target: int | None
    weight: float


class VoteResult(WerewolfEvent):
    kind: ClassVar[str] = "vote_result"
    sub_phases: ClassVar[tuple[str | None, ...]] = (P.BADGE_VOTE, P.VOTE)
    tally: list[Tally]
    chosen: int | None
    tied: list[int]


class SheriffElected(WerewolfEvent):
    kind: ClassVar[str] = "sheriff_elected"
    sub_phase: str | None = P.BADGE_VOTE
    seat: int | None
    reason: str


class Deaths(WerewolfEvent):
    """The dawn announcement: who died in the night (no roles, no causes)."""

    kind: ClassVar[str] = "deaths"
    seats: list[int]


class Exiled(WerewolfEvent):
    kind: ClassVar[str] = "exiled"
    sub_phase: str | None = P.VOTE
    seat: int


class HunterShot(WerewolfEvent):
    kind: ClassVar[str] = "hunter_shot"
    sub_phase: str | None = P.HUNTER_SHOT
    seat: int
    target: int | None


class BadgePassed(WerewolfEvent):
    kind: ClassVar[str] = "badge_passed"
    sub_phase: str | None = P.BADGE_PASS
    seat: int
    target: int | None


class GameEnd(WerewolfEvent):
    """The end: every role is revealed."""

    kind: ClassVar[str] = "game_end"
    winner: str | None
    reason: str
    roles: list[str]


TABLE_EVENTS: tuple[type[WerewolfEvent], ...] = (
    GameStart, RolesDealt, RoleAssigned, WolfTeam, NightStart, DayStart, Speech, WolfVotes,
    WerewolfKill, NightResolved,
    BadgeCandidates, BadgeWithdrawals, Vote, VoteResult, SheriffElected, Deaths, Exiled,
    HunterShot, BadgePassed, GameEnd,
)  # fmt: skip
"""The events of the table and the classic roles (a role unit adds its own)."""
