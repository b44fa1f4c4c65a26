"""A self-contained HTML report of a tournament: tables and matplotlib plots embedded as PNG
data URIs, so the file opens offline and can be mailed or archived as one file. The web
tournament page serves the same document; every number comes from the report's board.

Plots: ratings with their 95% intervals (the board's and OpenSkill's), deception against
detection with both intervals, the head-to-head matrix, rating against cost per game (the
frontier), win rate by side and role per block, belief calibration (reliability diagram).
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from duskfall.arena.board import Board, EntrantBoard, Estimate
from duskfall.arena.leaderboard import TournamentReport
from duskfall.arena.results import PlayedGame
from duskfall.core.errors import ConfigError


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(
            "the HTML report needs matplotlib: pip install 'duskfall[arena]'"
        ) from None
    return plt


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    _pyplot().close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _error(e: Estimate) -> list[list[float]]:
    """Matplotlib's error bar lengths of an interval (none where there is no interval)."""
    if not e.known:
        return [[0.0], [0.0]]
    return [[e.point - e.low], [e.high - e.point]]


def _ratings_plot(board: Board) -> str:
    plt = _pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(9, 0.5 * len(board.entrants) + 1.8))
    names = [e.name for e in reversed(board.entrants)]
    for y, e in enumerate(reversed(board.entrants)):
        axes[0].errorbar(e.elo.point, y, xerr=_error(e.elo), fmt="o", capsize=4, color="C0")
        if e.openskill is not None:
            os = Estimate(e.openskill.mu, e.openskill.low, e.openskill.high)
            axes[1].errorbar(os.point, y, xerr=_error(os), fmt="s", capsize=4, color="C1")
    for axis, label in zip(axes, ("rating (1500 + 174 x overall)", "OpenSkill mu"), strict=True):
        axis.set_yticks(range(len(names)), names)
        axis.set_xlabel(f"{label}, 95% interval")
    axes[0].set_title("Board (fitted to all games)")
    axes[1].set_title("OpenSkill (comparison)")
    return _png(figure)


def _skills_plot(board: Board) -> str | None:
    if not any(e.sides_identified for e in board.entrants):
        return None  # two entrants that only met each other: only overall is measured
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6, 5))
    for i, e in enumerate(board.entrants):
        if not e.sides_identified:
            continue
        axis.errorbar(
            e.deception.point,
            e.detection.point,
            xerr=_error(e.deception),
            yerr=_error(e.detection),
            fmt="o",
            capsize=3,
            color=f"C{i % 10}",
            label=e.name,
        )
    axis.axhline(0, color="grey", linewidth=0.5)
    axis.axvline(0, color="grey", linewidth=0.5)
    axis.set_xlabel("deception: skill as the evil side (logits)")
    axis.set_ylabel("detection: skill as the village (logits)")
    axis.set_title("Deception against detection (95% intervals)")
    axis.legend(fontsize="small")
    return _png(figure)


def _matrix_plot(board: Board) -> str:
    plt = _pyplot()
    names = [e.name for e in board.entrants]
    size = len(names)
    figure, axis = plt.subplots(figsize=(1.3 * size + 2.5, 1.0 * size + 1.5))
    values = [[math.nan] * size for _ in names]
    for i, me in enumerate(names):
        for j, other in enumerate(names):
            if i == j:
                continue
            pair = board.pair(me, other)
            p = pair.a_beats_b
            chance = p if pair.a == me else Estimate(1 - p.point, 1 - p.high, 1 - p.low)
            values[i][j] = chance.point
            text = f"{chance.point:.0%}"
            if chance.known:
                text += f"\n[{chance.low:.0%}, {chance.high:.0%}]"
            axis.text(j, i, text, ha="center", va="center", fontsize="small")
    axis.imshow(values, cmap="RdBu", vmin=0, vmax=1)
    axis.set_xticks(range(size), names, rotation=30)
    axis.set_yticks(range(size), names)
    axis.set_title("Chance the row beats the column (both sides, 95%)")
    return _png(figure)


