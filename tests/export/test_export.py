"""``duskfall export``: a tournament's games as a dataset that ``datasets.load_dataset`` reads,
row counts equal to the logs', nothing hidden in the public files, no key anywhere."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.core import event_kinds as kinds
from duskfall.export.columns import DECISIONS, GAMES, TABLES
from duskfall.llm.schema import example
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.testing.require import require
from duskfall.testing.secrecy import leaked_seeds
from duskfall.testing.stub_server import StubServer

KEY = "sk-env-PLANTED-EXPORT-0001"
THOUGHT = "HIDDEN-REASONING-7f3a"


def planted_answer(request: Mapping[str, Any]) -> str:
    """A schema-valid reply whose reasoning is marked and whose speeches echo the key."""
    fmt = request.get("response_format") or {}
    schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema")
    rng = random.Random(json.dumps(request.get("messages"), sort_keys=True))
    value = example(schema, rng) if schema else {}
    if isinstance(value, dict) and "reasoning" in value:
        value["reasoning"] = f"{THOUGHT} my key is {KEY}"
        action = value.get("action")
        if isinstance(action, dict) and "says" in action:
            action["says"] = f"I was given Bearer {KEY}"
    return json.dumps(value)


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    server = StubServer(answer=planted_answer)
    in_background(server.start())
    yield server
    in_background(server.close())


def tournament_toml(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "export-t"\nseed = 5\ngames = 2\nschedule = "mixed"\nlog_dir = "games"\n'
        f'beliefs = "daily"\n[entrants]\nmodel = "llm:openai:stub@{url}"\nbot = "heuristic"\n'
        '[[variants]]\nvariant = "werewolf"\npreset = "werewolf-6"\n'
        '[[variants]]\nvariant = "mafia"\n'
    )
    return path


def load(path: Path, fmt: str, cache: Path) -> Any:
    require("datasets")
    import datasets

    builder = "parquet" if fmt == "parquet" else "json"
    return datasets.load_dataset(builder, data_files=str(path), cache_dir=str(cache))["train"]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_a_tournament_exports_to_a_dataset_that_datasets_loads(
    fmt: str,
    stub: StubServer,
    cli: CliRun,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require("pyarrow")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    db = tmp_path / "index.db"
    print("playing a 4-game tournament (werewolf-6 and mafia) against a stub model server")
    code, out, err = cli("tournament", "run", str(tournament_toml(tmp_path, stub.url)),
                         "--db", str(db))  # fmt: skip
    assert code == 0, out + err
    out_dir = tmp_path / "dataset"
    code, out, err = cli("export", "--db", str(db), "--tournament", "export-t",
                         "--format", fmt, "--out", str(out_dir))  # fmt: skip
    assert code == 0, out + err

    with GameIndex(db) as index:
        rows = index.tournament_games("export-t")
    logs = {row.id: read_log(row.log_path) for row in rows if row.log_path}
    assert len(logs) == len(rows) == 4
    assert "4 games exported" in " ".join(out.split())
    cache = tmp_path / "hf-cache"
    games = load(out_dir / f"games.{fmt}", fmt, cache)
    decisions = load(out_dir / f"decisions.{fmt}", fmt, cache)
    hidden = load(out_dir / f"decisions_hidden.{fmt}", fmt, cache)
    events = load(out_dir / f"events.{fmt}", fmt, cache)
    private = load(out_dir / f"events_hidden.{fmt}", fmt, cache)

    # row counts against the logs
    assert sorted(games["game_id"]) == sorted(logs)
    actions = {gid: sum(e.kind == kinds.ACTION for e in log.events) for gid, log in logs.items()}
    assert len(decisions) == len(hidden) == sum(actions.values())
    for gid, count in actions.items():
        assert decisions["game_id"].count(gid) == count
    assert len(events) + len(private) == sum(len(log.events) for log in logs.values())
    assert len(events) == sum(e.visibility == "public" for log in logs.values() for e in log.events)
    assert set(events["visibility"]) == {"public"} and "public" not in set(private["visibility"])
    model_rows = [r for r in decisions if r["model"]]
    assert model_rows and all(r["llm_calls"] >= 1 and r["prompt_tokens"] > 0 for r in model_rows)
    assert {r["side"] for r in decisions} == {"village", "evil"}

    # no hidden column in a public file, every one in its hidden file
    for table in TABLES:
        if table.split_rows:
            continue
        public = load(out_dir / table.file(False, fmt), fmt, cache).column_names
        secret = load(out_dir / table.file(True, fmt), fmt, cache).column_names
        hidden_names = {c.name for c in table.columns if c.hidden}
        assert hidden_names and not hidden_names & set(public)
        assert hidden_names <= set(secret)
    assert set(hidden.column_names) == {c.name for c in DECISIONS.part(True)}
    assert {c.name for c in GAMES.part(False)} == set(games.column_names)

    # planted: the reasoning only in the hidden part, the key nowhere, no seed derivable
    files = {p.name: p.read_bytes() for p in out_dir.iterdir()}
    assert not [name for name, blob in files.items() if KEY.encode() in blob]
    assert any(THOUGHT in r["reasoning"] for r in hidden if r["reasoning"])  # it was planted
    public_text = [json.dumps(list(t)) for t in (games, decisions, events)]
    assert not [text for text in public_text if THOUGHT in text]
    if fmt == "jsonl":
        public_files = [blob for n, blob in files.items() if "_hidden" not in n]
        assert not [blob for blob in public_files if THOUGHT.encode() in blob]
    for row in rows:
        log = logs[row.id]
        assert leaked_seeds(public_text, row.variant, log.header.config, log.header.seed) == []
    card = (out_dir / "README.md").read_text()
    assert "decisions_hidden" in card and "Gemma" not in card and "openai:stub" in card
    assert "| `observation` | json | hidden |" in card


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_played_game_exports_with_one_row_per_decision(
    fmt: str, cli: CliRun, tmp_path: Path
) -> None:
    if fmt == "parquet":
        require("pyarrow")
    db, log = tmp_path / "i.db", tmp_path / "g.jsonl"
    code, out, err = cli("play", "--variant", "werewolf", "--preset", "werewolf-6", "--seed",
                         "3", "--agents", "0=llm:scripted,default=heuristic", "--log", str(log),
                         "--db", str(db), "-q")  # fmt: skip
    assert code == 0, out + err
    out_dir = tmp_path / "out"
    code, out, err = cli("export", "--db", str(db), "--out", str(out_dir), "-f", fmt)
    assert code == 0, out + err
    game = read_log(log)
    if fmt == "jsonl":
        rows = [json.loads(line) for line in (out_dir / "decisions.jsonl").open()]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(out_dir / "decisions.parquet").to_pylist()
    assert len(rows) == sum(e.kind == kinds.ACTION for e in game.events)
    assert [r["decision"] for r in rows] == list(range(len(rows)))
    seat0 = [r for r in rows if r["seat"] == 0]
    assert seat0 and all(r["llm_calls"] >= 1 and r["model"] == "scripted" for r in seat0)
    # a second export into the same directory is refused, in one line
    code, out, err = cli("export", "--db", str(db), "--out", str(out_dir), "-f", fmt)
    assert code != 0 and "not empty" in err and "Traceback" not in err
    code, out, err = cli("export", "--db", str(db), "--out", str(tmp_path / "x"), "-f", "csv")
    assert code != 0 and "unknown format" in err
    # an altered log is left out, and said so
    text = log.read_text()
    assert '"target":1}' in text
    log.write_text(text.replace('"target":1}', '"target":2}', 1))
    code, out, err = cli("export", "--db", str(db), "--out", str(tmp_path / "y"), "-f", fmt)
    assert code == 0 and "0 games exported" in " ".join(out.split())
    assert "1 with an unreadable or altered log" in " ".join(out.split())
