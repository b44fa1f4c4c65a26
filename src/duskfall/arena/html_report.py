"""A self-contained HTML report of a tournament: tables and matplotlib plots embedded as PNG
data URIs, so the file opens offline and can be mailed or archived as one file.

Plots: ratings with their 95% intervals (overall and per side), win rate by role, belief
calibration (reliability diagram), cost against rating.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

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


def _ratings_plot(report: TournamentReport) -> str:
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(7, 0.6 * len(report.entrants) + 1.5))
    rows = []
    for e in report.entrants:
        rows.append((e.name, e.rating))
        for side, rating in sorted(e.side_ratings.items()):
            rows.append((f"{e.name} ({side})", rating))
    for y, (_label, rating) in enumerate(reversed(rows)):
        low = rating.low if not math.isnan(rating.low) else rating.mu
        high = rating.high if not math.isnan(rating.high) else rating.mu
        axis.errorbar(
            rating.mu, y, xerr=[[rating.mu - low], [high - rating.mu]], fmt="o", capsize=4
        )
    axis.set_yticks(range(len(rows)), [label for label, _ in reversed(rows)])
    axis.set_xlabel("OpenSkill mu (95% bootstrap interval)")
    axis.set_title("Ratings")
    return _png(figure)


def _roles_plot(report: TournamentReport) -> str:
    plt = _pyplot()
    roles = sorted({k for e in report.entrants for k in e.win_rates if k not in ("all",)})
    figure, axis = plt.subplots(figsize=(max(6, 0.9 * len(roles) + 2), 4))
    width = 0.8 / max(1, len(report.entrants))
    for i, e in enumerate(report.entrants):
        rates = [e.win_rates[r].rate if r in e.win_rates else 0.0 for r in roles]
        errors = [
            [
                e.win_rates[r].rate - e.win_rates[r].interval()[0] if r in e.win_rates else 0
                for r in roles
            ],
            [
                e.win_rates[r].interval()[1] - e.win_rates[r].rate if r in e.win_rates else 0
                for r in roles
            ],
        ]
        xs = [j + i * width for j in range(len(roles))]
        axis.bar(xs, rates, width, yerr=errors, capsize=3, label=e.name)
    axis.set_xticks([j + 0.4 - width / 2 for j in range(len(roles))], roles, rotation=30)
    axis.set_ylabel("win rate (Wilson 95%)")
    axis.set_ylim(0, 1)
    axis.set_title("Win rate by side and role")
    axis.legend()
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


def _cost_plot(report: TournamentReport) -> str:
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6, 4))
    for e in report.entrants:
        axis.scatter(e.metrics.cost_usd, e.rating.mu)
        axis.annotate(e.name, (e.metrics.cost_usd, e.rating.mu))
    axis.set_xlabel("cost (USD)")
    axis.set_ylabel("rating mu")
    axis.set_title("Cost against rating")
    return _png(figure)


@dataclass(frozen=True)
class _Link:
    href: str
    text: str


def _cell(value: Any) -> str:
    if isinstance(value, _Link):
        return f'<a href="{escape(value.href)}">{escape(value.text)}</a>'
    return escape(str(value))


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def html_report(
    report: TournamentReport, game_href: Callable[[PlayedGame], str] | None = None
) -> str:
    """The whole report as one HTML document (no external resource). With ``game_href``
    every game links to that address (the web page's game view); else its log is named."""
    board = _table(
        ["#", "entrant", "agent", "mu", "95% interval", "games", "win rate"],
        [
            [
                i,
                e.name,
                e.spec,
                f"{e.rating.mu:.2f}",
                f"[{e.rating.low:.2f}, {e.rating.high:.2f}]",
                e.rating.games,
                str(e.win_rates["all"]) if "all" in e.win_rates else "-",
            ]
            for i, e in enumerate(report.entrants, 1)
        ],
    )
    behaviour = _table(
        ["entrant", "vote accuracy", "survival", "power kills", "bussing", "legal 1st try",
         "fallbacks", "tokens", "cached", "cost"],
        [
            [
                e.name, _pct(e.metrics.vote_accuracy), _pct(e.metrics.survival),
                _pct(e.metrics.power_role_kill_rate), _pct(e.metrics.teammate_vote_rate),
                _pct(e.metrics.legal_first_try), e.metrics.fallbacks,
                e.metrics.prompt_tokens + e.metrics.completion_tokens, e.metrics.cached_tokens,
                f"${e.metrics.cost_usd:.4f}",
            ]
            for e in report.entrants
        ],
    )  # fmt: skip
    plots = [_ratings_plot(report), _roles_plot(report), _cost_plot(report)]
    calibration = _calibration_plot(report)
    if calibration is not None:
        plots.append(calibration)
    images = "".join(
        f'<figure><img class="plot" alt="plot" src="data:image/png;base64,{png}"></figure>'
        for png in plots
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
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; }}
img.plot {{ max-width: 100%; }}
</style></head><body>
<h1>{title}</h1>
<p>{report.games_played} of {report.games_scheduled} games ({escape(report.schedule)} schedule),
{report.games_aborted} aborted; {report.total_tokens:,} tokens, ${report.total_cost_usd:.4f}.</p>
<h2>Leaderboard</h2>{board}
<h2>Behaviour</h2>{behaviour}
<h2>Plots</h2>{images}
<h2>Games</h2>{games}
</body></html>
"""
