"""The terminal report of a tournament: narrow rich tables that fit 80 columns without cutting
a word (entrant names and agents are shown once, in their own table; every other table keys
on the name alone). Every number comes from the report's board."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from duskfall.core.terminal import PlainTable
from duskfall.rating.fit import Estimate
from duskfall.report.board import Board
from duskfall.report.columns import tables
from duskfall.report.leaderboard import TournamentReport

MATRIX_MAX = 5  # head-to-head as a matrix up to this many entrants (80 columns)


def report_table(title: str, *columns: str, caption: str | None = None) -> Table:
    """A table of the report: entrant names and agents are the config's words, not markup."""
    table = PlainTable(title=title, caption=caption, title_justify="left", caption_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    return table


def _percent(e: Estimate) -> str:
    """A chance in percent, compactly: ``63 [44-79]`` (``-``: not measured)."""
    if not e.measured:
        return "-"
    if not e.known:
        return f"{e.point:.0%}".rstrip("%")
    return f"{100 * e.point:.0f} [{100 * e.low:.0f}-{100 * e.high:.0f}]"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _header(report: TournamentReport) -> Text:
    board = report.board
    lines = [
        f"{report.name}: {report.games_played}/{report.games_scheduled} games "
        f"({report.schedule}, {board.deals} deals, {report.games_aborted} aborted, "
        f"{board.draws} draws); {report.total_tokens:,} tokens, ${report.total_cost_usd:.4f}",
        f"Skills are log-odds (logits) relative to {board.reference or 'the field mean'}; "
        f"rating = 1500 + 174 x overall (Elo-like: 400 = 10:1 odds). Intervals: "
        f"{board.level:.0%}, {board.bootstrap} deal resamples.",
    ]
    if board.stopping is not None:
        s = board.stopping
        lines.append(
            f"Stopping rule (separated): {s.looks_taken} look(s) taken; "
            + (
                f"stopped: {s.reason}; {s.games_saved} of {s.plan['cap']} games saved."
                if s.stopped
                else f"{s.reason}."
            )
        )
    return Text("\n".join(lines))


def _not_measured(board: Board) -> str | None:
    return f"not measured by this design: {board.not_measured}" if board.not_measured else None


def _board(board: Board) -> Table:
    table = report_table(
        "board",
        "#", "tier", "entrant", "rating [95%]", "overall", "OpenSkill [95%]", "games",
        caption=_not_measured(board)
        or "tier: entrants no pair of which is separated (ranks within a tier are not told "
        "apart)",
    )  # fmt: skip
    for rank, e in enumerate(board.entrants, 1):
        os = e.openskill
        table.add_row(
            str(rank) if e.tier is not None else "-",
            "-" if e.tier is None else str(e.tier),
            e.name,
            e.elo.format(".0f"),
            f"{e.overall.point:+.2f}" if e.overall.measured else "-",
            "-" if os is None else Estimate(os.mu, os.low, os.high).format(".1f"),
            str(e.games),
        )
    return table


def _skills(board: Board) -> Table:
    unmeasured = not all(e.sides_identified for e in board.entrants)
    table = report_table(
        "deception (as evil) and detection (as village), logits",
        "entrant", "deception [95%]", "detection [95%]", "won as evil / village",
        caption=_not_measured(board) if unmeasured else None,
    )  # fmt: skip
    for e in board.entrants:
        rates = [e.win_rates.get(side) for side in ("evil", "village")]
        won = " / ".join(f"{r.wins / r.games:.0%}" if r and r.games else "-" for r in rates)
        table.add_row(e.name, e.deception.format(), e.detection.format(), won)
    return table


def _pairs(board: Board) -> Table:
    table = report_table(
        "pairs: difference of overall skill (rating points)",
        "pair", "difference [95%]", "P(first wins)", "verdict",
        caption="P(first wins): the model's chance over both sides; separated: the interval "
        "excludes 0" + (f"; {_not_measured(board)}" if board.not_measured else ""),
    )  # fmt: skip
    for p in board.pairs:
        verdict = p.verdict if p.separated_at is None else f"{p.verdict} (look {p.separated_at})"
        table.add_row(f"{p.a} > {p.b}", p.elo.format("+.0f"), p.a_beats_b.format(".0%"), verdict)
    return table


def _matrix(board: Board) -> Table | None:
    names = [e.name for e in board.entrants]
    if len(names) > MATRIX_MAX:
        return None
    table = report_table(
        "head to head: % chance row beats column [95%]; wins/games where they met", "", *names
    )
    for me in names:
        cells = []
        for other in names:
            if other == me:
                cells.append("")
                continue
            p = board.pair(me, other)
            chance = p.a_beats_b if p.a == me else _flipped(p.a_beats_b)
            wins, games = p.record if p.a == me else (p.record[1] - p.record[0], p.record[1])
            record = f"\n{wins:g}/{games}" if games else ""
            cells.append(_percent(chance) + record)
        table.add_row(me, *cells)
    return table


def _flipped(e: Estimate) -> Estimate:
    return Estimate(1 - e.point, 1 - e.high, 1 - e.low, e.se, e.reason)


def _holdout(board: Board) -> Table | None:
    if not board.holdout:
        return None
    table = report_table(
        "held-out prediction (5 folds by deal; lower is better)",
        "rating", "log loss", "Brier", "games",
        caption="a coin scores 0.693 and 0.250",
    )  # fmt: skip
    for name, score in board.holdout.items():
        table.add_row(name, f"{score.log_loss:.3f}", f"{score.brier:.3f}", str(score.games))
    return table


def _sides(board: Board) -> Table:
    table = report_table("side advantage (evil, logits, between equal players)", "block", "[95%]")
    for block, e in board.side_advantage.items():
        table.add_row(block, e.format())
    return table


def _agents(report: TournamentReport) -> Table:
    table = report_table("entrants", "entrant", "agent", "cost/game", "frontier")
    for e in report.board.entrants:
        table.add_row(e.name, e.agent, f"${e.cost_per_game:.4f}", "yes" if e.frontier else "")
    return table


def _behaviour(report: TournamentReport) -> list[Table]:
    """One table per group of the column registry (narrow enough for 80 columns)."""
    out = []
    for title, columns in tables():
        table = report_table(title, "entrant", *(column.header for column in columns))
        for e in report.entrants:
            table.add_row(e.name, *(column.text(e.metrics) for column in columns))
        out.append(table)
    return out


def _tells(report: TournamentReport) -> Table | None:
    """What seats gave away in public (:mod:`duskfall.lab.leaks`), if any seat spoke."""
    if not any(e.leaks.speeches for e in report.entrants):
        return None
    table = report_table(
        "tells: what seats gave away in public",
        "entrant", "speeches", "exposed", "leaked", "seer true",
        caption="exposed: an evil seat naming its role or a teammate, per evil speech; leaked: "
        "its own chat, reasoning or results verbatim, per speech; seer true: checked claims",
    )  # fmt: skip
    for e in report.entrants:
        leaks = e.leaks
        seer = leaks.seer_accuracy
        table.add_row(
            e.name,
            str(leaks.speeches),
            _rate(leaks.exposure_rate),
            _rate(leaks.leak_rate),
            "-" if seer is None else f"{seer:.0%} of {leaks.true_claims + leaks.false_claims}",
        )
    return table


def _ablations(report: TournamentReport) -> list[Table]:
    """The forks blocks' paired differences (:mod:`duskfall.report.ablations`), a table a block."""
    tables: dict[str, Table] = {}
    for d in report.ablations:
        table = tables.get(d.block)
        if table is None:
            table = tables[d.block] = report_table(
                f"paired ablation {d.block}: one fork per entrant",
                "measure", "pair", "difference [95%]", "games", "verdict",
                caption="paired by source game; intervals resample whole source games",
            )  # fmt: skip
            table.columns[2].no_wrap = True
        shown = Estimate(d.point, d.low, d.high).format("+.2f")
        table.add_row(d.measure, f"{d.first} - {d.second}", shown, str(d.sources), d.verdict)
    return list(tables.values())


def leaderboard_table(report: TournamentReport) -> list[Table | Text]:
    """Everything the terminal shows, in order."""
    board = report.board
    out: list[Table | Text] = [_header(report), _board(board), _skills(board), _pairs(board)]
    for optional in (_matrix(board), _holdout(board)):
        if optional is not None:
            out.append(optional)
    out += [_sides(board), _agents(report), *_behaviour(report)]
    tells = _tells(report)
    out += [*([] if tells is None else [tells]), *_ablations(report)]
    if report.calibration.overall:
        calibration = report_table(
            "belief calibration (P(evil) of other players)", "entrant", "beliefs", "Brier",
            "log loss",
        )  # fmt: skip
        for name, score in report.calibration.overall.items():
            calibration.add_row(
                name, str(score.n), f"{score.brier or 0:.3f}", f"{score.log_loss or 0:.3f}"
            )
        out.append(calibration)
    return out
