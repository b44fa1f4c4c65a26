"""The ``[[forks]]`` block: paired ablations on logged games, through the tournament and its
board (schedule, play, report), and its config's errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from conftest import CliRun
from duskfall.arena.progress import tournament_progress
from duskfall.arena.schedule import REST, build_schedule
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_file import load_tournament
from duskfall.core.errors import ConfigError
from duskfall.report.ablations import paired_differences
from duskfall.report.html_report import html_report
from duskfall.report.leaderboard import build_report
from duskfall.report.terminal import leaderboard_table
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.store.paths import use_db
from duskfall.store.replay import new_state_for
from duskfall.testing.forks import play_logged

ENTRANTS = '[entrants]\nsmart = "heuristic"\nnaive = "random"\n'


def logged_games(folder: Path, count: int, seeds: int = 0) -> None:
    """``count`` logged werewolf-9 games of heuristic bots in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for seed in range(seeds, seeds + count):
        path = folder / f"{seed:02d}.jsonl"
        play_logged("werewolf", {"preset": "werewolf-9"}, seed, "heuristic", path)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with twelve source games, and an index of the test's own."""
    monkeypatch.setenv("DUSKFALL_DB", "off")
    use_db(None)
    logged_games(tmp_path / "sources", 12)
    db = tmp_path / "t.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    use_db(db)
    return tmp_path


def write_config(folder: Path, forks: str, name: str = "ablation") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(f'name = "{name}"\nseed = 1\n{ENTRANTS}\n[[forks]]\n{forks}\n')
    return path


def play(path: Path) -> tuple[list[str], object]:
    config = load_tournament(path)
    db = path.parent / "t.db"
    run_tournament(config, base_dir=path.parent, db=db)
    with GameIndex(db) as index:
        report = build_report(tournament_progress(config, index))
    return [d.describe() for d in report.ablations], report


def test_heuristic_villagers_vote_better_than_random_ones_with_separated_intervals(
    here: Path,
) -> None:
    """The block through the tournament and its board: against random wolves, from day 1,
    twelve source games separate the two entrants' vote accuracy."""
    config = write_config(
        here, 'source = "sources/*.jsonl"\nat = "day:1"\nseats = "village"\nrest = "random"'
    )
    lines, report = play(config)
    print("\n".join(lines))
    votes = next(d for d in report.ablations if d.measure == "vote accuracy")  # type: ignore[attr-defined]
    assert (votes.first, votes.second, votes.sources) == ("smart", "naive", 12)
    assert votes.point > 0 and votes.separated and votes.low > 0
    assert report.games_played == 24 and report.board.deals == 12  # type: ignore[attr-defined]
    assert {e.name for e in report.board.entrants} == {"smart", "naive"}  # type: ignore[attr-defined]
    smart = next(e for e in report.entrants if e.name == "smart")  # type: ignore[attr-defined]
    assert smart.leaks.speeches > 0 and smart.leaks.seer_accuracy == 1.0


@pytest.mark.slow
def test_in_the_source_games_own_company_too(here: Path) -> None:
    """Against the source games' own heuristic wolves (who vote with the table) the gap in vote
    accuracy is smaller and the games noisier: sixty source games, two forks of each per
    entrant (thirty games and one fork each do not separate it: about +0.11 [-0.02, +0.24])."""
    logged_games(here / "sources", 48, seeds=12)
    config = write_config(
        here, 'source = "sources/*.jsonl"\nat = "day:1"\nseats = "village"\nrepeats = 2'
    )
    _, report = play(config)
    differences = {d.measure: d for d in report.ablations}  # type: ignore[attr-defined]
    print("\n".join(d.describe() for d in differences.values()))
    votes = differences["vote accuracy"]
    assert votes.sources == 60 and votes.separated and votes.low > 0
    assert differences["win"].separated and differences["win"].low > 0


def test_the_forks_of_a_source_differ_by_the_entrant_alone(here: Path) -> None:
    path = write_config(
        here, 'source = "sources/0*.jsonl"\nat = "day:2"\nseats = "seer"\ngames = 2\nrepeats = 2'
    )
    config = load_tournament(path)
    slots = build_schedule(config)
    assert len(slots) == 2 * 2 * 2 and [s.deal for s in slots] == [0] * 4 + [1] * 4
    assert len({(s.deal, s.fork.seed) for s in slots if s.fork}) == 4  # entrants share a seed
    for slot in slots:
        assert slot.fork is not None
        source = read_log(slot.fork.source)
        assert (slot.seed, slot.config) == (source.header.seed, source.header.config)
        roles = new_state_for(source)[1].roles()
        seer = next(seat for seat, role in roles.items() if role == "Seer")
        assert [s for s, name in enumerate(slot.seats) if name != REST] == [seer]
        agents = slot.agents({"smart": "heuristic", "naive": "random"}).split(",")
        expected = "heuristic" if slot.seats[seer] == "smart" else "random"
        assert agents[seer] == expected and agents.count("heuristic") >= 8  # the source's own
    play(path)
    logs = sorted((here / "tournaments" / "ablation").glob("*.jsonl"))
    assert len(logs) == 8 and all(read_log(p).header.extra["fork"]["parent"] for p in logs)


