"""Only what the games determine: a quantity the design does not measure is never printed as a
number or a verdict, in any format (terminal, JSON, CSV, HTML); tiers; the default design."""

from __future__ import annotations

import io
import json
import math
import random
import re
from collections import Counter

import pytest
from rich.console import Console

from duskfall.arena.plan import design_gaps, model_variance
from duskfall.arena.rated import block_labels, rated_game
from duskfall.arena.schedule import build_schedule
from duskfall.arena.tournament_config import parse_tournament
from duskfall.core.errors import ConfigError
from duskfall.rating.bradley_terry import Design, RatedGame, RatedSeat
from duskfall.rating.identified import ONLY_EACH_OTHER, SAME_SHARES, Identification
from duskfall.report.board import NOT_MEASURED_VERDICT, SEPARATED, Board, build_board
from duskfall.report.calibration import Calibration
from duskfall.report.html_report import html_report
from duskfall.report.leaderboard import EntrantResult, TournamentReport
from duskfall.report.terminal import leaderboard_table

WOLVES, VILLAGERS = 2, 7


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def equal_shares(games: int, seed: int) -> list[RatedGame]:
    """Today's ``mixed``: three entrants, three seats each at every 9-seat table (2 wolves), the
    wolves' seats rotated; outcomes from planted skills."""
    rng = random.Random(seed)
    names = ["a", "b", "c"]
    skill = {"a": 0.8, "b": 0.0, "c": -0.8}
    out = []
    for deal in range(games):
        seats = [n for n in names for _ in range(3)]
        rng.shuffle(seats)
        evil, village = seats[:WOLVES], seats[WOLVES:]
        logit = 0.3 + sum(skill[e] for e in evil) / WOLVES - sum(skill[v] for v in village) / 7
        result = float(rng.random() < _sigmoid(logit))
        out.append(
            RatedGame(
                "ww",
                deal,
                tuple(RatedSeat(e, "Werewolf", "evil") for e in evil)
                + tuple(RatedSeat(v, "Villager", "village") for v in village),
                result,
            )
        )
    return out


def only_each_other(deals: int, seed: int) -> list[RatedGame]:
    """Two entrants, each deal played twice with the sides swapped (``sides``)."""
    rng = random.Random(seed)
    out = []
    for deal in range(deals):
        for evil, village in (("a", "b"), ("b", "a")):
            seats = (RatedSeat(evil, "Werewolf", "evil"),) * WOLVES + (
                RatedSeat(village, "Villager", "village"),
            ) * VILLAGERS
            out.append(RatedGame("ww", deal, seats, float(rng.random() < 0.5)))
    return out


def planted(skills: dict[str, float], deals: int, seed: int) -> list[RatedGame]:
    """``duplicate`` deals with these overall skills (the same on both sides)."""
    rng = random.Random(seed)
    names = list(skills)
    k = len(names)
    out = []
    for deal in range(deals):
        offset = 1 + deal % (k - 1)
        for j in range(k):
            evil, village = names[j], names[(j + offset) % k]
            p = _sigmoid(0.2 + skills[evil] - skills[village])
            seats = (RatedSeat(evil, "Werewolf", "evil"),) * WOLVES + (
                RatedSeat(village, "Villager", "village"),
            ) * VILLAGERS
            out.append(RatedGame("ww", deal, seats, float(rng.random() < p)))
    return out


def report_of(board: Board) -> TournamentReport:
    return TournamentReport(
        name="t", schedule="mixed", games_scheduled=board.games, games_played=board.games,
        games_aborted=0, board=board, entrants=[EntrantResult(e.name, e.agent)
        for e in board.entrants], games=[], calibration=Calibration(),
    )  # fmt: skip


def terminal(report: TournamentReport) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    for part in leaderboard_table(report):
        console.print(part, soft_wrap=False)
    return buffer.getvalue()


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"[+-]?\d+\.\d\d", text))


