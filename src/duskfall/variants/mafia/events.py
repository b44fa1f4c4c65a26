"""Typed mafia events: one model per event kind the rules emit (``VariantInfo.event_types``).

The rules emit plain :class:`duskfall.core.Event` values; the variant kit checks that every
event of random games converts to its model with :meth:`MafiaEvent.from_event` and back with
``model.to_event()`` unchanged (core's :class:`~duskfall.core.typed_event.TypedEventModel`).
``day``, ``phase`` and ``visibility`` go on the core event. Mafia's own idioms are kept: a
message's payload repeats its ``kind`` and ``day`` (as the seats' logs record it), a channel
event names its ``channel``, and a field that does not apply is left out (``channel`` of a lone
sheriff's result, ``name`` of a vote that eliminated nobody). Each model also knows the phase
and audience of its kind (a secret never declared public), and the models are strict: a
payload of the wrong type is refused, never coerced.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from duskfall.core.events import ADMIN, PUBLIC, seats_visibility, team_visibility
from duskfall.core.typed_event import TypedEventModel, event_types
from duskfall.variants.mafia.roles import ROLES
from duskfall.variants.mafia.rules import DAY, NIGHT, OVER

RoleName = Literal["MAFIA", "DOCTOR", "SHERIFF", "VIGILANTE", "VILLAGER"]
"""A role (the names of :data:`~duskfall.variants.mafia.roles.ROLES`, in its order)."""
Team = Literal["town", "mafia"]
Channel = Literal["mafia", "doctors", "sheriffs", "vigilantes"]
"""A private channel (the ``channel`` of each role that has one)."""

Seat = Annotated[int, Field(ge=0)]
Count = Annotated[int, Field(ge=1)]
SeatKey = Annotated[str, StringConstraints(pattern=r"^[0-9]+$")]
"""A seat as a JSON object key."""
_ROLE = "|".join(ROLES)
RoleLabel = Annotated[str, StringConstraints(pattern=rf"^({_ROLE})(\+({_ROLE}))*$")]
"""One player's roles, ``MAFIA+DOCTOR`` style (:func:`.roles.role_label`)."""
Roles = Annotated[list[RoleName], Field(min_length=1)]
Tally = dict[SeatKey, Count]
"""Votes per target seat (abstentions are not counted)."""


class _Part(BaseModel):
    """A closed, strict object inside a payload."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Player(_Part):
    seat: Seat
    name: str


class Dead(_Part):
    """A player who died in the night, roles revealed."""

    seat: Seat
    name: str
    roles: Roles


class MafiaEvent(TypedEventModel):
    """Base: the phases an event of this kind happens in, and who may see it."""

    model_config = ConfigDict(strict=True)
    phases: ClassVar[tuple[str, ...]] = (NIGHT,)
    day: Count = 1

    def audience(self) -> str:
        """The visibility the rules give this event (public unless a kind says otherwise)."""
        return PUBLIC

    @model_validator(mode="after")
    def _where_it_happens(self) -> Self:
        if self.phase not in self.phases:
            raise ValueError(f"a {self.kind} event in phase {self.phase!r}")
        if self.visibility != self.audience():
            raise ValueError(
                f"a {self.kind} event visible to {self.visibility!r}, not to {self.audience()!r}"
            )
        return self


class _Secret(MafiaEvent):
    """Only the god view sees it."""

    def audience(self) -> str:
        return ADMIN


class _OnChannel(MafiaEvent):
    """Sent to one private channel's members."""

    channel: Channel

    def audience(self) -> str:
        return team_visibility(self.channel)


class _Entry(MafiaEvent):
    """A log entry: its payload repeats the event's ``kind`` and ``day``."""

    echoed: ClassVar[tuple[str, ...]] = ("kind", "day")


class _TeamOrSelf(_Entry):
    """A night action's result: to its channel when the role coordinates, else to the seat."""

    omitted_when_none: ClassVar[tuple[str, ...]] = ("channel",)
    channel: Channel | None = None
    seat: Seat

    def audience(self) -> str:
        if self.channel is None:
            return seats_visibility([self.seat])
        return team_visibility(self.channel)


class Setup(MafiaEvent):
    """The table: players, how many of each role, and the options that change the night."""

    kind: ClassVar[str] = "setup"
    players: list[Player]
    setup: dict[RoleName, Count]
    multi_role: bool
    coordination: bool

    @model_validator(mode="after")
    def _mafia_dealt(self) -> Self:
        if "MAFIA" not in self.setup:
            raise ValueError("a table deals at least one MAFIA")
        return self


class Deal(_Secret):
    kind: ClassVar[str] = "deal"
    roles: dict[SeatKey, RoleLabel]


class Role(MafiaEvent):
    """A seat learns its roles and side."""

    kind: ClassVar[str] = "role"
    seat: Seat
    roles: Roles
    team: Team

    def audience(self) -> str:
        return seats_visibility([self.seat])


class TeamRoster(_OnChannel):
    """The members of a private channel (dead ones stay listed)."""

    kind: ClassVar[str] = "team"
    members: list[Seat]


class NightStart(MafiaEvent):
    kind: ClassVar[str] = "night_start"
    night: Count


class Chat(_Entry, _OnChannel):
    """A team chat message (mafia, doctors, sheriffs or vigilantes), in round ``round``."""

    kind: ClassVar[str] = "chat"
    seat: Seat
    name: str
    says: str
    target: Seat | None
    target_name: str | None
    round: Count
    rounds: Count


