"""The win-probability line of a logged game: the village's chance at each moment, by rollouts.

At every phase boundary (or every round: ``every="round"``) the game is rebuilt as a fork
would rebuild it, with the policy's bots brought through it, and ``rollouts`` seeded
rollouts (:mod:`duskfall.lab.rollouts`) estimate the village's chance of winning from there,
with a Wilson 95% interval. The line is an estimate *under that policy*: what bots playing
each seat would make of the position (roles known to the rules, not to the seats), not what
the game's own players would have. The same log, policy, rollouts and seed give the same line.

:meth:`WinLine.swings` lists the moments that moved it most, each with who left the game
between its two points ("the VOTE on day 2, seat 5 (Werewolf) out: village 61% -> 38%").
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from duskfall.core.events import Event
from duskfall.core.rng import check_seed, derive_rng
from duskfall.core.stats import Proportion
from duskfall.core.variant import State, Variant
from duskfall.lab.moments import Moment
from duskfall.lab.rebuild import rebuild
from duskfall.lab.rollouts import DEFAULT_POLICY, Policy, Snapshot, village_wins, village_won
from duskfall.lab.rounds import Round, check_rebuildable
from duskfall.lab.warmup import BotWarmUp
from duskfall.runtime.settings import RuntimeSettings
from duskfall.store.log import GameLog
from duskfall.store.replay import Replayer

Every = Literal["phase", "round"]
DEFAULT_ROLLOUTS = 200


@dataclass(frozen=True)
class Departure:
    """Seats that left the game in one round (a vote's exile, a night's kills); ``kinds`` is
    empty for deaths the rules decided at the phase's end (a night's kills)."""

    kinds: tuple[str, ...]
    day: int
    phase: str
    seats: tuple[int, ...]

    def describe(self, roles: dict[int, str]) -> str:
        who = ", ".join(f"seat {seat} ({roles.get(seat, '?')})" for seat in self.seats)
        moment = f"{self.phase.lower()} {self.day}"
        if not self.kinds:
            return f"{moment}, {who} out"
        return f"the {'/'.join(self.kinds)} on {moment}, {who} out"


@dataclass(frozen=True)
class Point:
    """The village's chance from one moment: ``wins`` of ``rollouts`` (exact at the end);
    ``departures``: who left the game between this point and the next."""

    event: int
    day: int
    phase: str
    kinds: tuple[str, ...]
    wins: int
    rollouts: int
    departures: tuple[Departure, ...] = ()
    exact: bool = False  # the end of the game: no estimate

    @property
    def chance(self) -> Proportion:
        return Proportion(self.wins, self.rollouts)

    def interval(self) -> tuple[float, float]:
        rate = self.chance.rate
        return (rate, rate) if self.exact else self.chance.interval()

    @property
    def label(self) -> str:
        if self.exact:
            return "the end"
        shown = [kind for kind in self.kinds if kind.lower() != self.phase.lower()]
        moment = f"{self.phase.lower()} {self.day}"
        return f"{moment} ({'/'.join(shown)})" if shown else moment

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "event": self.event,
            "day": self.day,
            "phase": self.phase,
            "decisions": list(self.kinds),
            "label": self.label,
            "chance": self.chance.rate,
            "low": low,
            "high": high,
            "wins": self.wins,
            "rollouts": self.rollouts,
            "exact": self.exact,
            "left": [seat for departure in self.departures for seat in departure.seats],
        }


@dataclass(frozen=True)
class Sampled:
    """How a line estimated from samples of the game's own agents was made
    (:mod:`duskfall.lab.sampled_line`): ``agents`` (their spec, or None: the game's own),
    ``samples`` asked per point, the model calls made after the points (all samples) and the
    budget that bounded them; each point's ``rollouts`` are the samples it used."""

    agents: str | None
    samples: int
    calls: int
    max_calls: int | None

    def note(self, line: WinLine) -> str:
        who = "the game's own agents" if self.agents is None else f"agents {self.agents!r}"
        used = [point.rollouts for point in line.points if not point.exact]
        played = f"{min(used, default=0)}-{max(used, default=0)}" if used else "0"
        budget = "" if self.max_calls is None else f" (budget {self.max_calls})"
        return (
            f"an estimate from samples of {who} playing on (fork --samples): {played} of "
            f"{self.samples} asked per point (seed {line.seed}), {self.calls} model "
            f"calls{budget}, 95% intervals"
        )


@dataclass(frozen=True)
class Swing:
    """How the line moved from one point to the next, and why (who left between them)."""

    before: Point
    after: Point
    roles: dict[int, str]

    @property
    def change(self) -> float:
        return self.after.chance.rate - self.before.chance.rate

    def describe(self, side: str) -> str:
        what = "; ".join(d.describe(self.roles) for d in self.before.departures)
        where = what or f"{self.before.label} (nobody out)"
        return f"{where}: {side} {self.before.chance.rate:.0%} -> {self.after.chance.rate:.0%}"


@dataclass
class WinLine:
    """The line of one game (see the module docstring)."""

    game_id: str
    side: str
    policy: str
    rollouts: int
    seed: int
    every: Every
    points: list[Point] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)
    finished: bool = False
    sampled: Sampled | None = None  # a line of the game's own agents' samples, not bots'

    def swings(self, top: int = 3) -> list[Swing]:
        """The ``top`` moves of the line, largest first."""
        moves = [
            Swing(before, after, self.roles)
            for before, after in itertools.pairwise(self.points)
            if after.chance.rate != before.chance.rate
        ]
        return sorted(moves, key=lambda swing: -abs(swing.change))[:top]

    @property
    def note(self) -> str:
        """What the line is: said wherever it is shown."""
        if self.sampled is not None:
            return self.sampled.note(self)
        return (
            f"an estimate under the {self.policy!r} bot policy: {self.rollouts} seeded "
            f"rollouts per point (seed {self.seed}), 95% intervals"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "side": self.side,
            "policy": self.policy,
            "rollouts": self.rollouts,
            "seed": self.seed,
            "every": self.every,
            "note": self.note,
            "finished": self.finished,
            "sampled": None if self.sampled is None else dataclasses.asdict(self.sampled),
            "points": [point.to_dict() for point in self.points],
            "swings": [
                {
                    "from": swing.before.event,
                    "to": swing.after.event,
                    "change": swing.change,
                    "text": swing.describe(self.side),
                }
                for swing in self.swings()
            ],
        }