def _cost_plot(board: Board) -> str | None:
    if not any(e.cost_usd for e in board.entrants):
        return None  # nothing to plot: every entrant played for free
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6, 4))
    frontier = sorted((e for e in board.entrants if e.frontier), key=lambda e: e.cost_per_game)
    for e in board.entrants:
        axis.errorbar(
            e.cost_per_game, e.elo.point, yerr=_error(e.elo), fmt="o", capsize=3,
            color="C2" if e.frontier else "C7",
        )  # fmt: skip
        axis.annotate(e.name, (e.cost_per_game, e.elo.point))
    axis.plot(
        [e.cost_per_game for e in frontier], [e.elo.point for e in frontier], "--", color="C2"
    )
    axis.set_xlabel("cost per game (USD)")
    axis.set_ylabel("rating")
    axis.set_title("Rating against cost (dashed: the frontier)")
    return _png(figure)


def _roles_plot(board: Board) -> str | None:
    entrants = board.entrants
    keys = sorted({k for e in entrants for k in e.win_rates if k != "all"})
    if not keys:
        return None
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(max(6, 0.9 * len(keys) + 2), 4))
    width = 0.8 / max(1, len(entrants))
    for i, e in enumerate(entrants):
        rates, low, high = [], [], []
        for key in keys:
            w = e.win_rates.get(key)
            data = w.to_dict() if w is not None else {"rate": 0.0, "low": 0.0, "high": 0.0}
            rates.append(data["rate"])
            low.append(data["rate"] - data["low"])
            high.append(data["high"] - data["rate"])
        xs = [j + i * width for j in range(len(keys))]
        axis.bar(xs, rates, width, yerr=[low, high], capsize=3, label=e.name)
    axis.set_xticks([j + 0.4 - width / 2 for j in range(len(keys))], keys, rotation=30)
    axis.set_ylabel("win rate (Wilson 95%)")
    axis.set_ylim(0, 1)
    axis.set_title("Win rate by side and role")
    axis.legend(fontsize="small")
    return _png(figure)


def _calibration_plot(report: TournamentReport) -> str | None:
    calibration = report.calibration
    if not calibration.overall:
        return None
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(5, 5))
    axis.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfect")
    for name in calibration.overall:
        points = calibration.reliability(name)
        axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=name)
    axis.set_xlabel("stated P(evil)")
    axis.set_ylabel("share actually evil")
    axis.set_title("Belief calibration")
    axis.legend()
    return _png(figure)


@dataclass(frozen=True)
class _Link:
    href: str
    text: str


def _cell(value: Any) -> str:
    if isinstance(value, _Link):
        return f'<a href="{escape(value.href)}">{escape(value.text)}</a>'
    return escape(str(value))


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _board_table(board: Board) -> str:
    def row(rank: int, e: EntrantBoard) -> list[Any]:
        os = e.openskill
        return [
            rank, e.name, e.agent, e.elo.format(".0f"), e.overall.format(), e.deception.format(),
            e.detection.format(),
            "-" if os is None else Estimate(os.mu, os.low, os.high).format(".1f"),
            e.games, f"${e.cost_per_game:.4f}", "yes" if e.frontier else "",
        ]  # fmt: skip

    return _table(
        ["#", "entrant", "agent", "rating [95%]", "overall", "deception", "detection",
         "OpenSkill", "games", "cost/game", "frontier"],
        [row(i, e) for i, e in enumerate(board.entrants, 1)],
    )  # fmt: skip


def _pairs_table(board: Board) -> str:
    return _table(
        ["pair", "difference (logits)", "rating points", "deception", "detection",
         "P(first wins)", "record", "verdict"],
        [
            [
                f"{p.a} > {p.b}", p.overall.format(), p.elo.format("+.0f"), p.deception.format(),
                p.detection.format(), p.a_beats_b.format(".0%"),
                f"{p.record[0]:g}/{p.record[1]}" if p.record[1] else "-",
                p.verdict + (f" (look {p.separated_at})" if p.separated_at else ""),
            ]
            for p in board.pairs
        ],
    )  # fmt: skip


