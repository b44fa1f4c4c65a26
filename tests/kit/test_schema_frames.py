"""Every frame of recorded games validates against the published JSON Schema files.

The quick tier records a few games of each variant; the full tier 100 (the issue's figure).
Each server frame is checked against ``<variant>/server.json``, each client frame against
``<variant>/client.json``, and each answer's action against the action schema of the kind its
request asked (the request's ``phase``).
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

from duskfall.kit.schemas import all_files

from .recorded import WRONG, Recording, record_games

VARIANTS = ("sports-mafia", "werewolf", "mafia")


Validator = Any  # jsonschema_rs.Draft202012Validator


@functools.cache
def files() -> dict[str, dict[str, Any]]:
    return all_files(VARIANTS)


@functools.cache
def validators() -> dict[str, Validator]:
    """A validator per schema file (each file checked to be a draft 2020-12 schema first)."""
    out = {}
    for name, schema in files().items():
        if name != "index.json":
            Draft202012Validator.check_schema(schema)
            out[name] = jsonschema_rs.Draft202012Validator(schema)
    return out


@functools.cache
def part(variant: str, side: str, name: str) -> Validator:
    """The validator of one ``$defs`` entry of ``<variant>/<side>.json`` (for a clear reason
    when a frame fails; the whole document is checked too)."""
    document = files()[f"{variant}/{side}.json"]
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/$defs/{name}", "$defs": document["$defs"]}
    )


def _definition(message: dict[str, Any]) -> str:
    if message["type"] == "GAME_EVENT":
        return f"event_{message['event']}"
    return str(message["type"])


def check(recordings: list[Recording], variant: str) -> Counter[str]:
    """Validate every frame; return how many of each type were checked."""
    server = validators()[f"{variant}/server.json"]
    client = validators()[f"{variant}/client.json"]
    seen: Counter[str] = Counter()
    for recording in recordings:
        for message in recording.received:
            _valid(part(variant, "server", _definition(message)), message, "server")
            _valid(server, message, "server")
            seen[_label(message)] += 1
        for message in recording.sent:
            if message.get("action", {}).get("type") == WRONG:
                assert not client.is_valid(message)  # refused by the server, and the schema
                seen["client wrong answer"] += 1
                continue
            _valid(part(variant, "client", message["type"]), message, "client")
            _valid(client, message, "client")
            seen["client " + message["type"]] += 1
        for request, action in recording.answered:
            if action.get("type") != WRONG:
                kind = request["phase"]
                _valid(validators()[f"{variant}/actions/{kind}.json"], action, f"{kind} action")
    return seen


def _label(message: dict[str, Any]) -> str:
    if message["type"] == "ACTION_REQUEST":
        if not message["valid_actions"]:
            return "state update" + (" (partial)" if message.get("partial") else "")
        return "ACTION_REQUEST"
    return message["type"]


def _valid(validator: Validator, message: dict[str, Any], what: str) -> None:
    if validator.is_valid(message):
        return
    errors = list(validator.iter_errors(message))
    error = min(errors, key=lambda e: len(e.message))
    where = "/".join(str(p) for p in error.instance_path)
    shown = str(message)[:300]
    raise AssertionError(f"{what} frame invalid at /{where}: {error.message[:300]}\n{shown}")


@pytest.mark.parametrize(
    "variant",
    ["sports-mafia", pytest.param("werewolf", marks=pytest.mark.slow), "mafia"],
)
async def test_frames_of_a_few_recorded_games_validate(variant: str, tmp_path: Path) -> None:
    recordings = await record_games(variant, 2, tmp_path, seed=1)
    seen = check(recordings, variant)
    for kind in ("HELLO", "ACTION_REQUEST", "GAME_EVENT", "ERROR", "TIMEOUT", "state update"):
        assert seen[kind] > 0, (kind, seen)
    assert seen["state update (partial)"] > 0 and seen["client ACTION_RESPONSE"] > 0


@pytest.mark.slow
async def test_every_frame_of_100_recorded_games_validates(tmp_path: Path) -> None:
    counts: Counter[str] = Counter()
    for variant, games in (("sports-mafia", 40), ("werewolf", 30), ("mafia", 30)):
        recordings = await record_games(variant, games, tmp_path / variant, seed=7)
        seen = check(recordings, variant)
        counts.update(seen)
        print(f"{variant}: {games} games, {sum(seen.values())} frames valid: {dict(seen)}")
    print(f"100 games, {sum(counts.values())} frames valid")
    assert counts["FALLBACK"] > 0 and counts["TIMEOUT"] > 0
