"""Loading a tournament file: the TOML read (bounded) and checked, and the source games of its
``[[forks]]`` blocks found (:mod:`duskfall.report.ablations` measures what their forks do).

A block's ``source`` is a glob of log files relative to the config, or ``tournament:NAME`` for
the finished games of a tournament in the index; only finished games that reach the block's
moment are kept, ordered by what they are (seed, config, agents), not by their files' names.
"""

from __future__ import annotations

import glob
import json
import tomllib
from pathlib import Path

from duskfall.arena.schedule import intervention_in
from duskfall.arena.tournament_config import ForksBlock, TournamentConfig, parse_tournament
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.user_files import read_user_text
from duskfall.lab.moments import find_round
from duskfall.lab.rounds import rounds_of
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.store.paths import default_db_path

TOURNAMENT_SOURCE = "tournament:"


def load_tournament(path: str | Path, db: Path | None = None) -> TournamentConfig:
    """Read and check a TOML tournament config (one ConfigError for any problem); the source
    games of its ``[[forks]]`` blocks are found (globs relative to the file, tournaments in the
    index ``db``, else the default one)."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"no tournament config {path}")
    if path.is_dir():
        raise ConfigError(f"{path} is a directory, not a tournament config")
    text = read_user_text(path, "tournament config")  # no FIFO, no /dev/zero, no huge file
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deep") from None
    except ValueError as exc:  # a number too long to convert
        raise ConfigError(f"{path}: not valid TOML: {str(exc)[:200]}") from None
    config = parse_tournament(data)
    if not config.forks:
        return config
    blocks = [
        block.model_copy(update={"logs": find_sources(block, path.resolve().parent, db)})
        for block in config.forks
    ]
    return parse_tournament({**config.model_dump(), "forks": [b.model_dump() for b in blocks]})


def find_sources(block: ForksBlock, base: Path, db: Path | None = None) -> list[str]:
    """The block's source logs (absolute paths, in order): finished games (a fork of a game
    that has not ended would show what it hides) that reach the block's moment (a game over
    before day 2 has no ``day:2``), at most ``games`` of them."""
    if block.source.startswith(TOURNAMENT_SOURCE):
        found = _tournament_logs(block.source[len(TOURNAMENT_SOURCE) :], db)
    else:
        pattern = block.source if Path(block.source).is_absolute() else str(base / block.source)
        found = sorted(Path(p) for p in glob.glob(pattern, recursive=True))
    keyed = [(key, p) for p in found if p.suffix == ".jsonl" and (key := _reaches(p, block))]
    if not block.source.startswith(TOURNAMENT_SOURCE):
        keyed.sort(key=lambda pair: pair[0])  # what the games are, not their files' names
    usable = [str(p.resolve()) for _, p in keyed]
    if not usable:
        raise ConfigError(
            f"[[forks]] source {block.source!r}: no finished game log that reaches {block.at}"
            + ("" if block.intervention is None else f" and has {block.intervention!r}'s event")
        )
    return usable[: block.games] if block.games else usable


def _reaches(path: Path, block: ForksBlock) -> tuple[int, str, str] | None:
    """If the log at ``path`` is a finished game that has the block's moment (and the event
    its intervention changes): a key that orders logged games by what they are (seed, config,
    seats' agents), the same however often they were played and whatever their random game
    ids and file names; else None."""
    try:
        log = read_log(path, strict=False)
        if not log.finished:
            return None
        if block.intervention is not None:
            intervention_in(block, log)
        else:
            find_round(rounds_of(log), block.at)
    except DuskfallError:
        return None
    header = log.header
    config = json.dumps(header.config, sort_keys=True, default=str)
    agents = ",".join(str(entry.get("agent")) for entry in header.roster)
    return header.seed, config, agents


def _tournament_logs(name: str, db: Path | None) -> list[Path]:
    path = db or default_db_path()
    if path is None or not path.exists():
        raise ConfigError(f"[[forks]] source tournament:{name}: no game index to find it in")
    with GameIndex(path) as index:
        rows = index.tournament_games(name)
    return [Path(r.log_path) for r in rows if r.status == "finished" and r.log_path]
