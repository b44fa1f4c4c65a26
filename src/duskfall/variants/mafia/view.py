"""The one place a seat's view of a mafia game is built.

``observe(state, seat)`` reads only what ``seat`` may know: the public log, the logs of its
own private channels, its private log, its own roles and history, and engine advice computed
from public information and the team's shared knowledge. Prompts, protocol observations and
bot inputs are all built from this view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, Protocol, TypedDict

from duskfall.core.variant import Decision
from duskfall.variants.mafia.phases import (
    DAY_DISCUSSION,
    DOCTOR_KINDS,
    SHERIFF_ACTION,
    SHERIFF_INVESTIGATION_ASSIGNMENT,
    SHERIFF_KINDS,
    TEAM_CHANNEL,
    VIGILANTE_KINDS,
)
from duskfall.variants.mafia.priorities import (
    digest,
    investigation_priorities,
    protection_priorities,
)
from duskfall.variants.mafia.roles import RoleSet

LogEntry = dict[str, Any]
"""One entry of a log (public, channel or private): ``kind``, ``day`` and its fields."""


class PlayerView(TypedDict):
    """One player as this seat knows it: ``roles`` only if known (own, dead, investigated)."""

    seat: int
    name: str
    alive: bool
    roles: list[str] | None


class InvestigationView(TypedDict):
    """A sheriff's result this seat knows."""

    night: int
    sheriff: int
    target: int
    roles: list[str]


class MafiaObservation(TypedDict):
    """A seat's view of a mafia game; ``context`` only while it has a decision to make."""

    variant: str
    seat: int
    name: str
    roles: list[str]
    team: str
    alive: bool
    day: int
    phase: str
    decision: str | None
    players: list[PlayerView]
    setup: dict[str, int]
    allies: dict[str, list[int]]
    public_log: list[LogEntry]
    channel_logs: dict[str, list[LogEntry]]
    private_log: list[LogEntry]
    investigations: list[InvestigationView]
    context: NotRequired[dict[str, Any]]


class Investigation(Protocol):
    """A sheriff's result, as the view reads it."""

    @property
    def night(self) -> int: ...
    @property
    def sheriff(self) -> int: ...
    @property
    def target(self) -> int: ...
    @property
    def roles(self) -> RoleSet: ...


class StepProgress(Protocol):
    """A sequential sub-phase, as the view reads it: who speaks in turn, and how far it is."""

    @property
    def order(self) -> Sequence[int]: ...
    @property
    def position(self) -> int: ...


