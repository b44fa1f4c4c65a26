"""``duskfall tournament plan``: how many games separate a stated gap, for each schedule.

The board's difference of overall skill between two entrants is estimated with a variance
that falls as 1/games. To separate a true gap ``delta`` at 95% (two-sided) with 80% power the
standard error must come down to ``delta / (t_0.975 + z_0.8)``, so the games needed are
``v (t_0.975 + z_0.8)^2 / delta^2`` where ``v`` is the variance of one game's worth of the
difference.

``v`` is computed for each schedule from the model's Fisher information over the schedule's own
first deals (its real seats, roles and side shares), with every entrant equally strong and
each block's evil side winning as often as measured:

* on a *pilot*: the tournament's games played so far (its side advantages, fitted); the
  pilot's deal-bootstrap standard errors are also compared with a game-by-game bootstrap, which
  is how much the pairing of games within deals cut the variance, as measured;
* else, when every entrant is a bot (nothing that costs money, no remote program), on a pilot
  of the config's own schedule played now with the entrants themselves;
* else on a quick simulation of each block with the ``heuristic`` bot on every seat (the
  variant's measured outcome variance; the entrants themselves may be models that cost money).

With a pilot, every schedule's variance is also scaled by the pilot's deal-bootstrap variance
over the model's (when larger): checked against tournaments of the planned size
(``benchmarks/board_calibration.py --sections planner``), the model's variance alone, with a
heuristic proxy's side advantage, promised 80% power and reached about half.

The numbers assume games independent given the skills; a paired design whose deals matter
needs fewer (the pilot's measured reduction says how many fewer).

A design that cannot measure a pair's difference of overall skill at all (it is not estimable
from its games: :mod:`duskfall.rating.identified`) gets no number of games, but the reason;
:func:`design_gaps` says before play what a config's board will not measure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from duskfall.agents.kinds import calls_models
from duskfall.arena.quick_games import job, play, play_schedule
from duskfall.arena.rated import block_labels, rated_game
from duskfall.arena.remote_spec import REMOTE
from duskfall.arena.schedule import build_schedule, deal_size
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.registry import get_variant
from duskfall.core.sides import EVIL, side_of
from duskfall.rating.bradley_terry import ELO_PER_LOGIT, Design, RatedGame, sigmoid
from duskfall.rating.fit import fit_games, pair_differences
from duskfall.rating.identified import ONLY_EACH_OTHER, Identification, diagnosis
from duskfall.rating.intervals import DealResampler, standard_error

SCHEDULES = ("duplicate", "sides", "mixed")
POWER = 0.80
LEVEL = 0.95
DESIGN_DEALS = 60  # deals of each schedule over which its information is computed
PROXY_GAMES = 200


@dataclass
class ScheduleNeed:
    schedule: str
    games: int | None  # None: the design does not measure overall skill (``reason``)
    deals: int | None
    se_per_game: float  # sqrt(v): the se of the worst pair's difference times sqrt(games)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schedule": self.schedule,
            "games": self.games,
            "deals": self.deals,
            "se_at_one_game": None if self.games is None else round(self.se_per_game, 4),
        }
        if self.reason:
            out["not_measured"] = self.reason
        return out


@dataclass
class Pilot:
    games: int
    deals: int
    schedule: str
    se: float  # deal bootstrap se of the worst pair's difference
    se_games: float  # the same, resampling games one by one
    model_se: float  # the model's (Fisher) se for the same games
    needed: int  # games needed, scaled from the measured se

    @property
    def pairing_reduction(self) -> float:
        """The share of the game-by-game variance that pairing within deals removed."""
        if not self.se_games:
            return 0.0
        return 1 - (self.se / self.se_games) ** 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "deals": self.deals,
            "schedule": self.schedule,
            "se": round(self.se, 4),
            "se_resampling_games": round(self.se_games, 4),
            "model_se": round(self.model_se, 4),
            "pairing_variance_reduction": round(self.pairing_reduction, 4),
            "games_needed": self.needed,
        }


@dataclass
class Plan:
    name: str
    gap_elo: float
    evil_win: dict[str, float]  # per block: evil's share of wins between equal players
    source: str
    schedules: list[ScheduleNeed] = field(default_factory=list)
    pilot: Pilot | None = None
    warnings: list[str] = field(default_factory=list)  # what the config's design cannot measure
    inflation: float = 1.0  # the model's variance scaled by the pilot's measured excess

    @property
    def gap(self) -> float:
        return self.gap_elo / ELO_PER_LOGIT

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "gap_elo": self.gap_elo,
            "gap_logits": round(self.gap, 4),
            "level": LEVEL,
            "power": POWER,
            "evil_win": {k: round(v, 4) for k, v in self.evil_win.items()},
            "source": self.source,
            "schedules": [s.to_dict() for s in self.schedules],
            "pilot": None if self.pilot is None else self.pilot.to_dict(),
            "warnings": self.warnings,
            "variance_inflation": round(self.inflation, 4),
        }


def _games_needed(v: float, gap: float, per_deal: int) -> int:
    """Games (whole deals) for se = gap / (t + z), t on the deals' degrees of freedom."""
    z_power = stats.norm.ppf(POWER)
    games = v * (stats.norm.ppf(0.5 + LEVEL / 2) + z_power) ** 2 / gap**2
    for _ in range(3):  # the t quantile depends on the deals, which depend on the games
        deals = max(2, math.ceil(games / per_deal))
        games = v * (stats.t.ppf(0.5 + LEVEL / 2, deals - 1) + z_power) ** 2 / gap**2
    deals = max(2, math.ceil(games / per_deal))
    return deals * per_deal


