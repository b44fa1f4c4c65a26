"""docs/contributing.md matches the code where a test can tell: the layers name every
package, the variant file table is the files every built-in variant has, the walkthrough for a
new Werewolf role names the files the Idiot took, the one for a decision role the files the
Bodyguard took, and the one for a rating model the files a model takes (and a model added so
shows in every report format)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

import duskfall

SRC = Path(duskfall.__file__).parent
DOC = (SRC.parent.parent / "docs" / "contributing.md").read_text(encoding="utf-8")
BUILT_IN = ("werewolf", "mafia", "sports_mafia")


def section(title: str) -> str:
    """The text under the heading ``title``, up to the next heading of its level or above."""
    heading = re.search(rf"^(#+) {re.escape(title)}$", DOC, re.M)
    assert heading, f"no section {title!r} in docs/contributing.md"
    rest = DOC[heading.end() :]
    end = re.search(rf"^#{{1,{len(heading.group(1))}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def test_the_layers_name_every_package() -> None:
    layers = section("Layers")
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    missing = {name for name in packages if not re.search(rf"\b{name}\b", layers)}
    assert not missing, f"packages the Layers section does not name: {sorted(missing)}"
    listed = set(re.findall(r"^src/duskfall/(\w+)/", layers, re.M))
    assert listed <= packages, f"the Layers section lists gone packages: {listed - packages}"


def test_the_variant_file_table_is_what_every_built_in_variant_has() -> None:
    table = set(re.findall(r"^\| `(\w+\.py)` \|", section("A variant's files"), re.M))
    common = set.intersection(
        *({p.name for p in (SRC / "variants" / v).glob("*.py")} for v in BUILT_IN)
    )
    assert table == common, (
        f"in the table, not in every variant: {sorted(table - common)}; "
        f"in every variant, not in the table: {sorted(common - table)}"
    )


def test_the_role_walkthrough_names_the_files_a_role_took() -> None:
    walkthrough = section("Adding a Werewolf role")
    named = set(re.findall(r"`(variants/werewolf/\w+\.py)`", walkthrough))
    assert all((SRC / path).exists() for path in named)
    steps = re.findall(r"^\d\. `(variants/werewolf/\w+\.py)`", walkthrough, re.M)
    assert len(steps) <= 4
    naming_the_idiot = {
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if "idiot" in path.read_text(encoding="utf-8").lower()
    }
    assert naming_the_idiot <= set(steps)


def test_the_rating_model_walkthrough_names_the_files_a_model_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The steps name the protocol's module and at most three files; a model added to
    ``MODELS`` (and nowhere else) shows its held-out score in every format."""
    walkthrough = section("Adding a rating model")
    steps = re.findall(r"^\d\. `((?:rating|tests/rating)/\w+\.py)`", walkthrough, re.M)
    assert 2 <= len(steps) <= 4
    assert "rating/models.py" in steps
    named = set(re.findall(r"`((?:rating|report)/\w+\.py)`", walkthrough))
    new = {path for path in steps if path.startswith("rating/") and path != "rating/models.py"}
    assert all((SRC / path).exists() for path in named - new)
    assert (SRC.parent.parent / "tests/rating/test_bradley_terry.py").exists()

    from duskfall.rating import holdout
    from duskfall.rating.bradley_terry import RatedGame, RatedSeat
    from duskfall.rating.models import MODELS
    from duskfall.report.board import build_board
    from duskfall.report.calibration import Calibration
    from duskfall.report.html_report import html_report
    from duskfall.report.leaderboard import EntrantResult, TournamentReport
    from duskfall.report.terminal import leaderboard_table
    from rating.rating_kit import CoinFlip

    monkeypatch.setattr(holdout, "MODELS", (*MODELS, CoinFlip()))
    seats = (RatedSeat("a", "wolf", "evil"), RatedSeat("b", "villager", "village"))
    swapped = (RatedSeat("b", "wolf", "evil"), RatedSeat("a", "villager", "village"))
    games = [RatedGame("x", d, seats if d % 2 else swapped, float(d % 3 == 0)) for d in range(10)]
    board = build_board(games, {"a": "random", "b": "heuristic"}, bootstrap=5)
    assert board.to_dict()["holdout"]["coin-flip"]["brier"] == 0.25
    report = TournamentReport(
        "t", "sides", 10, 10, 0, board, [EntrantResult("a", "random"), EntrantResult("b", "x")],
        [], Calibration(),
    )  # fmt: skip
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    for part in leaderboard_table(report):
        console.print(part, soft_wrap=False)
    assert "coin-flip" in buffer.getvalue()
    assert '<th scope="row">coin-flip</th>' in html_report(report)


def test_the_decision_role_walkthrough_names_the_files_the_bodyguard_took() -> None:
    walkthrough = section("Adding a decision role")
    steps = re.findall(r"^\d\. `(variants/werewolf/\w+\.py)`", walkthrough, re.M)
    assert len(steps) <= 4 and all((SRC / path).exists() for path in steps)
    naming_the_bodyguard = {
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if "bodyguard" in path.read_text(encoding="utf-8").lower()
    }
    assert naming_the_bodyguard == set(steps)
    cells = re.findall(r"^\| (`.+?) \|", walkthrough, re.M)  # the table's first column
    fields = {name for cell in cells for name in re.findall(r"`(\w+)", cell)}
    from duskfall.variants.werewolf.role_unit import NightChoice

    assert fields == set(NightChoice.__dataclass_fields__)  # every field, told what it drives


def test_the_night_turn_walkthrough_tells_what_every_field_drives() -> None:
    cells = re.findall(r"^\| (`.+?) \|", section("Adding a night decision of its own shape"), re.M)
    fields = {name for cell in cells for name in re.findall(r"`(\w+)", cell)}
    from duskfall.variants.werewolf.role_unit import NightTurn

    assert fields == set(NightTurn.__dataclass_fields__)


def test_no_kit_or_inspect_module_names_a_variant() -> None:
    for folder in ("kit", "inspect"):
        for path in (SRC / folder).glob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r'"(werewolf|mafia|sports-mafia)"', text), path