class ObservedGame(Protocol):
    """What :func:`observe` reads of a game (``rules.MafiaState`` provides it)."""

    @property
    def variant_id(self) -> str: ...
    @property
    def num_seats(self) -> int: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def seat_roles(self) -> Sequence[RoleSet]: ...
    @property
    def living(self) -> Sequence[bool]: ...
    @property
    def day(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def setup(self) -> Mapping[str, int]: ...
    @property
    def public_log(self) -> Sequence[LogEntry]: ...
    @property
    def channel_logs(self) -> Mapping[str, Sequence[LogEntry]]: ...
    @property
    def private_logs(self) -> Mapping[int, Sequence[LogEntry]]: ...
    @property
    def steps(self) -> Sequence[StepProgress]: ...

    def channels(self, seat: int) -> frozenset[str]: ...
    def members(self, channel: str) -> tuple[int, ...]: ...
    def team_of(self, seat: int) -> str: ...
    def alive(self) -> list[int]: ...
    def pending(self) -> Sequence[Decision]: ...
    def known_investigations(self, sheriff: int) -> Sequence[Investigation]: ...
    def tonight(self) -> dict[str, Any]: ...
    def protection_banned(self, doctor: int) -> int | None: ...
    def targets(self, seat: int, kind: str) -> tuple[int, ...]: ...
    def has_shot(self, vigilante: int) -> bool: ...


def observe(state: ObservedGame, seat: int) -> MafiaObservation:
    """Everything ``seat`` may know right now, as plain JSON-ready data."""
    roles = state.seat_roles[seat]
    channels = sorted(state.channels(seat))
    decision = _decision_kind(state, seat)
    investigations = state.known_investigations(seat)
    known = {s: state.seat_roles[s] for s in range(state.num_seats) if not state.living[s]}
    known.update((inv.target, inv.roles) for inv in investigations)
    known[seat] = roles
    view: MafiaObservation = {
        "variant": state.variant_id,
        "seat": seat,
        "name": state.names[seat],
        "roles": list(roles),
        "team": state.team_of(seat),
        "alive": state.living[seat],
        "day": state.day,
        "phase": state.phase,
        "decision": decision,
        "players": [
            {
                "seat": s,
                "name": state.names[s],
                "alive": state.living[s],
                "roles": list(known[s]) if s in known else None,
            }
            for s in range(state.num_seats)
        ],
        "setup": dict(state.setup),
        "allies": {c: list(state.members(c)) for c in channels},
        "public_log": list(state.public_log),
        "channel_logs": {c: list(state.channel_logs[c]) for c in channels},
        "private_log": list(state.private_logs.get(seat, ())),
        "investigations": [
            {
                "night": inv.night,
                "sheriff": inv.sheriff,
                "target": inv.target,
                "roles": list(inv.roles),
            }
            for inv in investigations
        ],
    }
    if decision is not None:
        view["context"] = _context(state, seat, decision)
    return view


def _decision_kind(state: ObservedGame, seat: int) -> str | None:
    for decision in state.pending():
        if decision.seat == seat:
            return decision.kind
    return None


def _team(state: ObservedGame, seat: int, channel: str) -> list[int]:
    """Living members of ``seat``'s team on ``channel`` (just ``seat`` if it has none)."""
    if channel not in state.channels(seat):
        return [seat]
    return [s for s in state.members(channel) if state.living[s]]


def _context(state: ObservedGame, seat: int, kind: str) -> dict[str, Any]:
    """What the engine tells ``seat`` for this decision (seed 000's per-phase game state)."""
    context: dict[str, Any] = {}
    channel = TEAM_CHANNEL.get(kind)
    if channel is not None and channel in state.channels(seat):
        team = _team(state, seat, channel)
        context["team"] = [{"seat": s, "name": state.names[s]} for s in team]
        context["tonight"] = [e for e in state.channel_logs[channel] if e["day"] == state.day]
        votes = state.tonight()["votes"].get(channel)
        if votes is not None:
            context["current_votes"] = {str(s): t for s, t in votes.items()}
    if kind in DOCTOR_KINDS:
        team = _team(state, seat, "doctors")
        banned = {state.protection_banned(d) for d in team} - {None}
        candidates = [s for s in state.alive() if s not in banned]
        ranked = protection_priorities(digest(state.public_log), candidates, team)
        context["cannot_protect"] = sorted(b for b in banned if b is not None)
        context["protection_priorities"] = [p.to_dict(state.names) for p in ranked]
    elif kind in SHERIFF_KINDS:
        team = _team(state, seat, "sheriffs")
        if kind == SHERIFF_INVESTIGATION_ASSIGNMENT:
            context["assigned_tonight"] = list(state.tonight()["assigned"])
            candidates = list(state.targets(seat, kind))
        else:
            candidates = [s for s in state.alive() if s not in team]
            if kind == SHERIFF_ACTION:
                candidates = list(state.targets(seat, kind))
        ranked = investigation_priorities(digest(state.public_log), candidates, team)
        context["investigation_priorities"] = [p.to_dict(state.names) for p in ranked]
    elif kind in VIGILANTE_KINDS:
        team = _team(state, seat, "vigilantes")
        context["shots"] = [
            {"seat": v, "name": state.names[v], "shot_available": state.has_shot(v)} for v in team
        ]
    elif kind == DAY_DISCUSSION:
        step = state.steps[0]
        left = step.order[step.position :]
        context["messages_left"] = len(left)
        context["my_messages_left"] = left.count(seat)
    return context