def _design_games(
    config: TournamentConfig, schedule: str, *, as_configured: bool = False
) -> list[RatedGame]:
    """The first deals of ``config`` played with ``schedule`` (results left at 0.5); with
    ``as_configured``, no more than each block's own games."""
    size = deal_size(config.model_copy(update={"schedule": schedule}))
    cap = DESIGN_DEALS * size
    trial = config.model_copy(
        update={
            "schedule": schedule,
            "stop": "all",
            "games": cap,
            "variants": [
                b.model_copy(
                    update={"games": min(cap, config.block_games(b)) if as_configured else None}
                )
                for b in config.variants
            ],
        }
    )
    labels = block_labels(trial)
    out = []
    for slot in build_schedule(trial):
        game = rated_game(slot, labels, None, "draw")
        if game is not None:
            out.append(game)
    return out


def model_variance(
    games: Sequence[RatedGame], entrants: Sequence[str], side_logits: Mapping[str, float]
) -> float:
    """The worst pair's variance of the difference of overall skill, times the games (the
    variance one game carries), with equal entrants and these side advantages (infinite when
    the games do not measure some pair's difference at all)."""
    design = Design(games, entrants)
    identification = Identification(design)
    theta = np.zeros(design.params.size)
    for block, value in side_logits.items():
        if block in design.params.blocks:
            theta[design.params.side(design.params.blocks.index(block))] = value
    n, _ = design.totals()
    p = sigmoid(design.rows @ theta)
    info = (design.rows.T * (n * p * (1 - p))) @ design.rows
    info += np.diag(design.params.prior_precision()) * 1e-6  # identifiable, barely there
    cov = np.linalg.pinv(info)
    k = design.params.k
    worst = 0.0
    for a in range(k):
        for b in range(a + 1, k):
            c = np.zeros(design.params.size)
            c[[a, k + a]] += 0.5
            c[[b, k + b]] -= 0.5
            if not identification.contrast(c):
                return math.inf
            worst = max(worst, float(c @ cov @ c))
    return worst * len(games)


def proxy_side_logits(config: TournamentConfig, games: int = PROXY_GAMES) -> dict[str, float]:
    """Each block's evil log-odds measured on ``games`` heuristic self-play games."""
    labels = block_labels(config)
    out = {}
    for label, block in zip(labels, config.variants, strict=True):
        variant = get_variant(block.variant)
        jobs = [job(block.variant, seed, block.game_config(), "heuristic") for seed in range(games)]
        evil = [
            0.5 if r.winner is None else float(side_of(variant, r.winner) == EVIL)
            for r in play(jobs)
            if r.termination != "aborted"
        ]
        share = (sum(evil) + 1) / (len(evil) + 2)
        out[label] = math.log(share / (1 - share))
    return out


def _pilot(
    config: TournamentConfig, pilot: Sequence[RatedGame], gap: float, side: Mapping[str, float]
) -> Pilot | None:
    entrants = list(config.entrants)
    fit = fit_games(pilot, entrants, bootstrap=config.board.bootstrap, seed=config.stats_seed)
    differences = {k: v for k, v in pair_differences(fit).items() if not math.isnan(v[1])}
    if not differences:  # no pair measured yet (or nothing resampled): no pilot figure
        return None
    worst = max(differences, key=lambda pair: differences[pair][1])
    se = differences[worst][1]
    by_games = DealResampler(list(range(len(pilot))), config.stats_seed + 1)
    a, b = worst
    samples = []
    for _ in range(config.board.bootstrap):
        counts = by_games.counts()
        theta = fit.design.fit(np.asarray(counts, dtype=np.float64), start=fit.theta)
        skills = fit.skills(theta)
        samples.append(skills.overall(a) - skills.overall(b))
    se_games = standard_error(samples, len(pilot))
    model_se = math.sqrt(model_variance(pilot, entrants, side) / len(pilot))
    v = se**2 * len(pilot)
    needed = _games_needed(v, gap, deal_size(config))
    return Pilot(len(pilot), fit.deals, config.schedule, se, se_games, model_se, needed)


