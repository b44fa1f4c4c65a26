"""A tournament's report as HTML: tables and SVG plots drawn from the report's board.

:func:`report_body` is the report itself; :func:`html_report` wraps it into one self-contained
file (its stylesheet inside, no script, no external resource) that opens offline and can be
mailed or archived, and the web tournament page wraps the very same body into the site's
page (:mod:`duskfall.web.tournaments`), so both show the same content. Every rating number
comes from the :class:`~duskfall.report.board.Board`, the object ``duskfall tournament report``
prints and ``--json`` writes: one source for the terminal, the JSON, the file and the web.

Sections: the board (ratings with intervals, OpenSkill beside), deception against detection,
the pairs (differences with their paired intervals and verdicts) and the head-to-head
matrix, held-out prediction, rating against cost (the frontier), the results of each variant
(its side advantage, win rates by side and role: roles of different variants are never
pooled), behaviour, tells, paired ablations (forks blocks), belief calibration, and the games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from importlib.resources import files
from typing import Any

from duskfall.rating.fit import Estimate
from duskfall.report import svg_plots
from duskfall.report.board import Board, EntrantBoard, WinRate
from duskfall.report.columns import BEHAVIOUR
from duskfall.report.leaderboard import TournamentReport
from duskfall.report.results import PlayedGame

ABLATION_COLUMNS = ["block", "measure", "pair", "difference [95%]", "source games", "verdict"]
STYLESHEET = "report.css"  # beside this module; the web serves it as /static/report.css


def stylesheet() -> str:
    """The report's stylesheet (the offline file embeds it, the web page links it)."""
    return files("duskfall.report").joinpath(STYLESHEET).read_text(encoding="utf-8")


def _interval(e: Estimate) -> svg_plots.Interval:
    return (e.point, e.low, e.high)


@dataclass(frozen=True)
class _Link:
    href: str
    text: str


def _cell(value: Any) -> str:
    if isinstance(value, _Link):
        return f'<a href="{escape(value.href)}">{escape(value.text)}</a>'
    return escape(str(value))


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], name: str) -> str:
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<th scope="row">{_cell(c)}</th>' if i == 0 else f"<td>{_cell(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="scroll-x" tabindex="0" role="region" aria-label="{escape(name)} table">'
        f'<table class="report-table" data-table="{escape(name)}">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _rate(w: WinRate | None) -> str:
    if w is None or not w.games:
        return "-"
    data = w.to_dict()
    return f"{data['rate']:.0%} [{data['low']:.0%}, {data['high']:.0%}] of {w.games}"


def _rate_interval(w: WinRate | None) -> svg_plots.Interval | None:
    if w is None or not w.games:
        return None
    data = w.to_dict()
    return (data["rate"], data["low"], data["high"])


def _section(ident: str, title: str, *parts: str) -> str:
    return (
        f'<section class="report-section" id="{ident}" aria-labelledby="{ident}-title">'
        f'<h2 id="{ident}-title">{escape(title)}</h2>{"".join(parts)}</section>'
    )


def _figure(svg: str, caption: str) -> str:
    return f'<figure class="report-plot">{svg}<figcaption>{escape(caption)}</figcaption></figure>'


# -- the board ---------------------------------------------------------------------------


def _board_table(board: Board) -> str:
    def row(rank: int, e: EntrantBoard) -> list[Any]:
        os = e.openskill
        return [
            e.name, rank if e.tier is not None else "-", "-" if e.tier is None else e.tier,
            e.agent, e.elo.format(".0f"), e.overall.format(), e.deception.format(),
            e.detection.format(),
            "-" if os is None else Estimate(os.mu, os.low, os.high).format(".1f"),
            e.games, f"${e.cost_per_game:.4f}", "yes" if e.frontier else "",
        ]  # fmt: skip

    note = (
        f'<p class="not-measured">Not measured by this design: {escape(board.not_measured)}.</p>'
        if board.not_measured
        else ""
    )
    tiers = "".join(
        f"<li>tier {i}: {escape(', '.join(names))}</li>" for i, names in enumerate(board.tiers(), 1)
    )
    return note + _table(
        ["entrant", "#", "tier", "agent", "rating [95%]", "overall", "deception", "detection",
         "OpenSkill", "games", "cost/game", "frontier"],
        [row(i, e) for i, e in enumerate(board.entrants, 1)],
        "board",
    ) + (
        '<p>Tiers: entrants no pair of which is separated (the order within a tier is not told '
        f'apart).</p><ul class="tiers">{tiers}</ul>' if tiers else ""
    )  # fmt: skip