Progress = Callable[[int, int], None]
"""Told (points done, points in all) as the line is computed."""


def win_line(
    log: GameLog,
    *,
    policy: str = DEFAULT_POLICY,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    every: Every = "phase",
    at: str | None = None,
    progress: Progress | None = None,
) -> WinLine:
    """The win-probability line of ``log`` (see the module docstring); with ``at`` (a moment
    as ``duskfall fork --at`` names it), only that moment's point and the end."""
    if rollouts < 1:
        raise ValueError("at least one rollout per point")
    walk = walk_line(log, policy=policy, seed=seed, every=every, at=at)
    line = walk.line(policy, rollouts, seed)
    for done, (round_, snapshot) in enumerate(walk.chosen):
        assert snapshot is not None
        walk.add_point(line, done, village_wins(snapshot, rollouts, seed, round_.start), rollouts)
        if progress is not None:
            progress(done + 1, len(walk.chosen))
    return walk.finish(line)


@dataclass
class Walk:
    """A logged game gone through once for its line: the rounds ``chosen`` for a point (each
    with the policy's bots frozen there, if a policy was given), who left in which round, and
    the game at its end. :meth:`line`, :meth:`add_point` and :meth:`finish` make the line of
    whatever estimates each point."""

    game_id: str
    events: int
    variant: Variant
    roles: dict[int, str]
    every: Every
    rounds: list[Round]
    chosen: list[tuple[Round, Snapshot | None]]
    departures: list[tuple[int, Departure]]
    end: State

    def line(self, policy: str, rollouts: int, seed: int) -> WinLine:
        """The line, without its points yet."""
        finished = self.end.outcome() is not None
        return WinLine(self.game_id, self.variant.teams[0], policy, rollouts, seed, self.every,
                       roles=self.roles, finished=finished)  # fmt: skip

    def add_point(self, line: WinLine, number: int, wins: int, rollouts: int) -> None:
        """The point of chosen round ``number``: the village won ``wins`` of ``rollouts``."""
        round_ = self.chosen[number][0]
        last = number + 1 == len(self.chosen)
        until = len(self.rounds) if last else self.chosen[number + 1][0].number
        left = tuple(d for n, d in self.departures if round_.number <= n < until)
        line.points.append(
            Point(round_.start, round_.day, round_.phase, round_.kinds, wins, rollouts, left)
        )

    def finish(self, line: WinLine) -> WinLine:
        """The line with its exact last point when the game ended."""
        outcome = self.end.outcome()
        if outcome is not None:
            won = int(village_won(self.variant, outcome))
            end = self.end
            line.points.append(Point(self.events, end.day, end.phase, ("end",), won, 1, exact=True))
        return line


