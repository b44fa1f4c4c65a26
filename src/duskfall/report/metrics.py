"""Behaviour metrics of every seat of a game, computed from its log alone.

:func:`seat_metrics` reads one :class:`~duskfall.store.log.GameLog` and returns one
:class:`SeatMetrics` per seat; sum them with ``+`` over games, entrants or roles and read the
rates as properties. Nothing here needs the game to be tournament-made: any logged game works.

What is counted (``evil`` is the variant's last team, see :mod:`duskfall.arena.schedule`):

* **vote accuracy**: the share of a seat's exile votes (day votes that can put a player out,
  abstentions not counted) cast on a player of the other side; for an evil seat, a vote on a
  village player is "accurate" for its side.
* **votes received when evil** (deception): exile votes cast on an evil seat by village seats,
  per evil seat-day; lower means better hidden.
* **survival**: whether the seat is alive at the end (rules replayed from the log's actions).
* **kills of power roles**: for evil seats, the night kills their side made whose victim held a
  village power role (any village role other than the side's most common, plain one), per
  night kill.
* **teammate votes** (bussing): exile votes an evil seat cast on another evil seat.
* **role claims**: public claims of a role, as the variant reads them (sports mafia:
  declarations with sheriff checks; werewolf: speeches claiming its checking role in the plain
  form its bots speak, the role's claim then ``Seat 4 is a werewolf.``); truthful when the
  seat held that role.
* **legal first try**: decisions answered legally at the first attempt; **fallbacks**: decisions
  settled by the documented fallback.
* **model usage**: calls, prompt tokens (cached and uncached), completion tokens, cost and
  latency from the ``llm_call`` events of the seat.

Votes, kills and claims come from the variant's facts (``VariantInfo.facts``,
:mod:`duskfall.core.facts`): its ballots that can put a player out, its evil side's night
kills, its public role claims. A variant that declares none still gets survival, decisions and
model usage.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.counts import Summable
from duskfall.core.events import Event
from duskfall.core.sides import EVIL, side_of
from duskfall.core.usage import Usage
from duskfall.core.variant import Variant
from duskfall.report.columns import BEHAVIOUR
from duskfall.store.log import GameLog
from duskfall.store.replay import new_state_for


@dataclass
class SeatMetrics(Summable):
    """Counts for one seat of one game (or sums over many: ``a + b``)."""

    seats: int = 0
    wins: int = 0
    survived: int = 0
    exile_votes: int = 0
    accurate_votes: int = 0
    votes_received_as_evil: int = 0
    evil_days: int = 0
    teammate_votes: int = 0
    night_kills: int = 0
    power_role_kills: int = 0
    claims: int = 0
    true_claims: int = 0
    decisions: int = 0
    refused_first: int = 0
    fallbacks: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    remote_answers: int = 0
    remote_latency_s: float = 0.0

    @staticmethod
    def _rate(part: float, whole: float) -> float | None:
        return part / whole if whole else None

    @property
    def vote_accuracy(self) -> float | None:
        return self._rate(self.accurate_votes, self.exile_votes)

    @property
    def votes_received_when_evil(self) -> float | None:
        return self._rate(self.votes_received_as_evil, self.evil_days)

    @property
    def survival(self) -> float | None:
        return self._rate(self.survived, self.seats)

    @property
    def power_role_kill_rate(self) -> float | None:
        return self._rate(self.power_role_kills, self.night_kills)

    @property
    def teammate_vote_rate(self) -> float | None:
        return self._rate(self.teammate_votes, self.exile_votes)

    @property
    def claim_truthfulness(self) -> float | None:
        return self._rate(self.true_claims, self.claims)

    @property
    def legal_first_try(self) -> float | None:
        return self._rate(self.decisions - self.refused_first, self.decisions)

    @property
    def uncached_tokens(self) -> int:
        return self.prompt_tokens - self.cached_tokens

    @property
    def mean_latency_s(self) -> float | None:
        """Seconds per answer: a model call's, or a remote client's answer to a request."""
        return self._rate(
            self.latency_s + self.remote_latency_s, self.llm_calls + self.remote_answers
        )

    def summary(self) -> dict[str, Any]:
        """The rates and totals, JSON-ready (None where nothing was counted): one entry per
        column of the registry (:data:`duskfall.report.columns.BEHAVIOUR`)."""
        return {column.key: column.value(self) for column in BEHAVIOUR}


def total(metrics: Iterable[SeatMetrics]) -> SeatMetrics:
    return sum(metrics, SeatMetrics())


@dataclass
class _Facts:
    """What a game's events say about votes, kills and claims (the variant's facts)."""

    exile_votes: list[tuple[int, int, int]] = field(default_factory=list)  # day, voter, target
    night_kills: list[int] = field(default_factory=list)
    claims: list[tuple[int, str]] = field(default_factory=list)  # seat, role it claimed


def _facts_of(variant: Variant, events: Iterable[Event]) -> _Facts:
    """The exile votes (casts on a seat of the ballots that can put a player out), the evil
    side's night kills and the public role claims the variant's facts read in ``events``."""
    read, facts = variant.info.facts, _Facts()
    for event in events:
        ballot = read.ballot(event)
        if ballot is not None and ballot.exile:
            facts.exile_votes += [
                (event.day, voter, target)
                for voter, target, _ in ballot.casts
                if target is not None
            ]
        facts.night_kills += read.night_kills(event)
        facts.claims += [(claim.seat, claim.role) for claim in read.claims(event)]
    return facts


def _power_roles(roles: dict[int, str], sides: dict[int, str]) -> set[str]:
    village = Counter(role for seat, role in roles.items() if sides[seat] != EVIL)
    plain = village.most_common(1)[0][0] if village else None
    return {role for role in village if role != plain}


def seat_metrics(log: GameLog, since: int = 0) -> dict[int, SeatMetrics]:
    """One :class:`SeatMetrics` per seat of the game in ``log``; votes, kills, claims and
    decisions are counted from event ``since`` on (a fork's own part: its prefix is its
    parent's), survival and wins at the end."""
    variant, state = new_state_for(log)
    roles = state.roles()
    sides = {seat: side_of(variant, state.team_of(seat)) for seat in roles}
    for event in log.events:  # replay the actions: who is alive at the end
        if event.kind == kinds.ACTION:
            state.apply(event.payload["seat"], event.payload["action"])
    alive = set(state.alive())
    outcome = log.outcome
    winner_side = side_of(variant, outcome.winner) if outcome and outcome.winner else None
    out = {
        seat: SeatMetrics(
            seats=1,
            wins=int(winner_side == sides[seat]),
            survived=int(seat in alive),
        )
        for seat in roles
    }
    own = log.events[since:] if since else log.events
    facts = _facts_of(variant, own)
    _count_votes(facts, sides, out)
    _count_kills(facts, roles, sides, out)
    for seat, role in facts.claims:
        if seat in out:
            out[seat].claims += 1
            out[seat].true_claims += int(role in roles[seat].upper())
    _count_runtime(own, out)
    return out


def _count_votes(facts: _Facts, sides: dict[int, str], out: dict[int, SeatMetrics]) -> None:
    evil_days: set[tuple[int, int]] = set()
    for day, voter, target in facts.exile_votes:
        if voter not in out or target not in out:
            continue
        seat = out[voter]
        seat.exile_votes += 1
        seat.accurate_votes += int(sides[target] != sides[voter])
        if sides[voter] == EVIL and sides[target] == EVIL:
            seat.teammate_votes += 1
        if sides[target] == EVIL and sides[voter] != EVIL:
            out[target].votes_received_as_evil += 1
        for evil in (s for s in sides if sides[s] == EVIL):
            evil_days.add((evil, day))
    for evil, _day in evil_days:
        out[evil].evil_days += 1


def _count_kills(
    facts: _Facts, roles: dict[int, str], sides: dict[int, str], out: dict[int, SeatMetrics]
) -> None:
    power = _power_roles(roles, sides)
    for victim in facts.night_kills:
        for seat in (s for s in sides if sides[s] == EVIL):
            out[seat].night_kills += 1
            out[seat].power_role_kills += int(roles.get(victim) in power)


def _count_runtime(events: Iterable[Event], out: dict[int, SeatMetrics]) -> None:
    for event in events:
        seat = event.payload.get("seat") if isinstance(event.payload, dict) else None
        if not isinstance(seat, int) or seat not in out:
            continue
        metrics = out[seat]
        if event.kind == kinds.ACTION:
            metrics.decisions += 1
        elif event.kind == kinds.INVALID_ACTION and event.payload.get("attempt") == 0:
            metrics.refused_first += 1
        elif event.kind == kinds.FALLBACK:
            metrics.fallbacks += 1
        elif event.kind == kinds.LLM_CALL:
            usage = Usage.from_payload(event.payload)
            metrics.llm_calls += 1
            metrics.prompt_tokens += usage.prompt_tokens
            metrics.cached_tokens += usage.cached_tokens
            metrics.completion_tokens += usage.completion_tokens
            metrics.cost_usd += usage.cost_usd
            metrics.latency_s += float(event.payload.get("latency_s") or 0.0)
        elif event.kind == kinds.REMOTE_ANSWER and event.payload.get("answered"):
            metrics.remote_answers += 1
            metrics.remote_latency_s += float(event.payload.get("latency_s") or 0.0)