def test_todays_mixed_prints_no_overall_skill_no_pair_and_no_verdict() -> None:
    games = equal_shares(600, seed=3)
    board = build_board(games, {"a": "x", "b": "y", "c": "z"}, bootstrap=30, holdout=False)
    assert board.not_measured == SAME_SHARES
    for e in board.entrants:
        for estimate in (e.overall, e.elo, e.deception, e.detection):
            assert not estimate.measured and math.isnan(estimate.point)
        assert e.tier is None and not e.frontier
    for p in board.pairs:
        assert p.verdict == NOT_MEASURED_VERDICT and p.verdict != SEPARATED
        assert not p.overall.measured and not p.elo.measured and not p.a_beats_b.measured
    assert board.tiers() == []
    data = json.loads(json.dumps(board.to_dict()))
    for e in data["entrants"]:
        for kind in ("overall", "elo", "deception", "detection"):
            assert e[kind]["point"] is None and e[kind]["low"] is None
            assert e[kind]["not_measured"] == SAME_SHARES
        assert e["tier"] is None
    assert {p["verdict"] for p in data["pairs"]} == {NOT_MEASURED_VERDICT}
    report = report_of(board)
    text = terminal(report)
    assert "not measured" in text and "nan" not in text
    rows = [line for line in text.splitlines() if re.search(r"\b[abc]\b", line)]
    pair_rows = [row for row in rows if " > " in row]
    assert len(pair_rows) == 3
    assert not any(word in row for row in pair_rows for word in ("separated", "not yet"))
    board_rows = rows[: len(board.entrants)]  # rank, tier, rating, overall: no number
    for row in board_rows:
        rank, tier, _, rating, overall = (c.strip() for c in row.split("│")[1:6])
        assert (rank, tier, rating, overall) == ("-", "-", "not measured", "-")
    assert all("1500" not in row for row in rows)
    entrants_csv = report.csv().splitlines()
    header = entrants_csv[0].split(",")
    for line in entrants_csv[1:]:
        cells = dict(zip(header, line.split(","), strict=False))
        assert all(cells[k] == "" for k in ("overall", "elo", "overall_low", "tier"))
    assert NOT_MEASURED_VERDICT in report.pairs_csv()
    html = html_report(report)
    assert "Not measured by this design" in html and "nan" not in html.lower().split("<style>")[0]


def test_two_entrants_that_only_meet_each_other_measure_only_the_sum() -> None:
    board = build_board(only_each_other(60, 1), {"a": "x", "b": "y"}, bootstrap=30, holdout=False)
    assert board.not_measured == ONLY_EACH_OTHER
    for e in board.entrants:
        assert e.overall.measured and not e.deception.measured and not e.detection.measured
        assert e.deception.format() == "not measured"
    (pair,) = board.pairs
    assert pair.overall.measured and pair.verdict != NOT_MEASURED_VERDICT
    assert not pair.deception.measured and not pair.detection.measured
    text = terminal(report_of(board))
    assert text.count("not measured") >= 2
    assert max(len(line) for line in text.splitlines()) <= 80


def test_the_new_mixed_varies_seat_shares_so_every_skill_is_measured() -> None:
    config = parse_tournament(
        {"name": "m", "entrants": {"a": "heuristic", "b": "random", "c": "heuristic"},
         "variants": [{"variant": "werewolf", "preset": "werewolf-9"}], "games": 30,
         "schedule": "mixed"}
    )  # fmt: skip
    slots = build_schedule(config)
    assert len({tuple(sorted(Counter(s.seats).values())) for s in slots}) > 3
    games = [g for s in slots if (g := rated_game(s, block_labels(config), None, "draw"))]
    design = Design(games, list(config.entrants))
    identification = Identification(design)
    for name in config.entrants:
        for kind in ("deception", "detection"):
            assert identification.contrast(design.skill_contrast(kind, name, None))
    assert design_gaps(config) == []
    old = Design(equal_shares(60, 0), ["a", "b", "c"])
    assert not Identification(old).contrast(old.skill_contrast("deception", "a", None))


def test_the_default_schedule_is_duplicate_and_two_entrants_are_warned_about() -> None:
    data = {
        "name": "d", "entrants": {"a": "heuristic", "b": "random"},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}], "games": 4,
    }  # fmt: skip
    config = parse_tournament(data)
    assert config.schedule == "duplicate"
    (gap,) = design_gaps(config)
    assert "deception from detection" in gap and "only meet each other" in gap
    with pytest.raises(ConfigError, match="multiple of 2"):
        parse_tournament({**data, "games": 5})


def test_tiers_group_the_entrants_no_pair_of_which_is_separated() -> None:
    skills = {"top": 1.5, "top2": 1.5, "mid": 0.0, "low": -1.5, "low2": -1.5}
    board = build_board(planted(skills, 300, 5), dict.fromkeys(skills, "x"), bootstrap=40,
                        holdout=False)  # fmt: skip
    assert [sorted(t) for t in board.tiers()] == [["top", "top2"], ["mid"], ["low", "low2"]]
    for tier in board.tiers():
        for a in tier:
            for b in tier:
                if a != b:
                    assert board.pair(a, b).verdict != SEPARATED
    data = board.to_dict()
    assert data["tiers"] == board.tiers()
    report = report_of(board)
    text = terminal(report)
    assert max(len(line) for line in text.splitlines()) <= 80 and "tier" in text
    header = report.csv().splitlines()[0].split(",")
    assert "tier" in header
    assert "tier 2: mid" in html_report(report)


def test_the_planner_gives_no_number_of_games_for_a_design_that_cannot_measure() -> None:
    assert math.isinf(model_variance(equal_shares(60, 0), ["a", "b", "c"], {"ww": 0.3}))
    assert math.isfinite(model_variance(only_each_other(30, 0), ["a", "b"], {"ww": 0.3}))
