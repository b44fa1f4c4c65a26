"""The terminal report of a tournament: narrow rich tables that fit 80 columns without cutting
a word (entrant names and agents are shown once, in their own table; every other table keys
on the name alone). Every number comes from the report's board."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from duskfall.arena.board import Board
from duskfall.arena.leaderboard import TournamentReport
from duskfall.arena.plan import Plan
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.cli.console import PlainTable
from duskfall.rating.fit import Estimate

MATRIX_MAX = 5  # head-to-head as a matrix up to this many entrants (80 columns)


def _table(title: str, *columns: str, caption: str | None = None) -> Table:
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
    table = _table(
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
    table = _table(
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
    table = _table(
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
    table = _table(
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
    table = _table(
        "held-out prediction (5 folds by deal; lower is better)",
        "rating", "log loss", "Brier", "games",
        caption="a coin scores 0.693 and 0.250",
    )  # fmt: skip
    for name, score in board.holdout.items():
        table.add_row(name, f"{score.log_loss:.3f}", f"{score.brier:.3f}", str(score.games))
    return table


def _sides(board: Board) -> Table:
    table = _table("side advantage (evil, logits, between equal players)", "block", "[95%]")
    for block, e in board.side_advantage.items():
        table.add_row(block, e.format())
    return table


def _agents(report: TournamentReport) -> Table:
    table = _table("entrants", "entrant", "agent", "cost/game", "frontier")
    for e in report.board.entrants:
        table.add_row(e.name, e.agent, f"${e.cost_per_game:.4f}", "yes" if e.frontier else "")
    return table


def _behaviour(report: TournamentReport) -> list[Table]:
    votes = _table(
        "behaviour (all seats): votes and claims",
        "entrant", "vote acc.", "votes on evil", "survival", "power kills", "bussing",
        "claims true",
    )  # fmt: skip
    spend = _table(
        "behaviour: answers and spending",
        "entrant", "legal 1st", "fallbacks", "tokens (cached)", "cost", "latency",
    )  # fmt: skip
    for e in report.entrants:
        m = e.metrics
        on_evil = m.votes_received_when_evil
        latency = m.mean_latency_s
        votes.add_row(
            e.name,
            _rate(m.vote_accuracy),
            "-" if on_evil is None else f"{on_evil:.2f}",
            _rate(m.survival),
            _rate(m.power_role_kill_rate),
            _rate(m.teammate_vote_rate),
            _rate(m.claim_truthfulness),
        )
        spend.add_row(
            e.name,
            _rate(m.legal_first_try),
            str(m.fallbacks),
            f"{m.prompt_tokens + m.completion_tokens:,} ({m.cached_tokens:,})",
            f"${m.cost_usd:.4f}",
            "-" if latency is None else f"{latency:.2f}s",
        )
    return [votes, spend]


def _tells(report: TournamentReport) -> Table | None:
    """What seats gave away in public (:mod:`duskfall.lab.leaks`), if any seat spoke."""
    if not any(e.leaks.speeches for e in report.entrants):
        return None
    table = _table(
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
    """The forks blocks' paired differences (:mod:`duskfall.arena.forks`), a table a block."""
    tables: dict[str, Table] = {}
    for d in report.ablations:
        table = tables.get(d.block)
        if table is None:
            table = tables[d.block] = _table(
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
        calibration = _table(
            "belief calibration (P(evil) of other players)", "entrant", "beliefs", "Brier",
            "log loss",
        )  # fmt: skip
        for name, score in report.calibration.overall.items():
            calibration.add_row(
                name, str(score.n), f"{score.brier or 0:.3f}", f"{score.log_loss or 0:.3f}"
            )
        out.append(calibration)
    return out


def plan_table(plan: Plan, config: TournamentConfig) -> list[Table | Text]:
    """The plan: games per schedule, and what the pilot measured."""
    sides = ", ".join(f"{b}: evil wins {p:.0%}" for b, p in plan.evil_win.items())
    head = Text(
        f"{plan.name}: {len(config.entrants)} entrants; to separate a gap of "
        f"{plan.gap_elo:g} rating points ({plan.gap:.2f} logits) at 95% with 80% power.\n"
        f"Outcome variance from {plan.source} ({sides})."
        + (
            f" The model's variance is scaled by {plan.inflation:.2f}, the pilot's measured "
            "over the model's."
            if plan.inflation > 1
            else ""
        )
    )
    table = _table(
        "games needed (every pair, equal entrants but for the gap)",
        "schedule", "games", "deals", "per entrant",
        caption=f"now: schedule {config.schedule}, {config.total_games} games",
    )  # fmt: skip
    reasons = []
    for need in plan.schedules:
        if need.games is None:
            table.add_row(need.schedule, "not measured", "-", "-")
            reasons.append(f"{need.schedule}: not measured by this design: {need.reason}")
            continue
        seats_per_game = 2 if need.schedule != "mixed" else len(config.entrants)
        share = min(1.0, seats_per_game / len(config.entrants))
        table.add_row(need.schedule, str(need.games), str(need.deals), f"{need.games * share:.0f}")
    warnings = [Text(f"warning: {line}", style="yellow") for line in plan.warnings]
    out: list[Table | Text] = [*warnings, head, table, *(Text(r) for r in reasons)]
    if plan.pilot is not None:
        out.append(Text(_pilot_text(plan, config)))
    return out


def _pilot_text(plan: Plan, config: TournamentConfig) -> str:
    """What the pilot measured, and how it squares with the table (which assumes equal
    entrants and the model's variance; the pilot's figure is its hardest pair's measured se)."""
    p = plan.pilot
    assert p is not None
    cut = p.pairing_reduction
    pairing = (
        f"pairing games within deals cut that variance by {cut:.0%}"
        if cut > 0
        else f"pairing games within deals did not cut the variance here ({-cut:.0%} more)"
    )
    table = next((need.games for need in plan.schedules if need.schedule == p.schedule), None)
    compared = (
        f", {p.needed / table:.1f} times the table's {table:,} for {p.schedule!r} (the table "
        "assumes entrants equal but for the gap and the model's variance; the pilot scales its "
        "hardest pair's measured se)"
        if table
        else ""
    )
    return (
        f"Pilot ({p.schedule}, {p.games} games, {p.deals} deals): the hardest pair's difference "
        f"has se {p.se:.3f} logits resampling deals and {p.se_games:.3f} resampling games one "
        f"by one, so {pairing}; the model says {p.model_se:.3f}. From the measured se: "
        f"{p.needed:,} games{compared}."
    )
