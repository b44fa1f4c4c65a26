"""Classic mafia (seed 000) as a pure, synchronous state machine.

A game is a night then a day, repeated. Each phase is a queue of sub-phases (``Step``):
sequential ones (team chat messages, team votes, sheriff assignments, vigilante shots) yield
one decision at a time so every speaker sees what came before; simultaneous ones (lone or
uncoordinated night actions, the day vote) are pending together and resolved when the last
one arrives. Night order: mafia chat and kill vote, doctors, sheriffs, vigilantes, then
resolution (the shot cannot be blocked; the mafia's target dies unless protected).

Everything a seat may know is recorded as it happens in one of three places: the public log,
a channel log (``mafia``, ``doctors``, ``sheriffs``, ``vigilantes``) or the seat's private
log. ``observe`` (in :mod:`.view`) reads only those, plus the seat's own roles and history.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, PUBLIC, Event, seats_visibility, team_visibility
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.rng import derive_rng
from duskfall.core.seating import seated
from duskfall.core.tally import count, seats
from duskfall.core.variant import Decision
from duskfall.variants.mafia.actions import Choose, Say
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.legal import LegalView, SayChoice, TargetChoice
from duskfall.variants.mafia.phases import (
    ACTION_TYPES,
    CHAT_KINDS,
    DAY_DISCUSSION,
    DAY_VOTE,
    DOCTOR_ACTION,
    DOCTOR_COORDINATION,
    DOCTOR_PROTECTION_VOTE,
    MAFIA_CHAT,
    MAFIA_VOTE,
    SHERIFF_ACTION,
    SHERIFF_COORDINATION,
    SHERIFF_INVESTIGATION_ASSIGNMENT,
    TEAM_VOTE_KINDS,
    VIGILANTE_ACTION,
    VIGILANTE_COORDINATION,
)
from duskfall.variants.mafia.roles import (
    DOCTOR,
    MAFIA,
    MAFIA_TEAM,
    ROLES,
    SHERIFF,
    TOWN,
    VIGILANTE,
    RoleSet,
    role_label,
    team_of_roles,
)
from duskfall.variants.mafia.view import MafiaObservation, observe

VARIANT_ID = "mafia"
NIGHT, DAY, OVER = "NIGHT", "DAY", "OVER"


@dataclass(slots=True)
class Step:
    """One sub-phase: ``order`` acts one by one, or all at once when ``simultaneous``."""

    kind: str
    order: list[int]
    simultaneous: bool = False
    position: int = 0
    received: dict[int, Any] = field(default_factory=dict)
    closed: bool = False

    def waiting(self) -> list[int]:
        if self.simultaneous:
            return [s for s in self.order if s not in self.received]
        return [self.order[self.position]] if self.position < len(self.order) else []

    def waits(self, seat: int) -> bool:
        """``seat in self.waiting()``, without building the list."""
        if self.simultaneous:
            return seat in self.order and seat not in self.received
        return self.position < len(self.order) and self.order[self.position] == seat


@dataclass(frozen=True, slots=True)
class Investigation:
    night: int
    sheriff: int
    target: int
    roles: RoleSet
    shared: bool


class MafiaState:
    """One game of classic mafia; see the module docstring."""

    variant_id = VARIANT_ID

    def __init__(self, config: MafiaConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.num_seats = config.players
        self.names: tuple[str, ...] = tuple(config.seat_names())
        deal = config.deal()
        if config.shuffle_roles:
            derive_rng(seed, "deal").shuffle(deal)
        deal = seated(deal, config.seat_order)
        self.seat_roles: list[RoleSet] = deal
        self.teams: list[str] = [team_of_roles(r) for r in deal]
        dealt: dict[str, int] = {}
        for roles in deal:
            for role in roles:
                dealt[role] = dealt.get(role, 0) + 1
        self.setup: dict[str, int] = {r: dealt[r] for r in ROLES if r in dealt}
        self._index_roles()
        self.living: list[bool] = [True] * self.num_seats
        self._alive: tuple[int, ...] = tuple(range(self.num_seats))
        self._rng: random.Random | None = None  # see rng
        self.day = 1
        self.phase = NIGHT
        self._outcome: Outcome | None = None
        self._channels = self._deal_channels()
        # What seats may know, recorded as it happens.
        self.public_log: list[dict[str, Any]] = []
        self.channel_logs: dict[str, list[dict[str, Any]]] = {c: [] for c in self._members}
        self.private_logs: dict[int, list[dict[str, Any]]] = {}
        # Persistent night history.
        self.last_protection: dict[int, tuple[int, int]] = {}
        self.investigations: list[Investigation] = []
        self.shots: dict[int, tuple[int, int]] = {}
        # Current phase.
        self.steps: list[Step] = []
        self._views: dict[int, LegalView] = {}  # see legal()
        self._say_views: dict[str, tuple[tuple[int, ...], SayChoice]] = {}  # see _legal_view
        self._reset_night()
        self.spoken: Counter[int] = Counter()
        self._opening: list[Event] = self._deal_events() + self._begin_night()

    @property
    def rng(self) -> random.Random:
        """The rules' own draws (tie-breaks), derived from the seed when first needed."""
        if self._rng is None:
            self._rng = derive_rng(self.seed, "rules")
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    # ----------------------------------------------------------------- set-up

    def _deal_channels(self) -> dict[int, frozenset[str]]:
        """Private channels: the mafia always; other roles when two or more coordinate."""
        self._members: dict[str, tuple[int, ...]] = {}
        for name, role in ROLES.items():
            holders = tuple(s for s, r in enumerate(self.seat_roles) if name in r)
            if role.channel and holders and (name == MAFIA or self._coordinated(holders)):
                self._members[role.channel] = holders
        return {
            seat: frozenset(c for c, members in self._members.items() if seat in members)
            for seat in range(self.num_seats)
        }

    def _coordinated(self, holders: Sequence[int]) -> bool:
        return self.config.coordination and len(holders) >= 2

    def _deal_events(self) -> list[Event]:
        events = [
            self._event(
                "setup",
                {
                    "players": [{"seat": s, "name": n} for s, n in enumerate(self.names)],
                    "setup": dict(self.setup),
                    "multi_role": self.config.allow_multi_role,
                    "coordination": self.config.coordination,
                },
            ),
            self._event("deal", {"roles": _keyed(self.roles())}, ADMIN),
        ]
        for seat, roles in enumerate(self.seat_roles):
            events.append(
                self._event(
                    "role",
                    {"seat": seat, "roles": list(roles), "team": self.teams[seat]},
                    _private(seat),
                )
            )
        for channel, members in self._members.items():
            events.append(
                self._event(
                    "team",
                    {"channel": channel, "members": list(members)},
                    team_visibility(channel),
                )
            )
        return events

    # --------------------------------------------------------- State contract

    def opening_events(self) -> list[Event]:
        events, self._opening = self._opening, []
        return events

    def pending(self) -> list[Decision]:
        if self._outcome is not None or not self.steps:
            return []
        step = self.steps[0]
        if not step.simultaneous:  # one seat at a time
            order, position = step.order, step.position
            return [_decision(order[position], step.kind)] if position < len(order) else []
        return [_decision(seat, step.kind) for seat in step.waiting()]

    def legal(self, seat: int) -> LegalView:
        """The legal actions of a waiting seat, built once per decision.

        ``_views`` holds the views of waiting seats: a seat's entry goes when it acts or its
        step ends. Nothing another seat does within a step changes a waiting seat's choices.
        """
        view = self._views.get(seat)
        if view is None:
            if self._outcome is not None or not self.steps or not self.steps[0].waits(seat):
                raise IllegalAction(
                    f"{self.names[seat]} has nothing to decide now", "not_your_turn"
                )
            view = self._views[seat] = self._legal_view(seat, self.steps[0].kind)
        return view

    def _legal_view(self, seat: int, kind: str) -> LegalView:
        if kind in CHAT_KINDS or kind == DAY_DISCUSSION:
            # every speaker of a step has the same choices while nobody dies: made once
            alive, view = self._say_views.get(kind, ((), None))
            if view is None or alive is not self._alive:
                view = SayChoice(kind, self._alive, self.names, self.config.max_message_chars)
                self._say_views[kind] = (self._alive, view)
            return view
        action_type, pass_type = ACTION_TYPES[kind]
        return TargetChoice(kind, action_type, self.targets(seat, kind), self.names, pass_type)

    def apply(self, seat: int, action: Any) -> list[Event]:
        if self._outcome is not None:
            raise IllegalAction("the game is over", "not_your_turn")
        view = self._views.get(seat)
        if view is None:
            if not self.steps or not self.steps[0].waits(seat):
                raise IllegalAction(f"it is not {self.names[seat]}'s turn", "not_your_turn")
            view = self.legal(seat)
        step = self.steps[0]
        parsed = view.parse(action)
        del self._views[seat]
        events = self._on_action(step, seat, parsed)
        if step.simultaneous:
            step.received[seat] = parsed
            done = len(step.received) == len(step.order)  # the order's seats are distinct
        else:
            step.position += 1
            done = step.position >= len(step.order)
        if done or step.closed:
            events += self._finish_step(step)
        return events

    def apply_all(self, actions: Mapping[int, Any]) -> list[Event]:
        events: list[Event] = []
        for seat in sorted(actions):
            events += self.apply(seat, actions[seat])
        return events

    def observe(self, seat: int) -> MafiaObservation:
        """The seat's view (built by :func:`~duskfall.variants.mafia.view.observe`)."""
        return observe(self, seat)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def channels(self, seat: int) -> frozenset[str]:
        return self._channels[seat]

    def roles(self) -> dict[int, str]:
        return {seat: role_label(roles) for seat, roles in enumerate(self.seat_roles)}

    def team_of(self, seat: int) -> str:
        return self.teams[seat]

    def alive(self) -> list[int]:
        return list(self._alive)

    def _die(self, seat: int) -> None:
        self.living[seat] = False
        self._alive = tuple(s for s in self._alive if s != seat)

    # ---------------------------------------------------------------- queries

    def members(self, channel: str) -> tuple[int, ...]:
        """Seats on a private channel (dead ones included)."""
        return self._members.get(channel, ())

    def _index_roles(self) -> None:
        """``_holding``: each role's seats, dead or alive (again after roles are re-dealt)."""
        self._holding: dict[str, list[int]] = {}
        for seat, roles in enumerate(self.seat_roles):
            for role in set(roles):
                self._holding.setdefault(role, []).append(seat)

    def holders(self, role: str, alive_only: bool = True) -> list[int]:
        seats = self._holding.get(role, [])
        if not alive_only:
            return list(seats)
        living = self.living
        return [s for s in seats if living[s]]

    def shares_results(self, sheriff: int) -> bool:
        return "sheriffs" in self._channels[sheriff]

    def known_investigations(self, sheriff: int) -> list[Investigation]:
        """Results ``sheriff`` knows: its own, plus the team's when sheriffs coordinate."""
        shared = self.shares_results(sheriff)
        return [
            inv for inv in self.investigations if inv.sheriff == sheriff or (shared and inv.shared)
        ]

    def protection_banned(self, doctor: int) -> int | None:
        """The player ``doctor`` protected last night (not allowed again tonight)."""
        last = self.last_protection.get(doctor)
        return last[1] if last is not None and last[0] == self.day - 1 else None

    def has_shot(self, vigilante: int) -> bool:
        return vigilante not in self.shots

    def tonight(self) -> dict[str, Any]:
        """The night's choices so far (god view; ``view`` filters what a seat may see)."""
        return self._night

    # ------------------------------------------------------------- legality

    def targets(self, seat: int, kind: str) -> tuple[int, ...]:
        """The players ``seat`` may choose in a decision of ``kind`` (it must be pending)."""
        alive = self._alive
        if kind == MAFIA_VOTE:
            return tuple(s for s in alive if self.teams[s] != MAFIA_TEAM)
        if kind in (DAY_VOTE, VIGILANTE_ACTION):
            if seat not in alive:
                return alive
            i = alive.index(seat)
            return alive[:i] + alive[i + 1 :]
        if kind in (DOCTOR_ACTION, DOCTOR_PROTECTION_VOTE):
            doctors = self.steps[0].order if kind == DOCTOR_PROTECTION_VOTE else [seat]
            banned = {self.protection_banned(d) for d in doctors}
            return tuple(s for s in alive if s not in banned)
        if kind in (SHERIFF_ACTION, SHERIFF_INVESTIGATION_ASSIGNMENT):
            return self._investigation_targets(seat, kind == SHERIFF_INVESTIGATION_ASSIGNMENT)
        return tuple(s for s in alive if s != seat)

    def _investigation_targets(self, sheriff: int, coordinated: bool) -> tuple[int, ...]:
        """Not oneself, not a player already assigned tonight, and nobody re-investigated
        while someone not yet investigated (and not known to the team) remains."""
        assigned = set(self._night["assigned"]) if coordinated else set()
        candidates = [s for s in self.alive() if s != sheriff and s not in assigned]
        known = {inv.target for inv in self.known_investigations(sheriff)}
        if coordinated and not self.config.allow_multi_role:
            known.update(self.members("sheriffs"))
        fresh = [s for s in candidates if s not in known]
        return tuple(fresh or candidates)

    # --------------------------------------------------------------- actions

    def _on_action(self, step: Step, seat: int, action: Any) -> list[Event]:
        kind = step.kind  # the commonest kinds first
        if kind == DAY_DISCUSSION:
            self.spoken[seat] += 1
            return [self._speech(seat, action)]
        if kind == DAY_VOTE:
            return []  # secret until everyone has voted
        if kind in CHAT_KINDS:
            return [self._chat(CHAT_KINDS[kind], seat, action, step)]
        assert isinstance(action, Choose)
        if kind in TEAM_VOTE_KINDS:
            return [self._team_vote(TEAM_VOTE_KINDS[kind], seat, action)]
        if kind == DOCTOR_ACTION:
            assert action.target is not None
            return [self._protect(seat, action.target, None)]
        if kind in (SHERIFF_ACTION, SHERIFF_INVESTIGATION_ASSIGNMENT):
            assert action.target is not None
            return [self._investigate(seat, action.target)]
        if kind == VIGILANTE_ACTION:
            return [self._vigilante(seat, action, step)]
        return []

    def _chat(self, channel: str, seat: int, action: Say, step: Step) -> Event:
        per_round = len(set(step.order))
        entry = {
            **self._said("chat", seat, action),
            "round": step.position // per_round + 1,
            "rounds": len(step.order) // per_round,
        }
        return self._to_channel(channel, entry)

    def _said(self, kind: str, seat: int, action: Say) -> dict[str, Any]:
        """The fields every message carries: who said what, about whom."""
        return {
            "kind": kind,
            "day": self.day,
            "seat": seat,
            "name": self.names[seat],
            "says": action.says,
            "target": action.target,
            "target_name": self._name_or_none(action.target),
        }

    def _speech(self, seat: int, action: Say) -> Event:
        target = action.target
        entry = {  # _said's fields, and the claim
            "kind": "speech",
            "day": self.day,
            "seat": seat,
            "name": self.names[seat],
            "says": action.says,
            "target": target,
            "target_name": None if target is None else self.names[target],
            "claim": action.claim,
        }
        self.public_log.append(entry)
        return self._event("speech", dict(entry))

    def _team_vote(self, channel: str, seat: int, action: Choose) -> Event:
        votes: dict[int, int] = self._night["votes"].setdefault(channel, {})
        assert action.target is not None
        votes[seat] = action.target
        entry = {
            "kind": "team_vote",
            "day": self.day,
            "seat": seat,
            "name": self.names[seat],
            "target": action.target,
            "target_name": self.names[action.target],
            "says": action.says,
            "tally": _keyed(count(votes.items()).counts),
        }
        return self._to_channel(channel, entry)

    def _protect(
        self, doctor: int, target: int, consensus: Mapping[int | None, float] | None
    ) -> Event:
        self._night["protections"][doctor] = target
        self.last_protection[doctor] = (self.day, target)
        payload: dict[str, Any] = {
            "seat": doctor,
            "target": target,
            "target_name": self.names[target],
            "coordination": consensus is not None,
        }
        if consensus is not None:
            payload["consensus_votes"] = _keyed(consensus)
        self._remember(doctor, {"kind": "protection", "day": self.day, "target": target})
        return self._event("doctor_action", payload, ADMIN)

    def _investigate(self, sheriff: int, target: int) -> Event:
        shared = self.shares_results(sheriff)
        result = Investigation(self.day, sheriff, target, self.seat_roles[target], shared)
        self.investigations.append(result)
        self._night["assigned"].append(target)
        entry = {
            "kind": "investigation",
            "day": self.day,
            "seat": sheriff,
            "name": self.names[sheriff],
            "target": target,
            "target_name": self.names[target],
            "roles": list(result.roles),
            "coordination": shared,
        }
        return self._to_channel("sheriffs", entry) if shared else self._to_seat(sheriff, entry)

    def _vigilante(self, seat: int, action: Choose, step: Step) -> Event:
        entry: dict[str, Any] = {
            "kind": "vigilante_shot" if action.target is not None else "vigilante_pass",
            "day": self.day,
            "seat": seat,
            "name": self.names[seat],
            "says": action.says,
        }
        if action.target is not None:
            self._night["shot"] = (seat, action.target)
            self.shots[seat] = (self.day, action.target)
            entry["target"] = action.target
            entry["target_name"] = self.names[action.target]
            step.closed = True  # at most one shot a night
        if "vigilantes" in self._channels[seat]:
            return self._to_channel("vigilantes", entry)
        return self._to_seat(seat, entry)

    def _to_channel(self, channel: str, entry: dict[str, Any]) -> Event:
        """Record ``entry`` in a private channel's log; its event is visible to that team."""
        self.channel_logs[channel].append(entry)
        return self._event(entry["kind"], {"channel": channel, **entry}, team_visibility(channel))

    def _to_seat(self, seat: int, entry: dict[str, Any]) -> Event:
        """Record ``entry`` for ``seat`` alone."""
        self._remember(seat, entry)
        return self._event(entry["kind"], dict(entry), _private(seat))

    def _remember(self, seat: int, entry: dict[str, Any]) -> None:
        self.private_logs.setdefault(seat, []).append(entry)

    # ---------------------------------------------------------------- steps

    def _finish_step(self, step: Step) -> list[Event]:
        self.steps.pop(0)
        self._views.clear()  # seats a closed step never heard from
        events: list[Event] = []
        if step.kind == MAFIA_VOTE:
            events += self._settle_mafia_vote()
        elif step.kind == DOCTOR_PROTECTION_VOTE:
            events += self._settle_doctor_vote(step.order)
        elif step.kind == DAY_VOTE:
            events += self._settle_day_vote(step.received)
        if not self.steps and self._outcome is None:
            events += self._resolve_night() if self.phase == NIGHT else self._end_day()
        return events

    def _plurality(self, votes: Mapping[int, int]) -> tuple[int, Mapping[int | None, float]]:
        """The team's choice: the most voted target, a tie drawn by the game's seed."""
        tally = count(votes.items())
        tied = seats(tally)
        return (tied[0] if len(tied) == 1 else self.rng.choice(tied)), tally.counts

    def _settle_mafia_vote(self) -> list[Event]:
        target, tally = self._plurality(self._night["votes"]["mafia"])
        self._night["kill"] = target
        entry = {
            "kind": "mafia_target",
            "day": self.day,
            "target": target,
            "target_name": self.names[target],
            "tally": _keyed(tally),
        }
        return [self._to_channel("mafia", entry)]

    def _settle_doctor_vote(self, doctors: list[int]) -> list[Event]:
        target, tally = self._plurality(self._night["votes"]["doctors"])
        entry = {
            "kind": "doctor_consensus",
            "day": self.day,
            "target": target,
            "target_name": self.names[target],
            "tally": _keyed(tally),
            "votes": tally[target],
            "of": len(doctors),
        }
        events = [self._to_channel("doctors", entry)]
        events += [self._protect(d, target, tally) for d in doctors]
        return events

    def _settle_day_vote(self, ballots: Mapping[int, Choose]) -> list[Event]:
        votes = {seat: ballots[seat].target for seat in sorted(ballots)}
        tally = count(votes.items())  # abstentions are not counted
        eliminated = tally.winner if tally.top > 1 else None
        entry: dict[str, Any] = {
            "kind": "vote_result",
            "day": self.day,
            "votes": {str(s): t for s, t in votes.items()},
            "tally": _keyed(tally.counts),
            "eliminated": eliminated,
            "roles": None,
        }
        if eliminated is not None:
            self._die(eliminated)
            entry["name"] = self.names[eliminated]
            entry["roles"] = list(self.seat_roles[eliminated])
        self.public_log.append(entry)
        events = [self._event("vote_result", dict(entry))]
        return events + self._check_winner()

    # ---------------------------------------------------------- phase changes

    def _reset_night(self) -> None:
        self._night: dict[str, Any] = {
            "votes": {},
            "kill": None,
            "protections": {},
            "assigned": [],
            "shot": None,
        }

    def _begin_night(self) -> list[Event]:
        self.phase = NIGHT
        self._reset_night()
        cfg = self.config
        steps: list[Step] = []
        mafia = self.holders(MAFIA)
        if len(mafia) >= 2 and cfg.mafia_chat_rounds:
            steps.append(Step(MAFIA_CHAT, mafia * cfg.mafia_chat_rounds))
        steps.append(Step(MAFIA_VOTE, mafia))
        doctors = self.holders(DOCTOR)
        if self._coordinated(doctors):
            if cfg.doctor_chat_rounds:
                steps.append(Step(DOCTOR_COORDINATION, doctors * cfg.doctor_chat_rounds))
            steps.append(Step(DOCTOR_PROTECTION_VOTE, doctors))
        elif doctors:
            steps.append(Step(DOCTOR_ACTION, doctors, simultaneous=True))
        sheriffs = self.holders(SHERIFF)
        if self._coordinated(sheriffs):
            if cfg.sheriff_chat_rounds:
                steps.append(Step(SHERIFF_COORDINATION, sheriffs * cfg.sheriff_chat_rounds))
            steps.append(Step(SHERIFF_INVESTIGATION_ASSIGNMENT, sheriffs))
        elif sheriffs:
            steps.append(Step(SHERIFF_ACTION, sheriffs, simultaneous=True))
        vigilantes = self.holders(VIGILANTE)
        armed = [v for v in vigilantes if self.has_shot(v)]
        if armed:
            if self._coordinated(vigilantes) and cfg.vigilante_chat_rounds:
                steps.append(Step(VIGILANTE_COORDINATION, vigilantes * cfg.vigilante_chat_rounds))
            steps.append(Step(VIGILANTE_ACTION, armed))
        self.steps = steps
        return [self._event("night_start", {"night": self.day})]

    def _resolve_night(self) -> list[Event]:
        night = self._night
        deaths: dict[int, str] = {}
        if night["shot"] is not None:
            deaths[night["shot"][1]] = "vigilante"
        kill = night["kill"]
        saved = kill is not None and kill in night["protections"].values()
        if kill is not None and not saved:
            deaths.setdefault(kill, "mafia")
        summary = {
            "night": self.day,
            "mafia_target": kill,
            "protections": {str(d): t for d, t in night["protections"].items()},
            "saved": saved,
            "shot": None if night["shot"] is None else list(night["shot"]),
            "deaths": {str(s): cause for s, cause in deaths.items()},
        }
        for seat in deaths:
            self._die(seat)
        dawn = {
            "kind": "dawn",
            "day": self.day,
            "deaths": [
                {"seat": s, "name": self.names[s], "roles": list(self.seat_roles[s])}
                for s in sorted(deaths)
            ],
        }
        self.public_log.append(dawn)
        events = [self._event("night_summary", summary, ADMIN), self._event("dawn", dict(dawn))]
        events += self._check_winner()
        if self._outcome is None:
            events += self._begin_day()
        return events

    def _begin_day(self) -> list[Event]:
        self.phase = DAY
        self.spoken = Counter()
        alive = self.alive()
        start = (self.day - 1) % len(alive)
        rotation = alive[start:] + alive[:start]
        total = min(self.config.discussion_cap, self.config.messages_per_player * len(alive))
        order = (rotation * self.config.messages_per_player)[:total]
        self.steps = [Step(DAY_DISCUSSION, order)] if order else []
        self.steps.append(Step(DAY_VOTE, alive, simultaneous=True))
        return [self._event("day_start", {"day": self.day, "messages": total})]

    def _end_day(self) -> list[Event]:
        if self.day >= self.config.day_limit:
            self._outcome = Outcome(None, Termination.DAY_LIMIT, f"day limit {self.day} reached")
            self.phase = OVER
            return []
        self.day += 1
        return self._begin_night()

    def _check_winner(self) -> list[Event]:
        teams = self.teams
        mafia = sum(1 for s in self._alive if teams[s] == MAFIA_TEAM)
        town = len(self._alive) - mafia
        if mafia == 0:
            self._outcome = Outcome(TOWN, Termination.WIN, "no mafia remains")
        elif mafia >= town:
            self._outcome = Outcome(MAFIA_TEAM, Termination.WIN, "the mafia equal the town")
        else:
            return []
        self.phase = OVER
        self.steps = []
        self._views.clear()
        return [self._event("game_end", {**self._outcome.to_dict(), "roles": _keyed(self.roles())})]

    def _name_or_none(self, seat: int | None) -> str | None:
        return None if seat is None else self.names[seat]

    def _event(self, kind: str, payload: dict[str, Any], visibility: str = PUBLIC) -> Event:
        return Event(kind, payload, visibility, self.day, self.phase)


@cache
def _private(seat: int) -> str:
    """The visibility of an event for ``seat`` alone."""
    return seats_visibility([seat])


@cache
def _decision(seat: int, kind: str) -> Decision:
    """Decisions are immutable and few: one shared instance each (cheaper than a new one)."""
    return Decision(seat, kind)


def _keyed(counts: Mapping[Any, Any]) -> dict[str, Any]:
    """A seat-keyed mapping with string keys, as it reads back from JSON."""
    return {str(seat): value for seat, value in counts.items()}