def walk_line(
    log: GameLog, *, policy: str | None, seed: int, every: Every = "phase", at: str | None = None
) -> Walk:
    """Go through ``log`` once (one deal), choosing a point at every phase boundary (or every
    round, or only the round ``at`` names) and, with a bot ``policy``, freezing its bots
    there (brought through the game so far, seeded from ``seed``)."""
    check_seed(seed, "--seed")
    check_rebuildable(log)
    moment = None if at is None else Moment(at)
    replayer = Replayer(log.header)  # the one deal: its fresh state seats the policy's bots
    variant, dealt = replayer.variant, replayer.state
    roles = dealt.roles()
    bots = None if policy is None else Policy(variant, policy, dealt).bots(seed)
    warm = None
    if bots is not None:
        warm = BotWarmUp(variant, bots, derive_rng(seed, "fallback"), RuntimeSettings(), "line")
    chosen: list[tuple[Round, Snapshot | None]] = []
    alive: list[tuple[Round, set[int]]] = []  # every round, with who was alive at its start

    def is_point(round_: Round) -> bool:
        if moment is None:
            return every == "round" or round_.opens_phase
        return not chosen and moment.is_at(round_)

    def at_round(state: State, round_: Round, events: Sequence[Event]) -> None:
        alive.append((round_, set(state.alive())))
        if is_point(round_):
            frozen = None if bots is None else Snapshot.take(variant, state, bots)
            chosen.append((round_, frozen))
        if warm is not None:
            warm(state, round_, events)

    end = rebuild(log, game_id="", warm=at_round, replayer=replayer)
    if moment is not None and not chosen:
        raise moment.missing(end.rounds)
    departures = _departures(alive, set(end.state.alive()), log.events)
    return Walk(log.header.game_id, len(log.events), variant, roles, every, end.rounds, chosen,
                departures, end.state)  # fmt: skip


def _departures(
    alive: Sequence[tuple[Round, set[int]]], at_end: set[int], events: Sequence[Event]
) -> list[tuple[int, Departure]]:
    """(round number, who left in it) of every round in which someone left the game. A death
    the rules decided in one round and announced in a later one (a werewolf night's kills,
    told at the next day's start) is placed in the round that decided it."""
    rounds = [round_ for round_, _ in alive]
    left: dict[tuple[int, bool], list[int]] = {}  # (round, decided by the rules) -> seats
    afterwards = [living for _, living in alive[1:]] + [at_end]
    for (round_, living), later in zip(alive, afterwards, strict=True):
        for seat in sorted(living - later):
            decided = _deciding_event(events, seat, round_.stop)
            where = round_ if decided is None else _round_at(rounds, decided)
            left.setdefault((where.number, decided is not None), []).append(seat)
    out = []
    for (number, by_rules), seats in sorted(left.items()):
        round_ = rounds[number]
        kinds = () if by_rules else round_.kinds  # the phase's resolution, not a decision
        out.append((number, Departure(kinds, round_.day, round_.phase, tuple(seats))))
    return out


def _deciding_event(events: Sequence[Event], seat: int, before: int) -> int | None:
    """The index of the last event before ``before`` whose ``deaths`` name ``seat``."""
    for index in range(min(before, len(events)) - 1, -1, -1):
        deaths = events[index].payload.get("deaths")
        if deaths and seat in _seats(deaths):
            return index
    return None


def _seats(deaths: Any) -> set[int]:
    """The seats of a ``deaths`` payload: ``{"3": cause}``, ``[{"seat": 3}]`` or ``[3]``."""
    items = deaths.keys() if isinstance(deaths, dict) else deaths
    found = set()
    for item in items if isinstance(items, Iterable) else ():
        value: Any = item.get("seat") if isinstance(item, dict) else item
        with contextlib.suppress(TypeError, ValueError):
            found.add(int(value))
    return found


def _round_at(rounds: Sequence[Round], index: int) -> Round:
    """The round the event at ``index`` belongs to (the last one starting at or before it)."""
    return max((r for r in rounds if r.start <= index), key=lambda r: r.start, default=rounds[0])
