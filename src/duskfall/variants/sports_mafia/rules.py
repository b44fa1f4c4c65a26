"""Sports mafia (seed 001): 6 Citizens + Sheriff (RED) against 2 Mafia + Don (BLACK), 10 seats.

Phases: DECLARATION (sequential from the day's first speaker) -> VOTING (simultaneous; a tie
leads to one re-vote among the tied, a second tie to the eliminate-all vote) -> NIGHT_KILL ->
NIGHT_DON -> NIGHT_SHERIFF -> next day. Behaviour follows the reference server (see
``shared/seeds/README.md``): the single killer is the Don, or the lowest living Mafia when the
Don is dead, and may skip with -1; kills take effect at once; checks go only to the checker;
roles are never revealed. A day limit ends the game in a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import compress
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, PUBLIC, Event, seats_visibility, team_visibility
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.rng import derive_rng
from duskfall.core.seating import seated
from duskfall.core.tally import count, seats
from duskfall.core.variant import Decision
from duskfall.variants.sports_mafia.actions import (
    NUM_PLAYERS,
    SKIP,
    ZERO_CLAIMS,
    ZERO_DECLARATION,
    Declaration,
    DonCheck,
    EliminateAllVote,
    Kill,
    SheriffCheck,
    Vote,
)
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.sports_mafia.roles import BLACK, BLACK_ROLES, DECK, DON, RED, SHERIFF
from duskfall.variants.sports_mafia.view import (
    PublicView,
    SportsMafiaObservation,
    VoteRecord,
    observe,
    public_view,
)

DECLARATION, VOTING, NIGHT_KILL, NIGHT_DON, NIGHT_SHERIFF, GAME_OVER = (
    "DECLARATION",
    "VOTING",
    "NIGHT_KILL",
    "NIGHT_DON",
    "NIGHT_SHERIFF",
    "GAME_OVER",
)
SEATS = range(NUM_PLAYERS)
# a phase's target choice: its action type, its wire key and whether it may be skipped
TARGET_KINDS = {
    VOTING: ("VOTE", "vote", False),
    NIGHT_KILL: ("KILL", "kill", True),
    NIGHT_DON: ("DON_CHECK", "don_check", False),
    NIGHT_SHERIFF: ("SHERIFF_CHECK", "sheriff_check", False),
}
ELIMINATE_ALL = EliminateAllChoice()
# every possible pending decision, made once (decisions are immutable): phase -> seat -> decision
DECISIONS = {
    phase: tuple(Decision(seat, phase) for seat in SEATS)
    for phase in (DECLARATION, VOTING, NIGHT_KILL, NIGHT_DON, NIGHT_SHERIFF)
}


# Legal choices are immutable and few (a phase and a set of seats: at most a few thousand), so
# each is made once per process and shared; building one costs more than looking it up.
@cache
def _target_choice(phase: str, targets: tuple[int, ...]) -> TargetChoice:
    action_type, wire_key, allow_skip = TARGET_KINDS[phase]
    return TargetChoice(phase, action_type, wire_key, targets, allow_skip)


@cache
def _declaration_choice(nominable: tuple[int, ...]) -> DeclarationChoice:
    return DeclarationChoice(nominable)


class SportsMafiaState:
    """A sports-mafia game. Plain lists in the hot path; events built only when things happen."""

    variant_id = "sports-mafia"
    num_seats = NUM_PLAYERS

    def __init__(self, config: SportsMafiaConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        deck = list(DECK)
        derive_rng(seed, "deal").shuffle(deck)
        self.role_of: list[str] = seated(deck, config.seat_order)
        self.rng = derive_rng(seed, "rules")
        self.alive_flags = [True] * NUM_PLAYERS
        self.turn = 0
        self.phase = DECLARATION
        self.first_speaker = 0
        self.declarations: list[tuple[int, ...]] = [ZERO_DECLARATION] * NUM_PLAYERS
        self.claims: list[tuple[tuple[int, ...], ...]] = [ZERO_CLAIMS] * NUM_PLAYERS
        self.nominated: list[int] = []
        self.tied: list[int] = []
        self.vote_round = 0  # 0 first vote, 1 re-vote among tied, 2 eliminate-all
        self.votes: dict[int, Any] = {}
        self.vote_history: list[VoteRecord] = []
        self.don_checks: dict[int, bool] = {}
        self.sheriff_checks: dict[int, str] = {}
        self.speakers: list[int] = []
        self.speaker_index = 0
        self._outcome: Outcome | None = None
        # seat -> its legal actions, kept until the state changes (``apply`` clears it)
        self._legal: dict[int, Any] = {}
        self._public: PublicView | None = None  # what every seat sees, until ``apply``
        self._start_day()

    # -- derived facts -------------------------------------------------------------------

    @property
    def day(self) -> int:
        """1-based day number (the observation's ``turn`` is 0-based, as in the seed)."""
        return self.turn + 1

    def alive(self) -> list[int]:
        return list(compress(SEATS, self.alive_flags))

    def roles(self) -> dict[int, str]:
        return dict(enumerate(self.role_of))

    def team_of(self, seat: int) -> str:
        return BLACK if self.role_of[seat] in BLACK_ROLES else RED

    def channels(self, seat: int) -> frozenset[str]:
        return frozenset((BLACK,)) if self.role_of[seat] in BLACK_ROLES else frozenset()

    def black_team(self) -> list[int]:
        return [p for p in range(NUM_PLAYERS) if self.role_of[p] in BLACK_ROLES]

    def killer(self) -> int | None:
        """The Don, or the lowest living Mafia once the Don is dead."""
        living_black = [p for p in self.alive() if self.role_of[p] in BLACK_ROLES]
        for p in living_black:
            if self.role_of[p] == DON:
                return p
        return living_black[0] if living_black else None

    def _living_role(self, role: str) -> int | None:
        for p in range(NUM_PLAYERS):
            if self.alive_flags[p] and self.role_of[p] == role:
                return p
        return None

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- the decision view ---------------------------------------------------------------

    def pending(self) -> Sequence[Decision]:
        if self._outcome is not None:
            return ()
        phase = self.phase
        decisions = DECISIONS[phase]
        if phase == DECLARATION:
            return (decisions[self.speakers[self.speaker_index]],)
        if phase == VOTING:
            votes = self.votes
            return tuple([decisions[p] for p in self.alive() if p not in votes])
        if phase == NIGHT_KILL:
            actor = self.killer()
        else:
            actor = self._living_role(DON if phase == NIGHT_DON else SHERIFF)
        return (decisions[actor],) if actor is not None else ()

    def _is_pending(self, seat: int) -> bool:
        """Whether ``pending()`` holds a decision of ``seat`` (without building it)."""
        if type(seat) is not int or not 0 <= seat < NUM_PLAYERS:
            return any(d.seat == seat for d in self.pending())
        if self._outcome is not None:
            return False
        phase = self.phase
        if phase == DECLARATION:
            return self.speakers[self.speaker_index] == seat
        if phase == VOTING:
            return self.alive_flags[seat] and seat not in self.votes
        if phase == NIGHT_KILL:
            return self.killer() == seat
        return self._living_role(DON if phase == NIGHT_DON else SHERIFF) == seat

    def legal(self, seat: int) -> Any:
        """The seat's legal actions, computed once per decision: ``apply`` reuses them."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        legal = self._legal[seat] = self._new_legal(seat)
        return legal

    def _new_legal(self, seat: int) -> Any:
        if not self._is_pending(seat):
            raise IllegalAction("Not your turn", "not_your_turn")
        phase = self.phase
        if phase == VOTING:
            if self.vote_round == 2:
                return ELIMINATE_ALL
            if self.vote_round == 1:
                return _target_choice(VOTING, tuple(self.tied))
            if self.nominated:
                return _target_choice(VOTING, tuple(sorted(self.nominated)))
        others = self.alive()
        others.remove(seat)  # a pending seat is alive
        if phase == DECLARATION:
            nominated = self.nominated
            return _declaration_choice(tuple([p for p in others if p not in nominated]))
        return _target_choice(phase, tuple(others))

    def observe(self, seat: int) -> SportsMafiaObservation:
        """The seat's view (built by :func:`~duskfall.variants.sports_mafia.view.observe`)."""
        return observe(self, seat)

    # -- transitions ---------------------------------------------------------------------

    def opening_events(self) -> list[Event]:
        black = self.black_team()
        events = [
            self._event("ROLES_DEALT", {"roles": list(self.role_of)}, ADMIN),
            self._event("GAME_STARTED", {"players": NUM_PLAYERS}, PUBLIC),
        ]
        events.extend(
            self._event("ROLE_ASSIGNED", {"player_id": p, "role": r}, seats_visibility([p]))
            for p, r in enumerate(self.role_of)
        )
        don = next(p for p in black if self.role_of[p] == DON)
        events.append(
            self._event("MAFIA_TEAM", {"members": black, "don": don}, team_visibility(BLACK))
        )
        events.append(self._day_started_event())
        return events

    def public_view(self) -> PublicView:
        """The public fields of every seat's observation, built once per change (read-only)."""
        public = self._public
        if public is None:
            public = self._public = public_view(self)
        return public

    def apply(self, seat: int, action: Any) -> list[Event]:
        self._public = None
        action = self.legal(seat).parse(action)
        phase = self.phase
        if phase == VOTING:
            return self._vote(seat, action)  # forgets legal actions itself
        self._legal.clear()
        if phase == DECLARATION:
            return self._declare(seat, action)
        if phase == NIGHT_KILL:
            return self._kill(action)
        if phase == NIGHT_DON:
            return self._don_check(seat, action)
        return self._sheriff_check(seat, action)

    def apply_all(self, actions: Mapping[int, Any]) -> list[Event]:
        events: list[Event] = []
        for seat in sorted(actions):
            events.extend(self.apply(seat, actions[seat]))
        return events

    def _event(self, kind: str, payload: dict[str, Any], visibility: str = PUBLIC) -> Event:
        return Event(kind, payload, visibility, self.turn + 1, self.phase)

    def _day_started_event(self) -> Event:
        return self._event(
            "DAY_STARTED", {"turn": self.turn, "first_speaker": self.first_speaker}, PUBLIC
        )

    def _start_day(self) -> None:
        alive = self.alive()
        start = alive.index(self.first_speaker)
        self.speakers = alive[start:] + alive[:start]
        self.speaker_index = 0
        self.nominated = []
        self.tied = []
        self.vote_round = 0
        self.votes = {}
        self.phase = DECLARATION
        self._legal.clear()

    def _declare(self, seat: int, action: Declaration) -> list[Event]:
        self.declarations[seat] = action.declaration
        self.claims[seat] = action.sheriff_claims
        events = [
            self._event(
                "DECLARATION",
                {
                    "player_id": seat,
                    "declaration": list(action.declaration),
                    "sheriff_claims": list(map(list, action.sheriff_claims)),
                },
            )
        ]
        nominee = self._draw_nomination(action.nomination_policy)
        if nominee is not None:
            self.nominated.append(nominee)
            events.append(self._event("PLAYER_NOMINATED", {"player_id": nominee, "by": seat}))
        self.speaker_index += 1
        if self.speaker_index == len(self.speakers):
            self.phase = VOTING
            events.append(self._event("VOTING_STARTED", {"candidates": sorted(self.nominated)}))
        return events

    def _draw_nomination(self, policy: tuple[tuple[int, float], ...]) -> int | None:
        """One draw from the policy over its positive weights.

        Its targets are legal (alive, not the speaker, not yet nominated) or SKIP:
        ``DeclarationChoice.parse`` has checked every one of them.
        """
        weights = [(t, w) for t, w in policy if w > 0]
        if not weights:
            return None
        point = self.rng.random() * sum([w for _, w in weights])
        for target, weight in weights:
            point -= weight
            if point < 0:
                return None if target == SKIP else target
        last = weights[-1][0]
        return None if last == SKIP else last

    def _vote(self, seat: int, action: Vote | EliminateAllVote) -> list[Event]:
        self.votes[seat] = action.vote if isinstance(action, EliminateAllVote) else action.target
        if len(self.votes) < self.alive_flags.count(True):
            # a vote within a round changes no other voter's choices: only this seat's go
            del self._legal[seat]
            return []
        self._legal.clear()
        votes = dict(sorted(self.votes.items()))
        self.votes = {}
        by_voter = {str(k): v for k, v in votes.items()}  # JSON object keys are strings
        self.vote_history.append({"turn": self.turn, "round": self.vote_round, "votes": by_voter})
        events = [self._event("VOTES", {"round": self.vote_round, "votes": dict(by_voter)})]
        if self.vote_round == 2:
            yes = sum(1 for v in votes.values() if v)
            passed = yes > len(votes) / 2
            events.append(
                self._event(
                    "ELIMINATE_ALL_RESULT",
                    {"tied": list(self.tied), "yes": yes, "no": len(votes) - yes, "passed": passed},
                )
            )
            if passed:
                events.extend(self._eliminate(p) for p in self.tied)
            return events + self._end_day()
        leaders = seats(count(votes.items()))
        if len(leaders) == 1:
            events.append(self._eliminate(leaders[0]))
            return events + self._end_day()
        self.tied = leaders
        self.vote_round += 1
        kind = "REVOTE_STARTED" if self.vote_round == 1 else "ELIMINATE_ALL_STARTED"
        events.append(self._event(kind, {"tied": list(leaders)}))
        return events

    def _eliminate(self, player: int) -> Event:
        self.alive_flags[player] = False
        return self._event("PLAYER_ELIMINATED", {"player_id": player})

    def _end_day(self) -> list[Event]:
        self.tied = []
        self.nominated = []
        if self._check_win():
            return []
        self.phase = NIGHT_KILL
        if self.killer() is None:  # unreachable: no black alive means RED has won
            raise AssertionError("night without a killer")
        return [self._event("NIGHT_STARTED", {})]

    def _kill(self, action: Kill) -> list[Event]:
        events: list[Event] = []
        if action.target != SKIP:
            self.alive_flags[action.target] = False
            events.append(self._event("PLAYER_KILLED", {"player_id": action.target}))
            if self._check_win():
                return events
        else:
            events.append(self._event("NO_KILL", {}))
        if self._living_role(DON) is not None:
            self.phase = NIGHT_DON
            return events
        return events + self._to_sheriff()

    def _don_check(self, seat: int, action: DonCheck) -> list[Event]:
        is_sheriff = self.role_of[action.target] == SHERIFF
        self.don_checks[action.target] = is_sheriff
        event = self._event(
            "DON_CHECK_RESULT",
            {"target": action.target, "is_sheriff": is_sheriff},
            seats_visibility([seat]),
        )
        return [event, *self._to_sheriff()]

    def _sheriff_check(self, seat: int, action: SheriffCheck) -> list[Event]:
        team = self.team_of(action.target)
        self.sheriff_checks[action.target] = team
        event = self._event(
            "SHERIFF_CHECK_RESULT",
            {"target": action.target, "team": team},
            seats_visibility([seat]),
        )
        return [event, *self._next_day()]

    def _to_sheriff(self) -> list[Event]:
        """The sheriff checks if alive (a sheriff killed tonight does not); else the next day."""
        if self._living_role(SHERIFF) is not None:
            self.phase = NIGHT_SHERIFF
            return []
        return self._next_day()

    def _next_day(self) -> list[Event]:
        if self.turn + 1 >= self.config.day_limit:
            self._outcome = Outcome(
                None, Termination.DAY_LIMIT, f"day limit of {self.config.day_limit} reached"
            )
            self.phase = GAME_OVER
            return []
        self.turn += 1
        alive = self.alive()
        self.first_speaker = next((p for p in alive if p > self.first_speaker), alive[0])
        self._start_day()
        return [self._day_started_event()]

    def _check_win(self) -> bool:
        alive = self.alive()
        black = sum(1 for p in alive if self.role_of[p] in BLACK_ROLES)
        red = len(alive) - black
        if black == 0:
            self._outcome = Outcome(RED, Termination.WIN, "every black player is out")
        elif black >= red:
            self._outcome = Outcome(BLACK, Termination.WIN, "black players equal or outnumber red")
        else:
            return False
        self.phase = GAME_OVER
        return True


def new_game(config: SportsMafiaConfig, seed: int) -> SportsMafiaState:
    return SportsMafiaState(config, seed)
