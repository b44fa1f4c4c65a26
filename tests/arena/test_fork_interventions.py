"""A ``[[forks]]`` block with an intervention: the treated entrant's forks of each source game
have one change made before the fork (the Seer's first check flipped, a speech rewritten);
an entrant of the same agents untreated is the baseline, paired by source game."""

from __future__ import annotations

from pathlib import Path

import pytest

from duskfall.arena.progress import tournament_progress
from duskfall.arena.schedule import build_schedule
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_file import load_tournament
from duskfall.core.errors import ConfigError
from duskfall.report.leaderboard import build_report
from duskfall.store.index import GameIndex
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import read_log
from duskfall.store.paths import use_db
from duskfall.store.replay import new_state_for
from duskfall.testing.forks import play_logged

ENTRANTS = '[entrants]\ntold = "heuristic"\nbase = "heuristic"\n'


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with twelve werewolf-9 source games of heuristic bots, and an index."""
    monkeypatch.setenv("DUSKFALL_DB", "off")
    use_db(None)
    (tmp_path / "sources").mkdir()
    for seed in range(12):
        path = tmp_path / "sources" / f"{seed:02d}.jsonl"
        play_logged("werewolf", {"preset": "werewolf-9"}, seed, "heuristic", path)
    db = tmp_path / "t.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    use_db(db)
    return tmp_path


def write_config(folder: Path, forks: str) -> Path:
    path = folder / "ablation.toml"
    path.write_text(f'name = "ablation"\nseed = 1\n{ENTRANTS}\n[[forks]]\n{forks}\n')
    return path


BLOCK = (
    'source = "sources/*.jsonl"\nat = "day:1"\nseats = "village"\n'
    'intervention = "first-check:flip"\ntreated = ["told"]'
)


def test_flipping_the_first_check_is_measured_against_the_untreated_forks(here: Path) -> None:
    path = write_config(here, BLOCK)
    config = load_tournament(path)
    slots = build_schedule(config)
    assert {s.fork.change is not None for s in slots if s.fork and s.seats.count("told")} == {True}
    assert all(s.fork and s.fork.change is None for s in slots if "base" in s.seats)
    db = here / "t.db"
    run_tournament(config, base_dir=here, db=db)
    with GameIndex(db) as index:
        report = build_report(tournament_progress(config, index))
    lines = [d.describe() for d in report.ablations]
    print("\n".join(lines))
    win = next(d for d in report.ablations if d.measure == "win")
    assert (win.first, win.second) == ("told", "base") or (win.first, win.second) == (
        "base",
        "told",
    )
    assert win.sources == 12 and win.high - win.low > 0


def test_a_speech_rule_finds_each_games_own_speech_and_the_fork_says_the_new_words(
    here: Path,
) -> None:
    words = "I am the Seer and seat 0 is a werewolf."
    block = (
        'source = "sources/0[01].jsonl"\nat = "after"\nseats = "werewolf"\n'
        f'intervention = "speech:day:1:seer={words}"\ntreated = ["told"]'
    )
    config = load_tournament(write_config(here, block))
    slots = build_schedule(config)
    told = [s for s in slots if s.fork and "told" in s.seats]
    base = [s for s in slots if s.fork and "base" in s.seats]
    assert len(told) == len(base) == 2
    for mine, theirs in zip(told, base, strict=True):
        assert mine.fork and theirs.fork and mine.fork.at == theirs.fork.at  # the same moment
        assert mine.fork.change is not None and mine.fork.change[0] == "replace"
        seq = int(mine.fork.change[1].partition("=")[0])
        source = read_log(mine.fork.source)
        roles = new_state_for(source)[1].roles()
        seer = next(seat for seat, role in roles.items() if role == "Seer")
        assert source.events[seq].payload["seat"] == seer and source.events[seq].day == 1
        assert int(mine.fork.at) > seq and mine.fork.change[1].endswith(words)
    db = here / "t.db"
    run_tournament(config, base_dir=here, db=db)
    with GameIndex(db) as index:
        rows = [r for r in index.list_games(limit=100) if r.log_path]
    spoken = 0
    for row in rows:
        log = read_log(row.log_path)
        origin = ForkOrigin.of(log.header)
        assert origin is not None
        if origin.replaced is not None:
            spoken += 1
            assert any(e.payload.get("text") == words for e in log.events[: origin.prefix])
    assert spoken == 2


@pytest.mark.parametrize(
    ("forks", "needle"),
    [
        ('intervention = "first-check:maybe"', "give first-check:flip, or speech:day:N"),
        ('intervention = "speech:day:0:seer=hi"', "name a day (1 on)"),
        ('intervention = "speech:day:1:seer=  "', "the new words are empty"),
        ('intervention = "first-check:flip"\ntreated = ["nobody"]', "'nobody' is no entrant"),
        ('treated = ["told"]', "there is no intervention"),
        ('intervention = "first-check:flip"\nat = "night:1"', "and has 'first-check:flip''s event"),
        (
            'intervention = "speech:day:9:seer=hi"\nat = "after"',
            "no finished game log that reaches after",
        ),
    ],
)
def test_intervention_mistakes_are_one_line(here: Path, forks: str, needle: str) -> None:
    block = f'source = "sources/00.jsonl"\nseats = "village"\n{forks}'
    with pytest.raises(ConfigError) as caught:
        build_schedule(load_tournament(write_config(here, block)))
    message = str(caught.value)
    assert needle in message and "\n" not in message, message
