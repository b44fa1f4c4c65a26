"""Werewolf rules (seed 004): a plain, deterministic state machine.

The game is a queue of steps. A step either emits events and goes on, or asks seats for
decisions (:meth:`WerewolfState.pending`) and waits; when the last answer of a batch arrives
(:meth:`WerewolfState.apply`) the batch is resolved and the queue runs on. Night N comes
before day N. See ``phases.py`` for the order and docs/werewolf.md for every rule.

Information isolation: every event carries a visibility, and a seat's history is exactly the
events :func:`~duskfall.core.visible_to` lets it see (:class:`~duskfall.core.seen.SeenEvents`,
the runtime's own record of what each seat was shown: brought up to date when the seat's view
is asked for, so that playing costs nothing for seats nobody observes). ``view.observe`` is
the one place a seat's view is built.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, PUBLIC, Event, seats_visibility, team_visibility
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.rng import derive_rng
from duskfall.core.seating import seated
from duskfall.core.seen import SeenEvents
from duskfall.core.tally import count, seats, seats_of
from duskfall.core.variant import Decision
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.actions import Action, Pick, Say, YesNo
from duskfall.variants.werewolf.config import WerewolfConfig
from duskfall.variants.werewolf.events import Cause
from duskfall.variants.werewolf.legal import (
    Choice,
    SpeechChoice,
    TargetChoice,
    YesNoChoice,
)
from duskfall.variants.werewolf.roles import (
    GODS,
    HUNTER,
    VILLAGE_TEAM,
    VILLAGER,
    WEREWOLF,
    WOLF_TEAM,
    RoleUnit,
    team_of_role,
    unit_of,
)
from duskfall.variants.werewolf.units import CHOICES, TURNS
from duskfall.variants.werewolf.view import PlayerView, WerewolfObservation, observe

WOLF_CHANNEL = team_visibility(WOLF_TEAM)

Resolver = Callable[[dict[int, Action]], None]
"""What settles a batch of answers (a bound method of the state)."""


class Step(NamedTuple):
    """One step of the queue: ``run(*args)`` (a bound method of the state: no names looked up)."""

    run: Callable[..., None]
    args: tuple[Any, ...] = ()


class WerewolfState:
    """One game of Werewolf in progress."""

    variant_id = "werewolf"

    def __init__(self, config: WerewolfConfig, seed: int) -> None:
        self.config = config
        roles = list(config.role_list())
        if config.deal == "shuffle":
            derive_rng(seed, "deal").shuffle(roles)
        roles = seated(roles, config.seat_order)
        self.num_seats = len(roles)
        self.names: tuple[str, ...] = config.seat_names()
        self.role_of: list[str] = roles
        self.is_alive: list[bool] = [True] * self.num_seats
        self.day = 1
        self.phase = P.NIGHT
        self.sheriff: int | None = None
        self.revealed: dict[int, str] = {}  # seat -> role shown to everybody (role hooks)
        self.voteless: set[int] = set()  # living seats no longer asked to vote (role hooks)
        self.notes: dict[str, Any] = {}  # what the units' night choices remember, by role
        self._choosers = tuple(u for u in CHOICES.values() if u.name in roles)
        self._turners = tuple(u for u in TURNS.values() if u.name in roles)
        self.events: list[Event] = []
        self._had_gods = any(r in GODS for r in roles)
        self._had_villagers = VILLAGER in roles
        self._public_rules = config.model_dump(
            exclude={"preset", "roles", "names", "deal", "seat_order"}
        )
        self._roles_in_play: dict[str, int] = {}
        for role in roles:  # in order of first appearance, as Counter counts them
            self._roles_in_play[role] = self._roles_in_play.get(role, 0) + 1
        self._derive()
        self._new_night()
        self._night_deaths: list[tuple[int, str]] = []
        self._candidates: list[int] = []
        self._outcome: Outcome | None = None
        self._queue: deque[Step] = deque([Step(self._night_start, (1,))])
        self._legal: dict[int, Choice] = {}  # see legal()
        self._speech_choices = {
            kind: _speech_choice(kind, config.speech_max_chars) for kind in P.SPEECH_KINDS
        }
        self._clear_asks()
        self._deal()
        self._run()
        self._opening = len(self.events)

    # -- derived tables -------------------------------------------------------------------

    def _derive(self) -> None:
        """Tables that follow from the roles (rebuilt if roles change, e.g. when scrambled)."""
        n = self.num_seats
        self.is_wolf = [r == WEREWOLF for r in self.role_of]
        self._channels = [
            frozenset({WOLF_TEAM}) if self.is_wolf[s] else frozenset() for s in range(n)
        ]
        self._role_seat = {r: s for s, r in enumerate(self.role_of) if r in GODS}
        self._players: list[PlayerView] | None = None
        self._living_seats: tuple[int, ...] | None = None
        # every seat's history, read from the events (and the channels) as they are now
        self._seen = SeenEvents(self.events, self._channels.__getitem__)
        self._same_targets: dict[tuple[str, tuple[int, ...]], TargetChoice] = {}

    def _new_night(self) -> None:
        self._attacked: int | None = None
        self.saved = False  # the wolves' target saved tonight (a role's turn)
        self.poisoned: int | None = None  # the seat poisoned tonight (a role's turn)
        self.shielded: set[int] = set()  # seats an attack of the wolves spares (role choices)

    def _clear_asks(self) -> None:
        self._asks: dict[int, str] = {}
        self._answers: dict[int, Action] = {}
        self._pending: list[Decision] = []
        self._legal.clear()  # already empty once every asked seat has answered
        self._resolver: Resolver | None = None

    # -- the State contract ---------------------------------------------------------------

    def opening_events(self) -> list[Event]:
        return self.events[: self._opening]

    def pending(self) -> list[Decision]:
        answers = self._answers
        if not answers:
            return self._pending[:]
        return [d for d in self._pending if d.seat not in answers]

    def legal(self, seat: int) -> Choice:
        """The choices of a pending seat; IllegalAction(``not_your_turn``) for any other.

        Built once per decision: ``_legal`` holds the choices of the seats still to answer.
        """
        choice = self._legal.get(seat)
        if choice is None:
            kind = self._asks.get(seat)
            if kind is None or seat in self._answers:
                raise IllegalAction(f"it is not seat {seat}'s turn", "not_your_turn")
            choice = self._legal[seat] = self._choice(seat, kind)
        return choice

    def apply(self, seat: int, action: Any) -> list[Event]:
        legal = self._legal.get(seat)  # none once the game is over (_end clears the asks)
        if legal is None:
            if self._outcome is not None:
                raise IllegalAction("the game is over", "not_your_turn")
            legal = self.legal(seat)
        start = len(self.events)
        answers = self._answers
        answers[seat] = legal.parse(action)
        del self._legal[seat]
        if len(answers) == len(self._asks):
            resolver = self._resolver
            assert resolver is not None
            self._clear_asks()
            resolver(answers)
            self._run()
        return self.events[start:]

    def apply_all(self, actions: Mapping[int, Any]) -> list[Event]:
        parsed = {}
        for seat in sorted(actions):
            parsed[seat] = self.legal(seat).parse(actions[seat])
        events: list[Event] = []
        for seat, action in parsed.items():
            events.extend(self.apply(seat, action))
        return events

    def outcome(self) -> Outcome | None:
        return self._outcome

    def channels(self, seat: int) -> frozenset[str]:
        return self._channels[seat]

    def roles(self) -> dict[int, str]:
        return dict(enumerate(self.role_of))

    def team_of(self, seat: int) -> str:
        return team_of_role(self.role_of[seat])

    def alive(self) -> list[int]:
        return [s for s in range(self.num_seats) if self.is_alive[s]]

    def observe(self, seat: int) -> WerewolfObservation:
        """The seat's view (built by :func:`~duskfall.variants.werewolf.view.observe`)."""
        return observe(self, seat)

    # -- what the view reads --------------------------------------------------------------

    @property
    def roles_in_play(self) -> dict[str, int]:
        return self._roles_in_play

    @property
    def public_rules(self) -> dict[str, Any]:
        """The options every player knows (shared by every observation: read-only)."""
        return self._public_rules

    def decision_of(self, seat: int) -> str | None:
        """The kind of decision ``seat`` is asked now and has not answered yet."""
        return self._asks.get(seat) if seat not in self._answers else None

    def history(self, seat: int) -> list[dict[str, Any]]:
        """The events ``seat`` saw, flattened (caught up with the events since the last call)."""
        return self._seen.entries(seat)

    def players_view(self) -> list[PlayerView]:
        """The public roster, rebuilt only after a death (observations are read-only)."""
        if self._players is None:
            self._players = [
                {"seat": s, "name": self.names[s], "alive": self.is_alive[s]}
                for s in range(self.num_seats)
            ]
        return self._players

    # -- events ---------------------------------------------------------------------------

    def _emit(
        self, kind: str, visibility: str, sub_phase: str | None = None, **payload: Any
    ) -> None:
        payload["sub_phase"] = sub_phase
        self.events.append(Event(kind, payload, visibility, self.day, self.phase))

    emit = _emit  # what a role's hooks call (RoleUnit.exiled and the like)

    @property
    def attacked(self) -> int | None:
        """The seat the wolves attacked tonight (what a unit's night choice reads)."""
        return self._attacked

    def _deal(self) -> None:
        self._emit(
            "game_start",
            PUBLIC,
            players=list(self.names),
            roles_in_play=dict(self._roles_in_play),
            options=dict(self._public_rules),
        )
        self._emit("roles_dealt", ADMIN, roles=list(self.role_of))
        for seat, role in enumerate(self.role_of):
            self._emit("role_assigned", _private(seat), seat=seat, role=role)
        wolves = [s for s in range(self.num_seats) if self.is_wolf[s]]
        self._emit("wolf_team", WOLF_CHANNEL, wolves=wolves)

    # -- the step machine -----------------------------------------------------------------

    def _run(self) -> None:
        queue = self._queue
        while self._outcome is None and not self._pending:
            if not queue:
                queue.append(
                    Step(self._day_start)
                    if self.phase == P.NIGHT
                    else Step(self._night_start, (self.day + 1,))
                )
            run, args = queue.popleft()
            run(*args)

    def _next(self, *steps: Step) -> None:
        """Run ``steps`` before whatever is queued."""
        self._queue.extendleft(reversed(steps))

    def _ask(self, resolver: Resolver, asks: Sequence[tuple[int, str]]) -> None:
        self._asks = dict(asks)
        self._pending = [_decision(seat, kind) for seat, kind in asks]
        self._resolver = resolver

    def _ask_all(
        self, resolver: Resolver, kind: str, seats: Sequence[int], shared: bool = False
    ) -> None:
        """Ask ``seats`` the same kind of decision; ``shared``: with the same choices, made
        here once for all of them."""
        self._ask(resolver, [(seat, kind) for seat in seats])
        if shared and seats:
            self._legal = dict.fromkeys(seats, self._choice(seats[0], kind))

    def living(self, exclude: int | None = None) -> tuple[int, ...]:
        """The living seats (but ``exclude``), in seat order."""
        return self._living(exclude)

    def _living(self, exclude: int | None = None) -> tuple[int, ...]:
        living = self._living_seats
        if living is None:  # worked out again after a death
            living = self._living_seats = tuple(
                s for s in range(self.num_seats) if self.is_alive[s]
            )
        if exclude is None or exclude not in living:
            return living
        i = living.index(exclude)
        return living[:i] + living[i + 1 :]

    def _living_wolves(self) -> list[int]:
        is_wolf = self.is_wolf
        return [s for s in self._living() if is_wolf[s]]

    def _living_role(self, role: str) -> int | None:
        seat = self._role_seat.get(role)
        return seat if seat is not None and self.is_alive[seat] else None

    def _choice(self, seat: int, kind: str) -> Choice:
        names = self.names
        if kind in P.SPEECH_KINDS:
            return _speech_choice(kind, self.config.speech_max_chars)
        if kind in (P.BADGE_RUN, P.BADGE_WITHDRAW):
            return _yes_no_choice(kind)
        turner = TURNS.get(kind)
        if turner is not None and turner.turn is not None:
            legal: Choice = turner.turn.legal(self, seat)
            return legal
        unit = CHOICES.get(kind)
        if unit is not None and unit.choice is not None:
            own = unit.choice
            targets, none_word = own.targets(self, seat), own.none_word
            return TargetChoice(kind, targets, bool(none_word), none_word, names, own.question)
        if kind == P.WOLF_KILL:
            targets, none_word = self._living(), "no kill"
        elif kind == P.BADGE_VOTE:
            targets = tuple(c for c in self._candidates if c in self._remaining)
            none_word = "abstain"
        else:  # everyone but the seat itself: a choice of its own
            targets = self._living(exclude=seat)
            return TargetChoice(kind, targets, True, _NONE_WORDS[kind], names, _Q[kind])
        key = (kind, targets)
        choice = self._same_targets.get(key)
        if choice is None:  # the wolves (and the badge voters) share one choice
            choice = TargetChoice(kind, targets, True, none_word, names, _Q[kind])
            if len(self._same_targets) > 64:
                self._same_targets.clear()
            self._same_targets[key] = choice
        return choice

    # -- night ----------------------------------------------------------------------------

    def _night_start(self, night: int) -> None:
        self.day, self.phase = night, P.NIGHT
        self._new_night()
        self._emit("night_start", PUBLIC)
        self._queue.extend(
            [
                Step(self._wolf_round, (1,)),
                *(Step(self._turn, (unit,)) for unit in self._turners),
                Step(self._choices_turn),
                Step(self._resolve_night),
            ]
        )

    def _wolf_round(self, round_no: int) -> None:
        wolves = self._living_wolves()
        chat: list[Step] = (
            [Step(self._ask_speech, (P.WOLF_CHAT, w)) for w in wolves] if len(wolves) > 1 else []
        )
        self._next(*chat, Step(self._ask_wolf_kill, (round_no,)))

    def _ask_wolf_kill(self, round_no: int) -> None:
        self._wolf_round_no = round_no
        self._ask_all(self._resolve_wolf_kill, P.WOLF_KILL, self._living_wolves(), shared=True)

    def _resolve_wolf_kill(self, answers: dict[int, Action]) -> None:
        votes = [(seat, _target(answers[seat])) for seat in sorted(answers)]
        casts = [{"seat": s, "target": t} for s, t in votes]
        agreed = len({t for _, t in votes}) == 1
        if not agreed and self._wolf_round_no < self.config.wolf_rounds:
            self._emit(
                "wolf_votes", WOLF_CHANNEL, P.WOLF_KILL, round=self._wolf_round_no, votes=casts
            )
            self._next(Step(self._wolf_round, (self._wolf_round_no + 1,)))
            return
        # the most voted target (killing nobody counts): the first voted for among a tie
        self._attacked = count(votes, nobody_counts=True).leaders[0]
        self._emit("werewolf_kill", WOLF_CHANNEL, P.WOLF_KILL, target=self._attacked, votes=casts)

    def _turn(self, unit: RoleUnit) -> None:
        """A unit's own night turn (:data:`~.units.TURNS`): its living holder is told, then
        asked alone."""
        turn = unit.turn
        seat = self._living_role(unit.name)
        if turn is None or seat is None or not turn.tell(self, seat):
            return
        self._ask(self._resolve_turn, [(seat, turn.kind)])

    def _resolve_turn(self, answers: dict[int, Action]) -> None:
        ((seat, action),) = answers.items()
        turn = TURNS[action.kind].turn
        assert turn is not None
        turn.resolve(self, seat, action)

    def _choices_turn(self) -> None:
        """The units' own night choices (:data:`~.units.CHOICES`): every living holder at
        once, after the units' own turns, without being told whom the wolves attacked."""
        asks = [
            (seat, unit.choice.kind)
            for unit in self._choosers
            if unit.choice is not None
            for seat in self._living()
            if self.role_of[seat] == unit.name
        ]
        if asks:
            self._ask(self._resolve_choices, sorted(asks))

    def _resolve_choices(self, answers: dict[int, Action]) -> None:
        for seat in sorted(answers):
            action = answers[seat]
            assert isinstance(action, Pick)
            choice = CHOICES[action.kind].choice
            assert choice is not None
            choice.resolve(self, seat, action.target)

    def _resolve_night(self) -> None:
        deaths: dict[int, str] = {}
        attacked = self._attacked
        guarded = attacked is not None and attacked in self.shielded
        if attacked is not None and not guarded:
            deaths[attacked] = Cause.WOLVES.value
        for unit in self._turners:  # a save, a poison...
            assert unit.turn is not None
            unit.turn.settle(self, deaths)
        for unit in self._choosers:
            assert unit.choice is not None
            unit.choice.settle(self, deaths)
        self._night_deaths = sorted(deaths.items())
        self._emit(
            "night_resolved",
            ADMIN,
            attacked=attacked,
            saved=self.saved,
            guarded=guarded,
            poisoned=self.poisoned,
            deaths=[{"seat": s, "cause": c} for s, c in self._night_deaths],
        )

    # -- day ------------------------------------------------------------------------------

    def _day_start(self) -> None:
        self.phase = P.DAY
        self._emit("day_start", PUBLIC)
        if self.day == 1 and self.config.badge:
            self._queue.append(Step(self._badge_run))
        self._queue.extend(
            [Step(self._dawn), Step(self._day_speeches), Step(self._ask_vote), Step(self._day_end)]
        )

    def _dawn(self) -> None:
        deaths, self._night_deaths = self._night_deaths, []
        self._emit("deaths", PUBLIC, seats=[s for s, _ in deaths])
        last_words = self.day == 1 or not self.config.last_words_first_night_only
        self._deaths(deaths, last_words)

    def _deaths(self, batch: Sequence[tuple[int, str]], last_words: bool) -> None:
        """Apply deaths, check for a winner, then queue last words, shots and badge passes."""
        for seat, _ in batch:
            self.is_alive[seat] = False
        self._players = self._living_seats = None
        if self._check_win():
            return
        steps: list[Step] = []
        for seat, cause in batch:
            if last_words:
                steps.append(Step(self._ask_speech, (P.LAST_WORDS, seat)))
            if (
                self.role_of[seat] == HUNTER
                and self.config.hunter_shot
                and cause in (Cause.WOLVES.value, Cause.EXILE.value)
            ):
                steps.append(Step(self._ask_one, (self._resolve_hunter, P.HUNTER_SHOT, seat)))
            if self.sheriff == seat:
                steps.append(Step(self._ask_one, (self._resolve_badge_pass, P.BADGE_PASS, seat)))
        self._next(*steps)

    def _ask_one(self, resolver: Resolver, kind: str, seat: int) -> None:
        self._ask(resolver, [(seat, kind)])

    def _ask_speech(self, kind: str, seat: int) -> None:
        """Ask one speech (the commonest decision: its choices are made here at once)."""
        if self.is_alive[seat] or kind == P.LAST_WORDS:
            self._asks = {seat: kind}
            self._pending = [_decision(seat, kind)]
            self._legal = {seat: self._speech_choices[kind]}
            self._resolver = self._resolve_speech

    def _resolve_speech(self, answers: dict[int, Action]) -> None:
        ((seat, action),) = answers.items()
        assert isinstance(action, Say)
        kind = action.kind
        self.events.append(
            Event(
                "speech",
                {"seat": seat, "text": action.text, "sub_phase": kind},
                WOLF_CHANNEL if kind == P.WOLF_CHAT else PUBLIC,
                self.day,
                self.phase,
            )
        )

    def _resolve_hunter(self, answers: dict[int, Action]) -> None:
        ((seat, action),) = answers.items()
        target = _target(action)
        self._emit("hunter_shot", PUBLIC, P.HUNTER_SHOT, seat=seat, target=target)
        if target is not None:
            self._deaths([(target, Cause.HUNTER.value)], last_words=False)

    def _resolve_badge_pass(self, answers: dict[int, Action]) -> None:
        ((seat, action),) = answers.items()
        self.sheriff = _target(action)
        self._emit("badge_passed", PUBLIC, P.BADGE_PASS, seat=seat, target=self.sheriff)

    def _day_speeches(self) -> None:
        order = [s for s in self._living() if s != self.sheriff]
        if self.sheriff is not None and self.is_alive[self.sheriff]:
            order.append(self.sheriff)
        self._next(*(Step(self._ask_speech, (P.SPEECH, s)) for s in order))

    def _ask_vote(self) -> None:
        voters = self._living()
        if self.voteless:
            voters = tuple(s for s in voters if s not in self.voteless)
        self._ask_all(self._resolve_vote, P.VOTE, voters)

    def _resolve_vote(self, answers: dict[int, Action]) -> None:
        chosen = self._count_votes(answers, P.VOTE, lambda s: 1.5 if s == self.sheriff else 1.0)
        if chosen is not None and unit_of(self.role_of[chosen]).exiled(self, chosen):
            self._emit("exiled", PUBLIC, P.VOTE, seat=chosen)
            self._deaths([(chosen, Cause.EXILE.value)], last_words=True)

    def _count_votes(
        self, answers: dict[int, Action], kind: str, weight: Callable[[int], float]
    ) -> int | None:
        """Reveal the votes and tally them; a unique top seat is chosen, a tie chooses no one."""
        casts: list[tuple[int, int | None]] = []
        events, day, phase = self.events, self.day, self.phase
        for seat in sorted(answers):
            target = _target(answers[seat])
            payload = {"seat": seat, "target": target, "weight": weight(seat), "sub_phase": kind}
            events.append(Event("vote", payload, PUBLIC, day, phase))
            casts.append((seat, target))
        tally = count(casts, weight)
        tied = seats(tally)
        chosen = tally.winner
        self._emit(
            "vote_result",
            PUBLIC,
            kind,
            tally=[{"seat": s, "votes": tally.counts[s]} for s in sorted(seats_of(tally))],
            chosen=chosen,
            tied=tied if len(tied) > 1 else [],
        )
        return chosen

    def _day_end(self) -> None:
        if self.day >= self.config.day_limit:
            self._end(None, f"day limit ({self.config.day_limit}) reached", Termination.DAY_LIMIT)

    # -- sheriff election -----------------------------------------------------------------

    def _badge_run(self) -> None:
        self._ask_all(self._resolve_badge_run, P.BADGE_RUN, self._living(), shared=True)

    def _resolve_badge_run(self, answers: dict[int, Action]) -> None:
        self._candidates = [s for s in sorted(answers) if _yes(answers[s])]
        self._remaining = list(self._candidates)
        self._emit("badge_candidates", PUBLIC, P.BADGE_RUN, candidates=self._candidates)
        if len(self._candidates) < 2:
            self._settle_badge()
            return
        speeches = [Step(self._ask_speech, (P.BADGE_SPEECH, c)) for c in self._candidates]
        self._next(*speeches, Step(self._badge_withdraw))

    def _badge_withdraw(self) -> None:
        self._ask_all(self._resolve_badge_withdraw, P.BADGE_WITHDRAW, self._candidates, shared=True)

    def _resolve_badge_withdraw(self, answers: dict[int, Action]) -> None:
        withdrawn = [s for s in sorted(answers) if _yes(answers[s])]
        self._remaining = [c for c in self._candidates if c not in withdrawn]
        self._emit(
            "badge_withdrawals",
            PUBLIC,
            P.BADGE_WITHDRAW,
            withdrawn=withdrawn,
            remaining=self._remaining,
        )
        voters = [s for s in self._living() if s not in self._candidates]
        if len(self._remaining) < 2 or not voters:
            self._settle_badge()
            return
        self._ask_all(self._resolve_badge_vote, P.BADGE_VOTE, voters, shared=True)

    def _settle_badge(self) -> None:
        """No vote: a lone candidate is elected; no candidate, or no voter, loses the badge."""
        if len(self._remaining) == 1:
            self._elect(self._remaining[0], "unopposed")
        elif not self._candidates:
            self._elect(None, "nobody ran")
        elif not self._remaining:
            self._elect(None, "every candidate withdrew")
        else:
            self._elect(None, "nobody was left to vote")

    def _resolve_badge_vote(self, answers: dict[int, Action]) -> None:
        chosen = self._count_votes(answers, P.BADGE_VOTE, lambda s: 1.0)
        self._elect(chosen, "elected" if chosen is not None else "tie or no votes: badge lost")

    def _elect(self, seat: int | None, reason: str) -> None:
        self.sheriff = seat
        self._emit("sheriff_elected", PUBLIC, P.BADGE_VOTE, seat=seat, reason=reason)

    # -- the end --------------------------------------------------------------------------

    def _check_win(self) -> bool:
        wolves = gods = villagers = 0
        for seat in range(self.num_seats):
            if self.is_alive[seat]:
                role = self.role_of[seat]
                if role == WEREWOLF:
                    wolves += 1
                elif role == VILLAGER:
                    villagers += 1
                else:
                    gods += 1
        if wolves == 0:
            self._end(VILLAGE_TEAM, "all werewolves are dead")
        elif self.config.win_condition == "all-kill":
            if gods + villagers == 0:
                self._end(WOLF_TEAM, "every villager and god is dead")
        elif self._had_gods and gods == 0:
            self._end(WOLF_TEAM, "all gods are dead")
        elif self._had_villagers and villagers == 0:
            self._end(WOLF_TEAM, "all villagers are dead")
        return self._outcome is not None

    def _end(self, winner: str | None, reason: str, how: Termination = Termination.WIN) -> None:
        self._outcome = Outcome(winner, how, reason)
        self._queue.clear()
        self._clear_asks()
        self._emit("game_end", PUBLIC, winner=winner, reason=reason, roles=list(self.role_of))