def _win_rate_table(board: Board) -> str:
    keys = sorted({k for e in board.entrants for k in e.win_rates})
    rows = []
    for e in board.entrants:
        cells = []
        for key in keys:
            w = e.win_rates.get(key)
            if w is None or not w.games:
                cells.append("-")
                continue
            data = w.to_dict()
            cells.append(f"{data['rate']:.0%} [{data['low']:.0%}, {data['high']:.0%}] of {w.games}")
        rows.append([e.name, *cells])
    return _table(["entrant", *keys], rows)


def _holdout_table(board: Board) -> str:
    if not board.holdout:
        return "<p>Too few deals for held-out prediction (5 folds by deal).</p>"
    return _table(
        ["rating", "log loss", "Brier", "games"],
        [[n, f"{s.log_loss:.3f}", f"{s.brier:.3f}", s.games] for n, s in board.holdout.items()],
    )


def _stopping(board: Board) -> str:
    s = board.stopping
    if s is None:
        return ""
    looks = ", ".join(f"{look['games']} (|z| {look['boundary']:.2f})" for look in s.plan["looks"])
    outcome = f"stopped: {s.reason}; {s.games_saved} games saved" if s.stopped else s.reason
    return (
        f"<h2>Stopping rule</h2><p>{escape(s.plan['rule'])}; planned looks after {escape(looks)} "
        f"games; {s.looks_taken} taken; {escape(outcome)}.</p>"
    )


def _tells_table(report: TournamentReport) -> str:
    """What seats gave away in public (:mod:`duskfall.lab.leaks`), per entrant."""
    if not any(e.leaks.speeches for e in report.entrants):
        return ""
    rows = [
        [
            e.name, e.leaks.speeches, e.leaks.self_exposures, e.leaks.teammate_exposures,
            _pct(e.leaks.exposure_rate), e.leaks.chat_leaks, e.leaks.reasoning_leaks,
            e.leaks.result_leaks, _pct(e.leaks.leak_rate),
            f"{e.leaks.true_claims}/{e.leaks.true_claims + e.leaks.false_claims}"
            + (f" ({e.leaks.unfounded_claims} unfounded)" if e.leaks.unfounded_claims else ""),
        ]
        for e in report.entrants
    ]  # fmt: skip
    headers = [
        "entrant", "public speeches", "named own role", "named a teammate", "exposure rate",
        "team chat leaked", "reasoning leaked", "results leaked", "leak rate",
        "seer claims true",
    ]  # fmt: skip
    return (
        "<h2>Tells</h2><p>An evil seat naming its own role or a teammate in public (per speech "
        "of an evil seat); 8 or more words of the seat's own private text (its team's chat, its "
        "reasoning, its results) verbatim in its public speech (per speech); a checking seat's "
        "public claims about players against its checks.</p>" + _table(headers, rows)
    )


def _ablations_table(report: TournamentReport) -> str:
    """The forks blocks' paired differences (:mod:`duskfall.arena.forks`)."""
    if not report.ablations:
        return ""
    rows = [
        [d.block, d.measure, f"{d.first} - {d.second}",
         Estimate(d.point, d.low, d.high).format("+.3f"), d.sources, d.verdict]
        for d in report.ablations
    ]  # fmt: skip
    return (
        "<h2>Paired ablations</h2><p>Forks of the same logged games at the same moment, one per "
        "entrant in the same seats; differences of each measure (from the fork on, over the "
        "entrant's seats) paired by source game; 95% intervals resample whole source games.</p>"
        + _table(["block", "measure", "pair", "difference [95%]", "source games", "verdict"], rows)
    )