def _bots_only(config: TournamentConfig) -> bool:
    """Whether every entrant is a program played here for free (no model, no remote)."""
    return all(spec != REMOTE and not calls_models(spec) for spec in config.entrants.values())


def _bot_pilot(config: TournamentConfig, games: int) -> list[RatedGame]:
    """``games`` games per block (whole deals, at least two) of the config's own schedule,
    its entrants in their seats, played here: a pilot that costs nothing."""
    size = deal_size(config)
    trial = config.model_copy(
        update={
            "games": max(2, games // size) * size,
            "stop": "all",
            "forks": [],
            "variants": [b.model_copy(update={"games": None}) for b in config.variants],
        }
    )
    return play_schedule(trial)


def make_plan(
    config: TournamentConfig,
    gap_elo: float,
    pilot: Sequence[RatedGame] | None = None,
    proxy_games: int = PROXY_GAMES,
) -> Plan:
    """The plan of ``config`` (see the module docstring); ``pilot``: its games so far."""
    entrants = list(config.entrants)
    labels = block_labels(config)
    source = f"pilot: the {len(pilot or [])} games played so far"
    if not (pilot and len({g.deal for g in pilot}) >= 2) and _bots_only(config) and proxy_games:
        pilot = _bot_pilot(config, proxy_games)
        source = f"a pilot of {len(pilot)} games of the entrants themselves (bots), played now"
    if pilot and len({g.deal for g in pilot}) >= 2:
        fit = fit_games(pilot, entrants, bootstrap=0)
        side = {b: v for b, v in fit.skills(fit.theta).side_advantage.items() if b in labels}
    else:
        side = proxy_side_logits(config, proxy_games)
        source = f"{proxy_games} games per block of heuristic bots on every seat"
        pilot = None
    plan = Plan(
        config.name,
        gap_elo,
        {b: float(sigmoid(np.asarray([v]))[0]) for b, v in side.items()},
        source,
    )
    if pilot is not None:
        plan.pilot = _pilot(config, pilot, plan.gap, side)
    inflation = 1.0  # the pilot's measured variance over the model's, where it is larger
    if plan.pilot is not None and plan.pilot.model_se > 0:
        inflation = max(1.0, (plan.pilot.se / plan.pilot.model_se) ** 2)
    plan.inflation = inflation
    for schedule in SCHEDULES:
        games = _design_games(config, schedule)
        v = model_variance(games, entrants, side) * inflation
        if math.isinf(v):
            plan.schedules.append(ScheduleNeed(schedule, None, None, v, diagnosis(games)))
            continue
        per_deal = deal_size(config.model_copy(update={"schedule": schedule}))
        needed = _games_needed(v, plan.gap, per_deal)
        plan.schedules.append(ScheduleNeed(schedule, needed, needed // per_deal, math.sqrt(v)))
    plan.warnings = design_gaps(config)
    return plan


def design_gaps(config: TournamentConfig, *, inherent: bool = True) -> list[str]:
    """What the board of ``config``'s design will not measure, a line each (empty: every
    number it reports is determined by the games), from the schedule's first deals. Without
    ``inherent``, not what no design could measure (two entrants' two skills apart)."""
    if not config.variants:
        return []
    plain = config.model_copy(update={"forks": []})
    games = _design_games(plain, config.schedule, as_configured=True)
    entrants = list(config.entrants)
    design = Design(games, entrants)
    identification = Identification(design)
    reference = config.board.reference

    def measured(kind: str, name: str) -> bool:
        contrast = design.skill_contrast(kind, name, reference)
        return identification.contrast(contrast)

    def overall(name: str) -> bool:
        both = design.skill_contrast("deception", name, reference)
        both += design.skill_contrast("detection", name, reference)
        return identification.contrast(both / 2)

    lines = []
    where = f"the {config.schedule!r} schedule"
    no_overall = [name for name in entrants if not overall(name)]
    if no_overall:
        lines.append(
            f"{where} with these games cannot measure the overall skill of "
            f"{', '.join(no_overall)}: {diagnosis(games)}"
        )
    split = [n for n in entrants if not (measured("deception", n) and measured("detection", n))]
    if split and not no_overall and (inherent or diagnosis(games) != ONLY_EACH_OTHER):
        lines.append(
            f"{where} cannot tell deception from detection for {', '.join(split)}: "
            f"{diagnosis(games)}"
        )
    return lines