def _ratings_plots(board: Board) -> str:
    rating = svg_plots.interval_plot(
        [(e.name, _interval(e.elo)) for e in board.entrants if e.elo.measured],
        "Board rating (fitted to all games)",
        "rating (1500 + 174 × overall), 95% interval",
        "ratings",
    )
    parts = [_figure(rating, "Each entrant's rating with its 95% interval.")]
    rated = [e for e in board.entrants if e.openskill is not None]
    if rated:
        openskill = svg_plots.interval_plot(
            [(e.name, (e.openskill.mu, e.openskill.low, e.openskill.high)) for e in rated
             if e.openskill is not None],
            "OpenSkill (for comparison)",
            "OpenSkill mu, 95% interval",
            "openskill",
            ".1f",
        )  # fmt: skip
        parts.append(_figure(openskill, "OpenSkill's rating of the same games, for comparison."))
    return '<div class="plots">' + "".join(parts) + "</div>"


def _skills_plot(board: Board) -> str:
    shown = [e for e in board.entrants if e.sides_identified]
    if not shown:
        return (
            "<p>Deception and detection are not measured by this design: "
            f"{escape(board.not_measured)}.</p>"
        )
    svg = svg_plots.scatter_plot(
        [(e.name, _interval(e.deception), _interval(e.detection)) for e in shown],
        "Deception against detection (95% intervals)",
        "deception: skill as the evil side (logits)",
        "detection: skill as the village (logits)",
        "skills",
    )
    return _figure(svg, "Up and right is better; the lines mark the reference.")


# -- pairs -------------------------------------------------------------------------------


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
        "pairs",
    )  # fmt: skip


def _head_to_head(board: Board) -> tuple[list[str], list[list[svg_plots.Interval | None]]]:
    names = [e.name for e in board.entrants]
    cells: list[list[svg_plots.Interval | None]] = []
    for me in names:
        row: list[svg_plots.Interval | None] = []
        for other in names:
            if me == other:
                row.append(None)
                continue
            pair = board.pair(me, other)
            p = pair.a_beats_b
            row.append(_interval(p) if pair.a == me else (1 - p.point, 1 - p.high, 1 - p.low))
        cells.append(row)
    return names, cells


def _head_to_head_table(board: Board) -> str:
    names, cells = _head_to_head(board)

    def shown(value: svg_plots.Interval | None) -> str:
        if value is None:
            return "-"
        point, low, high = value
        return f"{point:.0%}" + (f" [{low:.0%}, {high:.0%}]" if math.isfinite(low) else "")

    rows = [[me, *(shown(v) for v in row)] for me, row in zip(names, cells, strict=True)]
    return _table(["row beats column", *names], rows, "head-to-head")


def _head_to_head_parts(board: Board) -> tuple[str, str]:
    return _head_to_head_table(board), _head_to_head_plot(board)


def _head_to_head_plot(board: Board) -> str:
    names, cells = _head_to_head(board)
    svg = svg_plots.matrix_plot(
        names, cells, "Chance the row beats the column (both sides, 95%)", "head-to-head"
    )
    return _figure(svg, "The model's chance, averaged over both sides, with its interval.")


# -- cost --------------------------------------------------------------------------------


def _cost(board: Board) -> str:
    if not any(e.cost_usd for e in board.entrants):
        return (
            "<p>No entrant spent anything (no model costs), so there is no cost frontier: "
            "every entrant is as cheap as the others.</p>"
        )
    svg = svg_plots.cost_plot(
        [(e.name, e.cost_per_game, _interval(e.elo), e.frontier) for e in board.entrants],
        "Rating against cost (dashed: the frontier)",
        "rating",
        "cost",
    )
    return _figure(svg, "The frontier joins the entrants no other beats on both cost and rating.")