# Decisions and the choices that depend on nothing but their kind are immutable values, and
# there are few of them: each is made once and shared (building a frozen dataclass costs
# about as much as a whole simple decision otherwise).
@cache
def _decision(seat: int, kind: str) -> Decision:
    return Decision(seat, kind)


@cache
def _private(seat: int) -> str:
    """The visibility of an event for ``seat`` alone."""
    return seats_visibility([seat])


@cache
def _speech_choice(kind: str, max_chars: int) -> SpeechChoice:
    return SpeechChoice(kind, max_chars, _SPEECH_QUESTIONS[kind])


@cache
def _yes_no_choice(kind: str) -> YesNoChoice:
    return YesNoChoice(kind, _YES_NO_QUESTIONS[kind])


def _target(action: Action) -> int | None:
    assert isinstance(action, Pick)
    return action.target


def _yes(action: Action) -> bool:
    assert isinstance(action, YesNo)
    return action.yes


_SPEECH_QUESTIONS = {
    P.WOLF_CHAT: "Talk privately with your fellow werewolves about tonight's kill.",
    P.BADGE_SPEECH: "Give your campaign speech for sheriff.",
    P.SPEECH: "Give your day speech.",
    P.LAST_WORDS: "You are dead. Say your last words.",
}
_YES_NO_QUESTIONS = {
    P.BADGE_RUN: "Do you run for sheriff?",
    P.BADGE_WITHDRAW: "Do you withdraw from the sheriff race?",
}
_NONE_WORDS = {P.VOTE: "abstain", P.HUNTER_SHOT: "hold fire", P.BADGE_PASS: "tear up the badge"}
_Q = {
    P.WOLF_KILL: "Whom do the werewolves kill tonight?",
    P.BADGE_VOTE: "Whom do you vote for sheriff?",
    P.VOTE: "Whom do you vote to exile?",
    P.HUNTER_SHOT: "You are dead. Whom do you shoot?",
    P.BADGE_PASS: "You are dead. To whom do you pass the sheriff's badge?",
}
