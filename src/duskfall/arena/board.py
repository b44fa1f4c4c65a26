"""The board: every number a tournament's leaderboard shows, in one object that serialises to
JSON, so the terminal, ``--json``, CSV, the offline HTML file and the web page print the same.

From the rated games (:class:`~duskfall.arena.skill_model.RatedGame`) it fits the board's model
(:mod:`duskfall.arena.skill_model`), resamples whole deals (:mod:`duskfall.arena.intervals`) and
derives:

* per entrant: *deception* (as the evil side), *detection* (as the village) and *overall* (their
  mean) in logits, anchored to the reference entrant or the field's mean, and overall on an
  Elo-like scale (``1500 + 173.7 * overall``: a 400-point gap is 10:1 odds), each with its 95%
  interval; the OpenSkill rating beside it for comparison; win rates per side and role (never
  the tautological "all" of an entrant that held both sides of a game); cost per game;
* per pair (A ranked above B): the difference of overall skill (and of deception, of detection)
  with its interval, a verdict (``separated`` when the interval excludes 0, else ``not yet``),
  the model's chance that A beats B over both sides, and their paired record where they met;
* each block's side advantage; held-out prediction scores (:mod:`duskfall.arena.holdout`);
* with ``stop = "separated"``, the sequential analysis (:mod:`duskfall.arena.sequential`): the
  looks taken, why the tournament stopped and the games it saved; the pairs' intervals and
  verdicts are then the repeated confidence intervals of the last look.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from duskfall.arena.holdout import Score, holdout_scores
from duskfall.arena.intervals import DealResampler, critical, standard_error
from duskfall.arena.ratings import Rating, openskill_ratings
from duskfall.arena.skill_model import (
    ELO_PER_LOGIT,
    EVIL,
    Design,
    Parameters,
    RatedGame,
    Vector,
    anchored,
)
from duskfall.arena.stats import Proportion

ELO_BASE = 1500.0
LEVEL = 0.95
SEPARATED, NOT_YET = "separated", "not yet"


@dataclass(frozen=True)
class Estimate:
    """A point with its interval (NaN bounds: no interval could be formed)."""

    point: float
    low: float = math.nan
    high: float = math.nan
    se: float = math.nan

    @property
    def known(self) -> bool:
        return not math.isnan(self.low)

    def excludes_zero(self) -> bool:
        return self.known and (self.low > 0 or self.high < 0)

    def scaled(self, factor: float, offset: float = 0.0) -> Estimate:
        return Estimate(
            offset + factor * self.point,
            offset + factor * self.low,
            offset + factor * self.high,
            abs(factor) * self.se,
        )

    def format(self, spec: str = "+.2f") -> str:
        """``point [low, high]`` with this format spec (``-``: not measured)."""
        if math.isnan(self.point):
            return "-"
        if not self.known:
            return format(self.point, spec)
        return f"{self.point:{spec}} [{self.low:{spec}}, {self.high:{spec}}]"

    def to_dict(self) -> dict[str, float | None]:
        return {k: _json_float(v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Estimate:
        return cls(*(math.nan if data.get(k) is None else float(data[k]) for k in _FIELDS))


_FIELDS = ("point", "low", "high", "se")
UNMEASURED = Estimate(math.nan)  # a quantity the games do not determine (only the prior)


def _json_float(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 5)


@dataclass(frozen=True)
class WinRate:
    wins: float
    games: int

    def to_dict(self) -> dict[str, Any]:
        low, high = Proportion(round(self.wins), self.games).interval()
        rate = self.wins / self.games if self.games else 0.0
        return {
            "wins": self.wins,
            "games": self.games,
            "rate": round(rate, 5),
            "low": round(low, 5),
            "high": round(high, 5),
        }


@dataclass
class EntrantBoard:
    name: str
    agent: str
    games: int
    overall: Estimate
    deception: Estimate
    detection: Estimate
    openskill: Rating | None = None
    win_rates: dict[str, WinRate] = field(default_factory=dict)  # "evil", "village", roles
    roles: dict[str, Estimate] = field(default_factory=dict)  # role effects (block:role)
    cost_usd: float = 0.0
    tokens: int = 0
    frontier: bool = False
    sides_identified: bool = True  # False: the games tell only deception + detection apart
    by_block: dict[str, dict[str, WinRate]] = field(default_factory=dict)  # block -> side/role

    @property
    def elo(self) -> Estimate:
        return self.overall.scaled(ELO_PER_LOGIT, ELO_BASE)

    @property
    def cost_per_game(self) -> float:
        return self.cost_usd / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "agent": self.agent,
            "games": self.games,
            "overall": self.overall.to_dict(),
            "deception": self.deception.to_dict(),
            "detection": self.detection.to_dict(),
            "elo": self.elo.to_dict(),
            "openskill": None if self.openskill is None else self.openskill.to_dict(),
            "win_rates": {k: w.to_dict() for k, w in self.win_rates.items()},
            "roles": {k: e.to_dict() for k, e in self.roles.items()},
            "cost_usd": round(self.cost_usd, 6),
            "cost_per_game": round(self.cost_per_game, 6),
            "tokens": self.tokens,
            "frontier": self.frontier,
            "sides_identified": self.sides_identified,
            "by_block": {
                block: {k: w.to_dict() for k, w in rates.items()}
                for block, rates in self.by_block.items()
            },
        }


@dataclass
class PairBoard:
    """``a`` is ranked above ``b``; differences are a - b, in logits."""

    a: str
    b: str
    overall: Estimate
    deception: Estimate
    detection: Estimate
    a_beats_b: Estimate  # the model's chance, both sides averaged
    verdict: str
    record: tuple[float, int] = (0.0, 0)  # a's wins, games, where a and b faced each other
    separated_at: int | None = None  # sequential: the look (1-based) where it separated

    @property
    def elo(self) -> Estimate:
        return self.overall.scaled(ELO_PER_LOGIT)

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "overall": self.overall.to_dict(),
            "elo": self.elo.to_dict(),
            "deception": self.deception.to_dict(),
            "detection": self.detection.to_dict(),
            "a_beats_b": self.a_beats_b.to_dict(),
            "verdict": self.verdict,
            "record": {"wins": self.record[0], "games": self.record[1]},
            "separated_at_look": self.separated_at,
        }


@dataclass
class Stopping:
    """What the sequential rule did (``stop = "separated"``)."""

    plan: dict[str, Any]
    looks_taken: int
    stopped: bool
    reason: str
    games_played: int
    games_saved: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Board:
    """Everything the leaderboard shows (see the module docstring)."""

    entrants: list[EntrantBoard]
    pairs: list[PairBoard]
    side_advantage: dict[str, Estimate]
    games: int
    deals: int
    draws: int
    bootstrap: int
    reference: str | None
    role_effects: bool
    holdout: dict[str, Score] = field(default_factory=dict)
    stopping: Stopping | None = None
    level: float = LEVEL

    def entrant(self, name: str) -> EntrantBoard:
        return next(e for e in self.entrants if e.name == name)

    def pair(self, a: str, b: str) -> PairBoard:
        """The pair of ``a`` and ``b`` in either order (differences as stored: a - b)."""
        return next(p for p in self.pairs if {p.a, p.b} == {a, b})

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": {
                "name": "Bradley-Terry: deception (evil side) and detection (village) skills",
                "scale": "logits; elo = 1500 + 173.7 * overall (400 points = 10:1 odds)",
                "anchor": self.reference or "the field's mean",
                "role_effects": self.role_effects,
                "interval": f"{self.level:.0%}: point +- t(deals - 1) x deal-bootstrap se",
                "bootstrap": self.bootstrap,
                "resampled": "deals (every game of a deal together)",
            },
            "games": self.games,
            "deals": self.deals,
            "draws": self.draws,
            "side_advantage": {k: e.to_dict() for k, e in self.side_advantage.items()},
            "entrants": [e.to_dict() for e in self.entrants],
            "pairs": [p.to_dict() for p in self.pairs],
            "holdout": {k: s.to_dict() for k, s in self.holdout.items()},
            "stopping": None if self.stopping is None else self.stopping.to_dict(),
        }


# -- the fit and its resamples ------------------------------------------------------------


@dataclass
class Fit:
    """The model fitted to the games, and refitted to ``bootstrap`` deal resamples."""

    design: Design
    theta: Vector
    samples: list[Vector]
    reference: str | None
    multiplier: float | None = None  # replaces t(deals - 1) (a sequential look's boundary)

    @property
    def params(self) -> Parameters:
        return self.design.params

    @property
    def deals(self) -> int:
        return self.design.deals

    def estimate(self, quantity: Callable[[Vector], float], level: float = LEVEL) -> Estimate:
        """A quantity of the parameters with its interval."""
        point = quantity(self.theta)
        se = standard_error([quantity(s) for s in self.samples], self.deals)
        if math.isnan(se):
            return Estimate(point)
        multiplier = critical(level, self.deals) if self.multiplier is None else self.multiplier
        half = multiplier * se
        return Estimate(point, point - half, point + half, se)

    def skills(self, theta: Vector) -> Any:
        return anchored(self.params, theta, self.reference)

    def identified(self, kind: str, entrant: str) -> bool:
        """Whether the games measure this entrant's anchored ``deception``/``detection`` (with
        two entrants that only ever face each other, only their sum is measured)."""
        return self.design.estimable(self.design.skill_contrast(kind, entrant, self.reference))


def fit_games(
    games: Sequence[RatedGame],
    entrants: Sequence[str],
    *,
    reference: str | None = None,
    role_effects: bool = False,
    bootstrap: int = 200,
    seed: int = 0,
) -> Fit:
    """Fit the model and its deal resamples (seeded: the same games give the same numbers)."""
    design = Design(games, entrants, role_effects=role_effects)
    theta = design.fit()
    samples = []
    if design.deals > 1:
        resampler = DealResampler([g.deal for g in design.games], seed)
        for _ in range(bootstrap):
            counts = resampler.counts()
            samples.append(design.fit(design.deal_weights(counts), start=theta))
    return Fit(design, theta, samples, reference)


def _skill(fit: Fit, kind: str, name: str) -> Callable[[Vector], float]:
    def get(theta: Vector) -> float:
        skills = fit.skills(theta)
        if kind == "overall":
            return float(skills.overall(name))
        return float(getattr(skills, kind)[name])

    return get


def _difference(fit: Fit, kind: str, a: str, b: str) -> Callable[[Vector], float]:
    first, second = _skill(fit, kind, a), _skill(fit, kind, b)
    return lambda theta: first(theta) - second(theta)


def _role_effect(fit: Fit, number: int) -> Callable[[Vector], float]:
    column = fit.params.role(number)
    return lambda theta: float(theta[column])


def _side_advantage(fit: Fit, block: str) -> Callable[[Vector], float]:
    return lambda theta: float(fit.skills(theta).side_advantage[block])


def _beats(fit: Fit, a: str, b: str, shares: Mapping[str, float]) -> Callable[[Vector], float]:
    """Logit of the chance that ``a`` beats ``b``: a's evil side against b's village and the
    other way round, equally, averaged over the blocks by their share of the games."""

    def get(theta: Vector) -> float:
        s = fit.skills(theta)
        chance = 0.0
        for block, share in shares.items():
            h = s.side_advantage[block]
            as_evil = _sigmoid(h + s.deception[a] - s.detection[b])
            as_village = 1 - _sigmoid(h + s.deception[b] - s.detection[a])
            chance += share * (as_evil + as_village) / 2
        chance = min(max(chance, 1e-9), 1 - 1e-9)
        return math.log(chance / (1 - chance))

    return get


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def _probability(estimate: Estimate) -> Estimate:
    """A logit estimate as a probability (the interval mapped through, so it still holds)."""
    p = [
        _sigmoid(v) if not math.isnan(v) else math.nan
        for v in (estimate.point, estimate.low, estimate.high)
    ]
    return Estimate(p[0], p[1], p[2], math.nan)


# -- plain counts ------------------------------------------------------------------------


def win_rates(games: Sequence[RatedGame]) -> dict[str, dict[str, WinRate]]:
    """Per entrant, per side and per role it held (a game counts once for each): the share
    won by that side (draws half). "all" only for entrants that never held both sides of one
    game (there it is a real win rate; with both sides it is 50% by construction)."""
    tally: defaultdict[str, defaultdict[str, list[float]]] = defaultdict(
        lambda: defaultdict(lambda: [0.0, 0])
    )
    both_sides: set[str] = set()
    for game in games:
        held = {(s.entrant, s.side) for s in game.seats}
        sides_of: defaultdict[str, set[str]] = defaultdict(set)
        for entrant, side in held:
            sides_of[entrant].add(side)
        both_sides |= {e for e, sides in sides_of.items() if len(sides) > 1}
        keys = {(s.entrant, s.side, s.side) for s in game.seats}
        keys |= {(s.entrant, s.role, s.side) for s in game.seats}
        keys |= {(s.entrant, "all", s.side) for s in game.seats}
        for entrant, key, side in keys:
            won = game.result if side == EVIL else 1 - game.result
            tally[entrant][key][0] += won
            tally[entrant][key][1] += 1
    return {
        name: {
            key: WinRate(w, int(n))
            for key, (w, n) in rows.items()
            if key != "all" or name not in both_sides
        }
        for name, rows in tally.items()
    }


def block_win_rates(games: Sequence[RatedGame]) -> dict[str, dict[str, dict[str, WinRate]]]:
    """Per entrant, per block (a variant and preset): the share won by each side and each role
    it held there (draws half). A role is what its block makes of it, so the roles of
    different blocks are never pooled."""
    by_block: defaultdict[str, list[RatedGame]] = defaultdict(list)
    for game in games:
        by_block[game.block].append(game)
    out: defaultdict[str, dict[str, dict[str, WinRate]]] = defaultdict(dict)
    for block, members in sorted(by_block.items()):
        for name, rates in win_rates(members).items():
            out[name][block] = {k: w for k, w in rates.items() if k != "all"}
    return dict(out)


def paired_records(games: Sequence[RatedGame]) -> dict[tuple[str, str], tuple[float, int]]:
    """(wins, games) of entrant a against b over the games where each held a whole side."""
    out: defaultdict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for game in games:
        evil = {s.entrant for s in game.seats if s.side == EVIL}
        village = {s.entrant for s in game.seats if s.side != EVIL}
        if len(evil) != 1 or len(village) != 1 or evil == village:
            continue
        (e,), (v,) = evil, village
        out[e, v][0] += game.result
        out[e, v][1] += 1
        out[v, e][0] += 1 - game.result
        out[v, e][1] += 1
    return {k: (w, int(n)) for k, (w, n) in out.items()}


def _frontier(entrants: list[EntrantBoard]) -> None:
    """Mark the entrants no other beats on both cost per game and overall skill."""
    for e in entrants:
        e.frontier = not any(
            o is not e
            and o.cost_per_game <= e.cost_per_game
            and o.overall.point >= e.overall.point
            and (o.cost_per_game < e.cost_per_game or o.overall.point > e.overall.point)
            for o in entrants
        )


# -- the board ----------------------------------------------------------------------------


def build_board(
    games: Sequence[RatedGame],
    entrants: Mapping[str, str],
    *,
    reference: str | None = None,
    role_effects: bool = False,
    bootstrap: int = 200,
    seed: int = 0,
    spending: Mapping[str, tuple[float, int]] | None = None,
    holdout: bool = True,
    multiplier: Callable[[int], float] | None = None,
    verdicts: Mapping[frozenset[str], int | None] | None = None,
) -> Board:
    """The board of ``games`` (entrant name -> agent spec in ``entrants``).

    ``spending`` gives each entrant's (cost in USD, tokens). Under a sequential rule,
    ``multiplier(deals)`` replaces the fixed-size critical value of every interval (the last
    look's boundary: repeated confidence intervals) and ``verdicts`` gives each pair's look of
    separation (or None).
    """
    names = list(entrants)
    fit = fit_games(
        games, names, reference=reference, role_effects=role_effects, bootstrap=bootstrap, seed=seed
    )
    if multiplier is not None:
        fit.multiplier = multiplier(fit.deals)
    played = {n: sum(any(s.entrant == n for s in g.seats) for g in games) for n in names}
    rates = win_rates(games)
    per_block = block_win_rates(games)
    openskill = openskill_ratings(games, bootstrap=bootstrap, seed=seed) if games else {}
    spent = spending or {}
    board_entrants = []
    for name in names:
        roles = {
            f"{block}:{role}": fit.estimate(_role_effect(fit, i))
            for i, (who, block, role) in enumerate(fit.params.roles)
            if who == name
        }
        cost, tokens = spent.get(name, (0.0, 0))
        both = all(fit.identified(kind, name) for kind in ("deception", "detection"))
        board_entrants.append(
            EntrantBoard(
                name,
                entrants[name],
                played[name],
                fit.estimate(_skill(fit, "overall", name)),
                fit.estimate(_skill(fit, "deception", name)) if both else UNMEASURED,
                fit.estimate(_skill(fit, "detection", name)) if both else UNMEASURED,
                openskill.get(name),
                rates.get(name, {}),
                roles,
                cost,
                tokens,
                sides_identified=both,
                by_block=per_block.get(name, {}),
            )
        )
    board_entrants.sort(key=lambda e: e.overall.point, reverse=True)
    _frontier(board_entrants)
    blocks: defaultdict[str, int] = defaultdict(int)
    for game in games:
        blocks[game.block] += 1
    shares = {b: n / len(games) for b, n in blocks.items()} if games else {}
    records = paired_records(games)
    pairs = []
    for first, second in itertools.combinations(board_entrants, 2):
        a, b = first.name, second.name
        overall = fit.estimate(_difference(fit, "overall", a, b))
        split = first.sides_identified and second.sides_identified
        separated = overall.excludes_zero()
        at = None
        if verdicts is not None:
            at = verdicts.get(frozenset((a, b)))
            separated = at is not None
        pairs.append(
            PairBoard(
                a,
                b,
                overall,
                fit.estimate(_difference(fit, "deception", a, b)) if split else UNMEASURED,
                fit.estimate(_difference(fit, "detection", a, b)) if split else UNMEASURED,
                _probability(fit.estimate(_beats(fit, a, b, shares))) if shares else Estimate(0.5),
                SEPARATED if separated else NOT_YET,
                records.get((a, b), (0.0, 0)),
                at,
            )
        )
    side_advantage = {
        block: fit.estimate(_side_advantage(fit, block)) for block in fit.params.blocks
    }
    return Board(
        entrants=board_entrants,
        pairs=pairs,
        side_advantage=side_advantage,
        games=len(games),
        deals=fit.deals,
        draws=sum(g.result == 0.5 for g in games),
        bootstrap=len(fit.samples),
        reference=reference,
        role_effects=role_effects,
        holdout=holdout_scores(games, names, role_effects=role_effects, seed=seed)
        if holdout
        else {},
    )


def pair_differences(fit: Fit) -> dict[tuple[str, str], tuple[float, float]]:
    """(difference, se) of overall skill for every pair of entrants (in entrant order)."""
    out = {}
    for a, b in itertools.combinations(fit.params.entrants, 2):
        quantity = _difference(fit, "overall", a, b)
        samples = [quantity(s) for s in fit.samples]
        out[a, b] = (quantity(fit.theta), standard_error(samples, fit.deals))
    return out
