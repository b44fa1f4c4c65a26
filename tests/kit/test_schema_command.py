"""``duskfall schema``: the files, their index, and what they accept and refuse."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from conftest import CliRun
from duskfall.protocol.strict import wire_form_error
from duskfall.variants.sports_mafia.legal import DeclarationChoice


def test_schema_writes_every_file_of_a_variant(tmp_path: Path, cli: CliRun) -> None:
    code, out, err = cli("schema", "--out", str(tmp_path), "--variant", "werewolf")
    assert code == 0, err
    assert "schema files written" in out
    index = json.loads((tmp_path / "index.json").read_text())
    names = index["variants"]["werewolf"]
    assert "werewolf/actions/WITCH.json" in names and "werewolf/events/GAME_OVER.json" in names
    for name in [*index["messages"], *names]:
        schema = json.loads((tmp_path / name).read_text())
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    witch = Draft202012Validator(json.loads((tmp_path / "werewolf/actions/WITCH.json").read_text()))
    assert witch.is_valid({"type": "WITCH", "potion": "POISON", "target": 3})
    assert not witch.is_valid({"type": "WITCH", "potion": "POISON"})  # as the server refuses
    assert witch.is_valid({"type": "WITCH", "potion": "PASS"})
    over = json.loads((tmp_path / "werewolf/events/GAME_OVER.json").read_text())
    assert over["properties"]["winner"]["enum"] == ["village", "werewolf", None]


def test_the_schema_and_the_strict_check_agree_on_a_misspelt_field(
    tmp_path: Path, cli: CliRun
) -> None:
    assert cli("schema", "-o", str(tmp_path), "-v", "sports-mafia")[0] == 0
    schema = json.loads((tmp_path / "sports-mafia/actions/DECLARATION.json").read_text())
    validator = Draft202012Validator(schema)
    good = {"type": "DECLARATION", "declaration": [0] * 10, "nomination_policy": {"4": 1.0}}
    typo = {"type": "DECLARATION", "declaration": [0] * 10, "nomination_polcy": {"4": 1.0}}
    legal = DeclarationChoice((1, 2, 4)).schema()
    assert validator.is_valid(good) and wire_form_error(good, legal) is None
    assert not validator.is_valid(typo) and wire_form_error(typo, legal) is not None


def test_a_bad_out_is_one_line(tmp_path: Path, cli: CliRun) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    code, _, err = cli("schema", "--out", str(target))
    assert code == 2 and err.count("\n") == 1 and "is a file" in err