# -- per variant -------------------------------------------------------------------------


def _blocks(board: Board) -> list[str]:
    return sorted({b for e in board.entrants for b in e.by_block} | set(board.side_advantage))


def _block_section(board: Board, block: str) -> str:
    keys = sorted({k for e in board.entrants for k in e.by_block.get(block, {})},
                  key=lambda k: (k not in ("evil", "village"), k))  # fmt: skip
    advantage = board.side_advantage.get(block)
    parts = []
    if advantage is not None:
        parts.append(
            f"<p>Side advantage (how much this variant favours the evil side between equal "
            f"players, logits): {escape(advantage.format())}.</p>"
        )
    if keys:
        rows = [[e.name, *(_rate(e.by_block.get(block, {}).get(k)) for k in keys)]
                for e in board.entrants]  # fmt: skip
        parts.append(_table(["entrant", *keys], rows, f"win-rates {block}"))
        series = [(e.name, [_rate_interval(e.by_block.get(block, {}).get(k)) for k in keys])
                  for e in board.entrants]  # fmt: skip
        svg = svg_plots.bars_plot(
            keys, series, f"{block}: win rate by side and role", "win rate (Wilson 95%)",
            f"roles-{block}",
        )  # fmt: skip
        parts.append(_figure(svg, f"Win rates in {block} only (draws count half)."))
    return f'<h3 id="block-{escape(block)}">{escape(block)}</h3>' + "".join(parts)


def _per_variant(board: Board) -> str:
    blocks = _blocks(board)
    if not blocks:
        return "<p>No game has finished yet.</p>"
    return "".join(_block_section(board, block) for block in blocks)


# -- behaviour and calibration ------------------------------------------------------------


def _behaviour(report: TournamentReport) -> str:
    table = _table(
        ["entrant", *(column.header for column in BEHAVIOUR)],
        [[e.name, *(column.text(e.metrics) for column in BEHAVIOUR)] for e in report.entrants],
        "behaviour",
    )
    notes = "; ".join(f"{column.header}: {column.description}" for column in BEHAVIOUR)
    return table + f"<p>{escape(notes)}.</p>"


def _tells(report: TournamentReport) -> str:
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
    return _section(
        "tells",
        "Tells",
        "<p>An evil seat naming its own role or a teammate in public (per speech of an evil "
        "seat); 8 or more words of the seat's own private text (its team's chat, its "
        "reasoning, its results) verbatim in its public speech (per speech); a checking "
        "seat's public claims about players against its checks.</p>",
        _table(headers, rows, "tells"),
    )


def _ablations(report: TournamentReport) -> str:
    """The forks blocks' paired differences (:mod:`duskfall.report.ablations`)."""
    if not report.ablations:
        return ""
    rows = [
        [d.block, d.measure, f"{d.first} - {d.second}",
         Estimate(d.point, d.low, d.high).format("+.3f"), d.sources, d.verdict]
        for d in report.ablations
    ]  # fmt: skip
    return _section(
        "ablations",
        "Paired ablations",
        "<p>Forks of the same logged games at the same moment, one per entrant in the same "
        "seats; differences of each measure (from the fork on, over the entrant's seats) "
        "paired by source game; 95% intervals resample whole source games.</p>",
        _table(ABLATION_COLUMNS, rows, "ablations"),
    )


def _calibration(report: TournamentReport) -> str:
    calibration = report.calibration
    if not calibration.overall:
        return "<p>No seat stated beliefs (calibration needs the <code>beliefs</code> option).</p>"
    table = _table(
        ["entrant", "beliefs", "Brier", "log loss", "refused"],
        [
            [n, s.n, f"{s.brier or 0:.3f}", f"{s.log_loss or 0:.3f}", calibration.refused.get(n, 0)]
            for n, s in calibration.overall.items()
        ],
        "calibration",
    )
    svg = svg_plots.lines_plot(
        [(n, [(p, e) for p, e, _ in calibration.reliability(n)]) for n in calibration.overall],
        "Belief calibration",
        "stated P(evil)",
        "share actually evil",
        "calibration",
        diagonal=True,
    )
    return table + _figure(svg, "Perfect calibration lies on the diagonal.")


