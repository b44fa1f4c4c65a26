"""The board: every number a tournament's leaderboard shows, in one object that serialises to
JSON, so the terminal, ``--json``, CSV, the offline HTML file and the web page print the same.

From the rated games (:class:`~duskfall.rating.bradley_terry.RatedGame`) it fits the board's model
(:mod:`duskfall.rating.bradley_terry`), resamples whole deals (:mod:`duskfall.rating.intervals`) and
derives:

* per entrant: *deception* (as the evil side), *detection* (as the village) and *overall* (their
  mean) in logits, anchored to the reference entrant or the field's mean, and overall on an
  Elo-like scale (``1500 + 173.7 * overall``: a 400-point gap is 10:1 odds), each with its 95%
  interval; the OpenSkill rating beside it for comparison; win rates per side and role (never
  the tautological "all" of an entrant that held both sides of a game); cost per game;
* per pair (A ranked above B): the difference of overall skill (and of deception, of detection)
  with its interval, a verdict (``separated`` when the interval excludes 0, else ``not yet``),
  the model's chance that A beats B over both sides, and their paired record where they met;
* each block's side advantage; held-out prediction scores (:mod:`duskfall.rating.holdout`);
* with ``stop = "separated"``, the sequential analysis (:mod:`duskfall.rating.sequential`): the
  looks taken, why the tournament stopped and the games it saved; the pairs' intervals and
  verdicts are then the repeated confidence intervals of the last look;
* tiers: down the board, an entrant opens a new tier when it is separated from a member of
  the current one, so no two entrants of a tier are separated.

Only what the games determine gets a number: before it is estimated, every quantity (each
entrant's overall skill and two skills, each pair's differences, chance and verdict, each
side advantage) is checked to be estimable from the games played
(:mod:`duskfall.rating.identified`); one that is not is "not measured by this design", with
the reason, never a number, a verdict or a tier.

The resamples are refitted warm (from the full fit); every linear quantity's resampled values
are one matrix product, and OpenSkill's resamples and held-out folds are rated in one
vectorised pass (:mod:`duskfall.rating.openskill_batch`).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from duskfall.core.sides import EVIL
from duskfall.core.stats import Proportion
from duskfall.rating.bradley_terry import ELO_PER_LOGIT, RatedGame
from duskfall.rating.fit import (
    LEVEL,
    Estimate,
    beats,
    difference,
    fit_games,
    probability,
    role_effect,
    side_contrast,
    skill,
    unmeasured,
)
from duskfall.rating.holdout import Score, fold_orders, game_entrants, holdout_scores
from duskfall.rating.identified import diagnosis
from duskfall.rating.openskill import Rating, openskill_ratings
from duskfall.rating.openskill_batch import TwoTeamGames

ELO_BASE = 1500.0
SEPARATED, NOT_YET = "separated", "not yet"
NOT_MEASURED_VERDICT = "not measured by this design"


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
    tier: int | None = None  # 1, 2, ...: entrants not separated share one; None: not measured

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
            "tier": self.tier,
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
    not_measured: str = ""  # why some quantities have no number (empty: every one has)

    def entrant(self, name: str) -> EntrantBoard:
        return next(e for e in self.entrants if e.name == name)

    def pair(self, a: str, b: str) -> PairBoard:
        """The pair of ``a`` and ``b`` in either order (differences as stored: a - b)."""
        return next(p for p in self.pairs if {p.a, p.b} == {a, b})

    def tiers(self) -> list[list[str]]:
        """The entrants of each tier, best tier first (unmeasured ones in none)."""
        out: list[list[str]] = []
        for e in self.entrants:
            if e.tier is not None:
                while len(out) < e.tier:
                    out.append([])
                out[e.tier - 1].append(e.name)
        return out

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
            "tiers": self.tiers(),
            "not_measured": self.not_measured or None,
            "holdout": {k: s.to_dict() for k, s in self.holdout.items()},
            "stopping": None if self.stopping is None else self.stopping.to_dict(),
        }


# -- the fit and its resamples ------------------------------------------------------------


# -- plain counts ------------------------------------------------------------------------


def win_rates(games: Sequence[RatedGame]) -> dict[str, dict[str, WinRate]]:
    """Per entrant, per side and per role it held (a game counts once for each): the share
    won by that side (draws half). "all" only for entrants that never held both sides of one
    game (there it is a real win rate; with both sides it is 50% by construction)."""
    return _tallies(games)[0]


def block_win_rates(games: Sequence[RatedGame]) -> dict[str, dict[str, dict[str, WinRate]]]:
    """Per entrant, per block (a variant and preset): the share won by each side and each role
    it held there (draws half). A role is what its block makes of it, so the roles of
    different blocks are never pooled."""
    return _tallies(games)[1]


def _tallies(
    games: Sequence[RatedGame],
) -> tuple[dict[str, dict[str, WinRate]], dict[str, dict[str, dict[str, WinRate]]]]:
    """:func:`win_rates` and :func:`block_win_rates` in one pass over the games."""
    tally: defaultdict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    both_sides: set[str] = set()
    for game in games:
        held = {(s.entrant, s.role, s.side) for s in game.seats}
        sides = {(entrant, side) for entrant, _, side in held}
        if len(sides) > len({entrant for entrant, _ in sides}):
            seen: set[str] = set()
            for entrant, _ in sides:
                if entrant in seen:
                    both_sides.add(entrant)
                seen.add(entrant)
        keys = {(e, side, side) for e, side in sides} | {(e, role, side) for e, role, side in held}
        keys |= {(e, "all", side) for e, side in sides}
        for entrant, key, side in keys:
            won = game.result if side == EVIL else 1 - game.result
            row = tally[game.block, entrant, key]
            row[0] += won
            row[1] += 1
    overall: defaultdict[str, dict[str, list[float]]] = defaultdict(dict)
    blocks: defaultdict[str, dict[str, dict[str, WinRate]]] = defaultdict(dict)
    for (block, entrant, key), (won, n) in sorted(tally.items()):
        total = overall[entrant].setdefault(key, [0.0, 0])
        total[0] += won
        total[1] += n
        if key != "all":
            blocks[entrant].setdefault(block, {})[key] = WinRate(won, int(n))
    rates = {
        name: {
            key: WinRate(w, int(n))
            for key, (w, n) in rows.items()
            if key != "all" or name not in both_sides
        }
        for name, rows in overall.items()
    }
    return rates, dict(blocks)


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
    """Mark the entrants no other beats on both cost per game and overall skill (none where
    overall skill is not measured)."""
    for e in entrants:
        e.frontier = e.overall.measured and not any(
            o is not e
            and o.overall.measured
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
    why = _Why(games)
    seated = Counter(name for g in games for name in {s.entrant for s in g.seats})
    played = {n: seated[n] for n in names}
    rates, per_block = _tallies(games)
    teams = TwoTeamGames(games, game_entrants(games, names))
    folds = fold_orders(games, seed=seed) if holdout else None
    openskill, fold_ratings = openskill_ratings(
        games, bootstrap=bootstrap, seed=seed, teams=teams, extra=folds[0] if folds else ()
    )
    spent = spending or {}
    board_entrants = []
    for name in names:
        roles = {
            f"{block}:{role}": fit.linear(role_effect(fit, i))
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
                fit.measured(skill(fit, "overall", name), why),
                fit.linear(skill(fit, "deception", name)) if both else unmeasured(why()),
                fit.linear(skill(fit, "detection", name)) if both else unmeasured(why()),
                openskill.get(name),
                rates.get(name, {}),
                roles,
                cost,
                tokens,
                sides_identified=both,
                by_block=per_block.get(name, {}),
            )
        )
    board_entrants.sort(key=lambda e: (e.overall.measured, e.overall.point), reverse=True)
    _frontier(board_entrants)
    blocks: defaultdict[str, int] = defaultdict(int)
    for game in games:
        blocks[game.block] += 1
    shares = {b: n / len(games) for b, n in blocks.items()} if games else {}
    records = paired_records(games)
    pairs = []
    for first, second in itertools.combinations(board_entrants, 2):
        a, b = first.name, second.name
        overall = fit.measured(difference(fit, "overall", a, b), why)
        separated = overall.excludes_zero()
        at = None
        if verdicts is not None:
            at = verdicts.get(frozenset((a, b)))
            separated = at is not None
        verdict = SEPARATED if separated else NOT_YET
        pairs.append(
            PairBoard(
                a,
                b,
                overall,
                fit.measured(difference(fit, "deception", a, b), why),
                fit.measured(difference(fit, "detection", a, b), why),
                probability(fit.measured_many(beats(fit, a, b, shares), why))
                if shares
                else Estimate(0.5),
                verdict if overall.measured else NOT_MEASURED_VERDICT,
                records.get((a, b), (0.0, 0)),
                at if overall.measured else None,
            )
        )
    _tiers(board_entrants, pairs)
    side_advantage = {
        block: fit.measured(side_contrast(fit, block), why) for block in fit.params.blocks
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
        holdout=holdout_scores(
            games,
            names,
            role_effects=role_effects,
            seed=seed,
            design=fit.design,
            teams=teams,
            openskill=fold_ratings,
        )
        if holdout
        else {},
        not_measured=why.said,
    )


class _Why:
    """Why the games leave a quantity unmeasured (worked out once, when first asked)."""

    def __init__(self, games: Sequence[RatedGame]) -> None:
        self.games = games
        self.said = ""

    def __call__(self) -> str:
        if not self.said:
            self.said = diagnosis(self.games)
        return self.said


def _tiers(entrants: Sequence[EntrantBoard], pairs: Sequence[PairBoard]) -> None:
    """Number the tiers down the board: an entrant opens a new tier when it is separated from
    any member of the current one, so no two members of a tier are separated. Entrants whose
    overall skill is not measured are in no tier."""
    separated = {frozenset((p.a, p.b)) for p in pairs if p.verdict == SEPARATED}
    tier, members = 0, list[str]()
    for e in entrants:
        if not e.overall.measured:
            e.tier = None
            continue
        if not members or any(frozenset((m, e.name)) in separated for m in members):
            tier, members = tier + 1, []
        members.append(e.name)
        e.tier = tier