def html_report(
    report: TournamentReport, game_href: Callable[[PlayedGame], str] | None = None
) -> str:
    """The whole report as one HTML document (no external resource). With ``game_href``
    every game links to that address (the web page's game view); else its log is named."""
    board = report.board
    behaviour = _table(
        ["entrant", "vote accuracy", "votes on evil", "survival", "power kills", "bussing",
         "claims true", "legal 1st try", "fallbacks", "tokens", "cached", "cost"],
        [
            [
                e.name, _pct(e.metrics.vote_accuracy),
                "-" if e.metrics.votes_received_when_evil is None
                else f"{e.metrics.votes_received_when_evil:.2f}",
                _pct(e.metrics.survival), _pct(e.metrics.power_role_kill_rate),
                _pct(e.metrics.teammate_vote_rate), _pct(e.metrics.claim_truthfulness),
                _pct(e.metrics.legal_first_try), e.metrics.fallbacks,
                e.metrics.prompt_tokens + e.metrics.completion_tokens, e.metrics.cached_tokens,
                f"${e.metrics.cost_usd:.4f}",
            ]
            for e in report.entrants
        ],
    )  # fmt: skip
    calibration = ""
    if report.calibration.overall:
        calibration = "<h2>Belief calibration</h2>" + _table(
            ["entrant", "beliefs", "Brier", "log loss"],
            [
                [n, s.n, f"{s.brier or 0:.3f}", f"{s.log_loss or 0:.3f}"]
                for n, s in report.calibration.overall.items()
            ],
        )
    optional = (_skills_plot(board), _cost_plot(board), _roles_plot(board))
    plots = [_ratings_plot(board), _matrix_plot(board)]
    plots += [p for p in (*optional, _calibration_plot(report)) if p]
    images = "".join(
        f'<figure><img class="plot" alt="plot" src="data:image/png;base64,{png}"></figure>'
        for png in plots
    )
    no_cost = (
        ""
        if any(e.cost_usd for e in board.entrants)
        else ("<p>No entrant spent anything (no model costs), so there is no cost frontier.</p>")
    )
    sides = _table(
        ["block", "side advantage (evil, logits)"],
        [[b, e.format()] for b, e in board.side_advantage.items()],
    )
    games = _table(
        ["slot", "game", "variant", "winner"] + ([] if game_href else ["log"]),
        [
            [g.slot, _Link(game_href(g), g.game_id), g.variant, g.winner_side or "-"]
            if game_href
            else [g.slot, g.game_id, g.variant, g.winner_side or "-", g.log_path or ""]
            for g in report.games
        ],
    )
    title = escape(f"Tournament {report.name}")
    anchor = escape(board.reference or "the field's mean")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; }}
img.plot {{ max-width: 100%; }}
</style></head><body>
<h1>{title}</h1>
<p>{report.games_played} of {report.games_scheduled} games ({escape(report.schedule)} schedule,
{board.deals} deals), {report.games_aborted} aborted, {board.draws} draws;
{report.total_tokens:,} tokens, ${report.total_cost_usd:.4f}.</p>
<p>Skills are log-odds (logits) relative to {anchor}: <em>deception</em> as the evil side,
<em>detection</em> as the village, <em>overall</em> their mean; rating = 1500 + 174 x overall
(400 points = 10:1 odds). Intervals are {board.level:.0%}: the point plus or minus Student's t
(deals - 1) times the standard error over {board.bootstrap} resamples of whole deals. A pair is
<em>separated</em> when the interval of its difference excludes 0.</p>
{_stopping(board)}
<h2>Board</h2>{_board_table(board)}
<h2>Pairs</h2>{_pairs_table(board)}
<h2>Held-out prediction</h2>{_holdout_table(board)}
<h2>Side advantage</h2>{sides}
<h2>Win rates by side and role</h2>{_win_rate_table(board)}
<h2>Behaviour</h2>{behaviour}
{_tells_table(report)}
{_ablations_table(report)}
{calibration}
<h2>Plots</h2>{no_cost}{images}
<h2>Games</h2>{games}
</body></html>
"""