def _holdout(board: Board) -> str:
    if not board.holdout:
        return "<p>Too few deals for held-out prediction (5 folds by deal).</p>"
    return _table(
        ["rating", "log loss", "Brier", "games"],
        [[n, f"{s.log_loss:.3f}", f"{s.brier:.3f}", s.games] for n, s in board.holdout.items()],
        "holdout",
    )


def _stopping(board: Board) -> str:
    s = board.stopping
    if s is None:
        return ""
    looks = ", ".join(f"{look['games']} (|z| {look['boundary']:.2f})" for look in s.plan["looks"])
    outcome = f"stopped: {s.reason}; {s.games_saved} games saved" if s.stopped else s.reason
    return _section(
        "stopping",
        "Stopping rule",
        f"<p>{escape(s.plan['rule'])}; planned looks after {escape(looks)} games; "
        f"{s.looks_taken} taken; {escape(outcome)}.</p>",
    )


def _games(report: TournamentReport, game_href: Callable[[PlayedGame], str] | None) -> str:
    return _table(
        ["game", "slot", "variant", "winner"] + ([] if game_href else ["log"]),
        [
            [_Link(game_href(g), g.game_id), g.slot, g.variant, g.winner_side or "-"]
            if game_href
            else [g.game_id, g.slot, g.variant, g.winner_side or "-", g.log_path or ""]
            for g in report.games
        ],
        "games",
    )


def summary(report: TournamentReport) -> str:
    """The report's opening paragraphs: what was played, and how to read the numbers."""
    board = report.board
    anchor = escape(board.reference or "the field's mean")
    return (
        f'<p class="summary">{report.games_played} of {report.games_scheduled} games '
        f"({escape(report.schedule)} schedule, {board.deals} deals), {report.games_aborted} "
        f"aborted (left out of every number), {board.draws} draws; "
        f"{report.total_tokens:,} tokens, ${report.total_cost_usd:.4f}.</p>"
        f"<p>Skills are log-odds (logits) relative to {anchor}: <em>deception</em> as the evil "
        "side, <em>detection</em> as the village, <em>overall</em> their mean; rating = 1500 + "
        f"174 × overall (400 points = 10:1 odds). Intervals are {board.level:.0%}: the point "
        "plus or minus Student's t (deals - 1) times the standard error over "
        f"{board.bootstrap} resamples of whole deals. A pair is <em>separated</em> when the "
        "interval of its difference excludes 0.</p>"
    )


def report_body(
    report: TournamentReport, game_href: Callable[[PlayedGame], str] | None = None
) -> str:
    """The report (everything inside the page's main element). With ``game_href`` every
    game links to that address (the web page's game view); else its log is named."""
    board = report.board
    return "".join(
        [
            summary(report),
            _stopping(board),
            _section("board", "Board", _board_table(board), _ratings_plots(board)),
            _section("skills", "Deception against detection", _skills_plot(board)),
            _section("pairs", "Pairs", _pairs_table(board)),
            _section("head-to-head", "Head to head", *_head_to_head_parts(board)),
            _section("holdout", "Held-out prediction", _holdout(board)),
            _section("cost", "Rating against cost", _cost(board)),
            _section("variants", "Results by variant", _per_variant(board)),
            _section("behaviour", "Behaviour", _behaviour(report)),
            _tells(report),
            _ablations(report),
            _section("calibration", "Belief calibration", _calibration(report)),
            _section("games", "Games", _games(report, game_href)),
        ]
    )


def html_report(
    report: TournamentReport, game_href: Callable[[PlayedGame], str] | None = None
) -> str:
    """The whole report as one HTML document (its stylesheet inside; no script and no
    external resource)."""
    title = escape(f"Tournament {report.name}")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{stylesheet()}
</style></head><body class="report">
<main><h1>{title}</h1>
{report_body(report, game_href)}
</main></body></html>
"""