class TeamVote(_Entry, _OnChannel):
    """A vote of the mafia on a kill or of the doctors on a protection, with the tally so far."""

    kind: ClassVar[str] = "team_vote"
    channel: Literal["mafia", "doctors"]
    seat: Seat
    name: str
    target: Seat
    target_name: str
    says: str
    tally: Tally


class MafiaTarget(_Entry, _OnChannel):
    """The mafia's choice (a tie drawn by the game's seed)."""

    kind: ClassVar[str] = "mafia_target"
    channel: Literal["mafia"]
    target: Seat
    target_name: str
    tally: Tally


class DoctorConsensus(_Entry, _OnChannel):
    """The coordinated doctors' choice: ``votes`` of the ``of`` doctors chose it."""

    kind: ClassVar[str] = "doctor_consensus"
    channel: Literal["doctors"]
    target: Seat
    target_name: str
    tally: Tally
    votes: Count
    of: Count


class DoctorAction(_Secret):
    """A doctor's protection; ``consensus_votes`` (the doctors' tally) only when coordinated."""

    kind: ClassVar[str] = "doctor_action"
    omitted_when_none: ClassVar[tuple[str, ...]] = ("consensus_votes",)
    seat: Seat
    target: Seat
    target_name: str
    coordination: bool
    consensus_votes: Tally | None = None

    @model_validator(mode="after")
    def _consensus_when_coordinated(self) -> Self:
        if self.coordination != (self.consensus_votes is not None):
            raise ValueError("consensus_votes go with coordination, and only with it")
        return self


class Investigation(_TeamOrSelf):
    """A sheriff's result: the target's exact roles."""

    kind: ClassVar[str] = "investigation"
    channel: Literal["sheriffs"] | None = None
    name: str
    target: Seat
    target_name: str
    roles: Roles
    coordination: bool

    @model_validator(mode="after")
    def _shared_when_coordinated(self) -> Self:
        if self.coordination != (self.channel is not None):
            raise ValueError("a result goes to the sheriffs' channel when they coordinate")
        return self


class VigilanteShot(_TeamOrSelf):
    kind: ClassVar[str] = "vigilante_shot"
    channel: Literal["vigilantes"] | None = None
    name: str
    says: str
    target: Seat
    target_name: str


class VigilantePass(_TeamOrSelf):
    kind: ClassVar[str] = "vigilante_pass"
    channel: Literal["vigilantes"] | None = None
    name: str
    says: str


class NightSummary(_Secret):
    """What happened in the night (god view): ``protections`` doctor -> target, ``shot``
    [vigilante, target], ``deaths`` seat -> cause."""

    kind: ClassVar[str] = "night_summary"
    night: Count
    mafia_target: Seat | None
    protections: dict[SeatKey, Seat]
    saved: bool
    shot: Annotated[list[Seat], Field(min_length=2, max_length=2)] | None
    deaths: dict[SeatKey, Literal["mafia", "vigilante"]]


class Dawn(_Entry):
    """Who died in the night, roles revealed."""

    kind: ClassVar[str] = "dawn"
    deaths: list[Dead]


class DayStart(MafiaEvent):
    """The day begins: ``messages`` discussion messages in all."""

    kind: ClassVar[str] = "day_start"
    phases: ClassVar[tuple[str, ...]] = (DAY,)
    echoed: ClassVar[tuple[str, ...]] = ("day",)
    messages: Annotated[int, Field(ge=0)]


class Speech(_Entry):
    """A day message; ``claim`` a role claimed in public (true or not)."""

    kind: ClassVar[str] = "speech"
    phases: ClassVar[tuple[str, ...]] = (DAY,)
    seat: Seat
    name: str
    says: str
    target: Seat | None
    target_name: str | None
    claim: RoleName | None


class VoteResult(_Entry):
    """The day vote revealed: every ballot (null: abstained), the tally, who was eliminated
    (a strict plurality of more than one vote) and their roles."""

    kind: ClassVar[str] = "vote_result"
    phases: ClassVar[tuple[str, ...]] = (DAY,)
    omitted_when_none: ClassVar[tuple[str, ...]] = ("name",)
    votes: dict[SeatKey, Seat | None]
    tally: Tally
    eliminated: Seat | None
    roles: Roles | None
    name: str | None = None

    @model_validator(mode="after")
    def _revealed_when_eliminated(self) -> Self:
        nobody = self.eliminated is None
        if (self.roles is None) != nobody or (self.name is None) != nobody:
            raise ValueError("an eliminated player's name and roles are revealed, only theirs")
        return self


class GameEnd(MafiaEvent):
    """A side won (a game stopped at the day limit ends without one); every role revealed."""

    kind: ClassVar[str] = "game_end"
    phases: ClassVar[tuple[str, ...]] = (OVER,)
    winner: Team
    termination: Literal["win"]
    reason: str
    roles: dict[SeatKey, RoleLabel]


EVENTS: tuple[type[MafiaEvent], ...] = (
    Setup, Deal, Role, TeamRoster, NightStart, Chat, TeamVote, MafiaTarget, DoctorConsensus,
    DoctorAction, Investigation, VigilanteShot, VigilantePass, NightSummary, Dawn, DayStart,
    Speech, VoteResult, GameEnd,
)  # fmt: skip
EVENT_TYPES: dict[str, type[MafiaEvent]] = event_types(EVENTS)
"""Every event kind the mafia rules emit, and its model."""
