"""The tables of docs/protocol.md, werewolf.md and mafia.md are the ones the schemas generate."""

from __future__ import annotations

from pathlib import Path

import pytest

from duskfall.core.registry import get_variant
from duskfall.testing import wire_tables

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = {"sports-mafia": "protocol.md", "werewolf": "werewolf.md", "mafia": "mafia.md"}
KINDS = {  # every decision kind the variant declares (its check-bot rows but the rare cases)
    variant: {row for row in get_variant(variant).info.kit.rows if "(" not in row}
    for variant in PAGES
}


@pytest.mark.parametrize("variant", sorted(KINDS))
def test_the_docs_hold_the_generated_tables(variant: str) -> None:
    page = DOCS / PAGES[variant]
    assert wire_tables.main(["check", str(page)]) == 0, "run the write command it printed"
    text = page.read_text(encoding="utf-8")
    for name in ("wire", "event", "observation"):
        assert f"<!-- {name}-table {variant} -->" in text
    table = wire_tables.read_table(text, variant)
    assert set(table) == KINDS[variant]
    for kind, rows in table.items():
        assert all("type" in row for row in rows), f"{kind} has no type"


def test_werewolf_types_are_the_decision_kinds() -> None:
    table = wire_tables.read_table((DOCS / "werewolf.md").read_text(encoding="utf-8"), "werewolf")
    for kind in ("BADGE_SPEECH", "LAST_WORDS", "BADGE_VOTE", "BADGE_PASS"):
        assert table[kind][0]["type"] == kind


def test_the_witch_rows_say_which_potions_need_a_target() -> None:
    table = wire_tables.read_table((DOCS / "werewolf.md").read_text(encoding="utf-8"), "werewolf")
    rows = {row["potion"]: row for row in table["WITCH"]}
    assert rows["ANTIDOTE"]["target"] == "integer" and rows["POISON"]["target"] == "integer"
    assert "target?" in rows["PASS"]


@pytest.mark.slow
def test_a_stale_table_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "mafia.md"
    page.write_text("# x\n<!-- wire-table mafia -->\n| old |\n<!-- /wire-table -->\n")
    assert wire_tables.main(["check", str(page)]) == 1
    assert "out of date" in capsys.readouterr().err
    assert wire_tables.main(["write", str(page)]) == 0
    assert wire_tables.main(["check", str(page)]) == 0
