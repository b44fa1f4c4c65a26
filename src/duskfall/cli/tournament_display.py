"""The terminal form of a tournament's plan (``duskfall tournament plan``): games needed per
schedule and what the pilot measured, in the report's tables (:mod:`duskfall.report.terminal`)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from duskfall.arena.plan import Plan
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.report.terminal import report_table


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
    table = report_table(
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
