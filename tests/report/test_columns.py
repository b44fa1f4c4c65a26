"""One registry of behaviour columns: every format (JSON, CSV, terminal, HTML, the inspect_ai
scorer) shows exactly the registry's columns, and no format keeps a list of its own."""

from __future__ import annotations

import csv
import io
import re
from html import escape
from pathlib import Path

from rich.console import Console
from rich.table import Table

import duskfall
from duskfall.rating.bradley_terry import RatedGame, RatedSeat
from duskfall.report.board import build_board
from duskfall.report.calibration import Calibration
from duskfall.report.columns import BEHAVIOUR, tables
from duskfall.report.html_report import html_report
from duskfall.report.leaderboard import EntrantResult, TournamentReport
from duskfall.report.metrics import SeatMetrics
from duskfall.report.terminal import leaderboard_table
from duskfall.testing.require import require

SRC = Path(duskfall.__file__).parent
FORMATS = ("report/html_report.py", "report/terminal.py", "report/leaderboard.py",
           "inspect/scorers.py", "inspect/game.py", "web/tournaments.py")  # fmt: skip


def metrics() -> SeatMetrics:
    return SeatMetrics(
        seats=3, wins=2, survived=1, exile_votes=4, accurate_votes=3, votes_received_as_evil=2,
        evil_days=2, teammate_votes=1, night_kills=2, power_role_kills=1, claims=2,
        true_claims=1, decisions=10, refused_first=1, fallbacks=1, llm_calls=12,
        prompt_tokens=12345, cached_tokens=2345, completion_tokens=678, cost_usd=0.0123456789,
        latency_s=6.0,
    )  # fmt: skip


def sample_report() -> TournamentReport:
    seats = (RatedSeat("alpha", "wolf", "evil"), RatedSeat("beta", "villager", "village"))
    swapped = (RatedSeat("beta", "wolf", "evil"), RatedSeat("alpha", "villager", "village"))
    games = [RatedGame("b", d, seats if d % 2 else swapped, float(d % 3 == 0)) for d in range(8)]
    board = build_board(games, {"alpha": "random", "beta": "heuristic"}, bootstrap=5)
    entrants = [EntrantResult(e.name, e.agent, metrics()) for e in board.entrants]
    return TournamentReport("t", "sides", 8, 8, 0, board, entrants, [], Calibration())


def test_every_column_is_a_metric_and_the_json_is_the_registry() -> None:
    summary = metrics().summary()
    assert list(summary) == [column.key for column in BEHAVIOUR]
    assert len({column.key for column in BEHAVIOUR}) == len(BEHAVIOUR)
    assert len({column.header for column in BEHAVIOUR}) == len(BEHAVIOUR)
    assert summary["cost_usd"] == 0.012346  # rounded as its column declares
    assert summary["vote_accuracy"] == 0.75
    assert SeatMetrics().summary()["vote_accuracy"] is None
    for column in BEHAVIOUR:
        assert column.description and column.header
        assert column.text(SeatMetrics(seats=0)) in ("-", "0", "$0.0000")


def test_the_csv_has_a_column_per_registry_entry() -> None:
    rows = list(csv.reader(io.StringIO(sample_report().csv())))
    keys = [column.key for column in BEHAVIOUR]
    assert rows[0][-len(keys) :] == keys
    assert rows[1][-len(keys) :] == [str(v) for v in metrics().summary().values()]


def test_the_terminal_shows_each_registry_table_and_nothing_else() -> None:
    shown = {
        str(part.title): [str(c.header) for c in part.columns]
        for part in leaderboard_table(sample_report())
        if isinstance(part, Table) and str(part.title).startswith("behaviour")
    }
    assert shown == {
        title: ["entrant", *(c.header for c in columns)] for title, columns in tables()
    }
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    for part in leaderboard_table(sample_report()):
        console.print(part, soft_wrap=False)
    text = buffer.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "12,345" in text and "$0.0123" in text and "0.50s" in text


def test_the_html_behaviour_table_is_the_registry() -> None:
    html = html_report(sample_report())
    table = re.search(r'<table class="report-table" data-table="behaviour">(.*?)</table>', html)
    assert table is not None
    headers = re.findall(r'<th scope="col">(.*?)</th>', table.group(1))
    assert headers == ["entrant", *(column.header for column in BEHAVIOUR)]
    for column in BEHAVIOUR:
        assert escape(column.description) in html


def test_the_inspect_scorer_reports_the_scored_columns() -> None:
    require("inspect_ai")
    from duskfall.inspect.scorers import BEHAVIOUR as SCORED

    assert tuple(column.key for column in BEHAVIOUR if column.scored) == SCORED
    assert "vote_accuracy" in SCORED and "seats" not in SCORED


def test_no_format_keeps_a_list_of_metric_columns() -> None:
    """A metric's key (in quotes) or its header appears in the registry alone."""
    for path in FORMATS:
        text = (SRC / path).read_text(encoding="utf-8")
        for column in BEHAVIOUR:
            for word in (column.key, column.header):
                if word in ("seats", "fallbacks", "survival", "cost", "calls", "latency"):
                    continue  # plain words other tables use for their own numbers
                assert f'"{word}"' not in text, f"{path} names the column {word!r}"
