"""Golden files: random games of every built-in variant still play as recorded (perft-style).

After a deliberate rules change, regenerate them (and review the diff)::

    python -m duskfall.testing.golden write tests/golden/*.json
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duskfall.testing import VariantKit
from duskfall.testing.golden import check_golden, main, read_golden, write_golden

GOLDEN = Path(__file__).with_name("golden")
FILES = sorted(GOLDEN.glob("*.json"))
BUILT_IN = ("sports-mafia", "mafia", "werewolf")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_file(path: Path) -> None:
    check_golden(path)


def test_every_built_in_variant_has_golden_files() -> None:
    covered = {read_golden(path)["variant"] for path in FILES}
    assert set(BUILT_IN) <= covered
    assert all(len(read_golden(path)["games"]) >= 50 for path in FILES)


def test_a_changed_game_is_reported_with_the_way_to_regenerate(tmp_path: Path) -> None:
    path = tmp_path / "mafia-5.json"
    VariantKit("mafia").write_golden(path, {"players": 5, "day_limit": 2}, seeds=4)
    VariantKit("mafia").check_golden(path)
    data = json.loads(path.read_text())
    data["games"][2]["decisions"] += 1
    path.write_text(json.dumps(data))
    with pytest.raises(AssertionError) as failure:
        check_golden(path)
    message = str(failure.value)
    assert "1 of 4" in message and "seed 2" in message
    assert f"python -m duskfall.testing.golden write {path}" in message
    with pytest.raises(AssertionError, match="golden file of 'mafia'"):
        VariantKit("werewolf").check_golden(path)


def test_the_command_writes_regenerates_and_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sm.json"
    assert main(["write", str(path), "--variant", "sports-mafia", "--seeds", "3"]) == 0
    first = path.read_text()
    assert [g["seed"] for g in read_golden(path)["games"]] == [0, 1, 2]
    assert main(["write", str(path)]) == 0 and path.read_text() == first
    assert main(["check", str(path)]) == 0
    write_golden(path, "sports-mafia", {}, [0])
    data = json.loads(path.read_text())
    data["games"][0]["winner"] = "nobody"
    path.write_text(json.dumps(data))
    assert main(["check", str(path)]) == 1
    assert "FAILED" in capsys.readouterr().err