def test_the_schedule_is_the_same_whatever_the_source_files_are_called(here: Path) -> None:
    """Logged games get random ids (and file names): the same games under other names give
    the same forks, so the same commands give the same report."""
    renamed = here / "renamed"
    renamed.mkdir()
    for number, path in enumerate(sorted((here / "sources").glob("*.jsonl"))):
        (renamed / f"{(7 * number) % 12:02d}.jsonl").write_bytes(path.read_bytes())
    plans = []
    for folder in ("sources", "renamed"):
        path = write_config(here, f'source = "{folder}/*.jsonl"\nat = "day:1"', name=folder)
        slots = build_schedule(load_tournament(path))
        plans.append([(s.deal, s.seed, s.fork.seed if s.fork else None) for s in slots])
    assert plans[0] == plans[1] and len(plans[0]) == 2 * 12


def test_a_resumed_report_keeps_the_source_games_it_started_with(here: Path, cli: CliRun) -> None:
    config = write_config(here, 'source = "sources/*.jsonl"\nat = "day:1"\nrest = "random"')
    code, _, err = cli("tournament", "run", str(config), "--db", str(here / "t.db"))
    assert code == 0, err
    logged_games(here / "sources", 2, seeds=40)  # two more games match the glob now
    code, out, err = cli("tournament", "report", str(config), "--db", str(here / "t.db"))
    assert code == 0, err
    assert "24/24 games" in out and "paired ablation forks:day:1:village" in out
    code, out, err = cli("tournament", "resume", str(config), "--db", str(here / "t.db"))
    assert code == 0, err


def test_paired_differences_of_no_games_are_not_measured() -> None:
    [votes, *_] = paired_differences([], ["a", "b"], "forks:day:2:village")
    assert votes.sources == 0 and not votes.separated and votes.verdict == "not yet"


@pytest.mark.parametrize(
    ("forks", "needle"),
    [
        ('source = "nowhere/*.jsonl"', "no finished game log that reaches day:2"),
        ('source = "sources/*.jsonl"\nat = "day:30"', "no finished game log that reaches day:30"),
        ('source = "sources/*.jsonl"\nseats = [42]', "seats are 0-8"),
        ('source = "sources/*.jsonl"\nseats = "dragon"', "names no seat"),
        ('source = "sources/*.jsonl"\nrest = "wizard"', "unknown agent"),
        ('source = "tournament:nothing"', "source tournament:nothing"),
    ],
)
def test_a_block_that_does_not_fit_is_one_clear_error(here: Path, forks: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        build_schedule(load_tournament(write_config(here, forks)))


def test_a_config_needs_a_block_and_games_for_its_variant_blocks(tmp_path: Path) -> None:
    path = tmp_path / "empty.toml"
    path.write_text(f'name = "x"\n{ENTRANTS}')
    with pytest.raises(ConfigError, match=r"\[\[variants\]\] or \[\[forks\]\]"):
        load_tournament(path)
    path.write_text(f'name = "x"\n{ENTRANTS}\n[[variants]]\nvariant = "werewolf"\n')
    with pytest.raises(ConfigError, match="games is needed"):
        load_tournament(path)


def test_the_report_of_a_forks_block_fits_80_columns(here: Path) -> None:
    config = write_config(
        here, 'source = "sources/*.jsonl"\nat = "day:1"\nseats = "village"\nrest = "random"'
    )
    _, report = play(config)
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    for part in leaderboard_table(report):  # type: ignore[arg-type]
        console.print(part, soft_wrap=False)
    text = buffer.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80 and "…" not in text
    assert "paired ablation forks:day:1:village" in text and "tells" in text
    for d in report.ablations:  # type: ignore[attr-defined]
        assert f"{d.point:+.2f} [{d.low:+.2f}, {d.high:+.2f}]" in text
    html = html_report(report)  # type: ignore[arg-type]
    assert "Paired ablations" in html and "Tells" in html


def test_plan_says_it_sizes_variant_blocks_only(here: Path, cli: CliRun) -> None:
    config = write_config(here, 'source = "sources/*.jsonl"\nat = "day:1"')
    code, _, err = cli("tournament", "plan", str(config), "--db", str(here / "t.db"))
    assert code == 2 and "plan sizes [[variants]] blocks" in err and "(24 games here)" in err


@pytest.mark.parametrize("seeds", ["shared", "per-entrant"])
def test_the_same_agents_with_other_seeds_are_a_null_around_zero(here: Path, seeds: str) -> None:
    """Two entrants of the same agents: sharing each source's seed they play the same games
    (exactly 0, a point); with a seed each they differ by chance alone, an interval that holds
    0 and has width."""
    path = here / "null.toml"
    path.write_text(
        f'name = "null-{seeds}"\nseed = 1\n[entrants]\nfirst = "heuristic"\nsecond = "heuristic"\n'
        f'[[forks]]\nsource = "sources/*.jsonl"\nat = "day:1"\nseats = "village"\n'
        f'rest = "random"\nseeds = "{seeds}"\n'
    )
    lines, report = play(path)
    print("\n".join(lines))
    differences = {d.measure: d for d in report.ablations}  # type: ignore[attr-defined]
    for measure in ("win", "survival"):
        found = differences[measure]
        assert found.sources == 12 and found.low <= 0 <= found.high
        if seeds == "shared":
            assert found.point == found.low == found.high == 0
    win = differences["win"]
    if seeds == "per-entrant":
        assert win.high - win.low > 0 and not win.separated
