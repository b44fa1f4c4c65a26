"""A key that a model or a client puts into its own words is masked where the text enters the
record: never in a log, the index, a prompt sent to another seat's endpoint, a web view (public,
seat or god) or a console, even one without the key to mask it with.

The stub model server quotes the Authorization header it was sent in every free-text field of
its successful replies (reasoning, speeches, a GM's narration and secrets, a player's chat), in
three forms in turn: the header line, ``Bearer KEY`` and the bare key (which only the registered
secret can catch). A remote client over TCP says a registered secret and a bearer token.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.client.wire_legal import legal_from_wire
from duskfall.core.redaction import forget_secrets, register_secret
from duskfall.core.registry import get_variant
from duskfall.testing.require import require
from duskfall.testing.stub_server import StubServer

ENV_KEY = "sk-env-ECHOED-1111"
FILE_KEY = "sk-file-ECHOED-2222"
WIRE_SECRET = "wire-ECHOED-3333"
WIRE_BEARER = "tok-ECHOED-4444"
PLANTED = (ENV_KEY, FILE_KEY, WIRE_SECRET, WIRE_BEARER)


def leaks(blob: str | bytes) -> list[str]:
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    return [key for key in PLANTED if key in text]


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    server = StubServer(echo_auth_in_replies=True)
    in_background(server.start())
    yield server
    in_background(server.close())


@pytest.mark.slow
def test_keys_echoed_by_models_are_masked_everywhere(
    stub: StubServer,
    cli: CliRun,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    config = tmp_path / "llm.toml"
    config.write_text(f'[openai]\napi_key = "{FILE_KEY}"\n')
    spec = f"openai:stub@{stub.url}"
    outputs: list[str] = []
    logs: list[Path] = []
    for key, name in ((ENV_KEY, "env"), (None, "file")):  # the env key, then the file's
        if key is None:
            monkeypatch.delenv("OPENAI_API_KEY", raising=False)
            monkeypatch.setenv("DUSKFALL_LLM_CONFIG", str(config))
        else:
            monkeypatch.setenv("OPENAI_API_KEY", key)
        log = tmp_path / f"{name}.jsonl"
        code, out, err = cli("play", "--variant", "werewolf", "--preset", "werewolf-6",
                             "--seed", "3", "--agents", f"llm:{spec}", "--log", str(log),
                             "--agent-option", "retry_delay=0")  # fmt: skip
        assert code == 0, out + err
        outputs.append(out + err)
        logs.append(log)
    code, out, err = cli("gm", "--model", spec, "--gm-format", "structured", "--lang", "en",
                         "--max-steps", "6", "--log", str(tmp_path / "gm.jsonl"))  # fmt: skip
    assert code == 0, out + err
    outputs.append(out + err)
    logs.append(tmp_path / "gm.jsonl")
    assert stub.stats["echoed"] > 50  # the keys were said, in every form

    texts = [log.read_text() for log in logs]
    # what the models said is kept, with the key masked: speeches, reasoning, a GM's chat
    lines = [e for t in texts for e in map(json.loads, t.splitlines()[1:-1])]
    said = [e for e in lines if "kind" in e]  # the events (not the signature lines)
    kinds = {e["kind"] for e in said if "my header is" in json.dumps(e["payload"])}
    assert {"speech", "thought", "llm_call", "chat"} <= kinds, kinds
    assert any("Bearer ***" in t for t in texts) and any("the key is ***" in t for t in texts)
    # no prompt sent to any endpoint carried a key: not the seat's own words, not another's
    assert stub.requests and all(leaks(json.dumps(r["messages"])) == [] for r in stub.requests)

    forget_secrets()  # a shell without the keys: nothing is left to mask them with
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("DUSKFALL_LLM_CONFIG", raising=False)
    for log in logs[:2]:
        code, out, err = cli("replay", str(log))
        assert code == 0, out + err
        outputs.append(out + err)
    code, out, err = cli("games", "--json")
    outputs.append(out + err)
    for blob in [*outputs, *texts, db.read_bytes()]:
        assert leaks(blob) == []

    require("fastapi", "pip install 'duskfall[web]'")
    from fastapi.testclient import TestClient

    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app

    settings = WebSettings(
        games_dir=tmp_path, db=db, access=Access("admin-ECHOED-token"), allow_hosts=("testserver",)
    )
    bodies = []
    with TestClient(create_app(settings)) as client:
        for log in logs:
            game_id = json.loads(log.read_text().splitlines()[0])["game_id"]
            for query in ("?seat=-1", "?seat=0", "?seat=3", ""):
                view = client.get(f"/api/games/{game_id}{query}", headers=ADMIN)
                assert view.status_code == 200, view.text
                bodies.append(view.text)
    assert sum("my header is" in body for body in bodies) >= 9  # shown, masked
    for body in bodies:
        assert leaks(body) == []


ADMIN = {"Authorization": "Bearer admin-ECHOED-token"}


def says_keys(request: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal werewolf action whose free text says a secret and a bearer token."""
    variant = get_variant("werewolf")
    legal = legal_from_wire(
        variant, request["phase"], request["valid_actions"], request.get("legal_state")
    )
    action: dict[str, Any] = legal.sample(rng).to_dict()
    if "says" in action:
        action["says"] = f"my token is {WIRE_SECRET}, Authorization: Bearer {WIRE_BEARER}"
    return action


async def test_a_remote_clients_words_are_masked_before_the_rules_see_them(
    tmp_path: Path,
) -> None:
    from server.support import WireClient, game_log, serving, wait_game_done

    register_secret(WIRE_SECRET)  # as a web token or a key of this process would be
    async with serving(
        tmp_path, variant="werewolf", config={"preset": "werewolf-6"}, fill_bots_after=0, games=1,
        deadline_ms=2000, retries=0,
    ) as server:  # fmt: skip
        client = await WireClient.open(server.port)
        rng = random.Random(5)
        played = asyncio.create_task(client.play(rng, lambda r: says_keys(r, rng)))
        await wait_game_done(server)
        await played
    assert client.hello is not None
    log = game_log(server, client.hello["game_id"])
    speeches = [e for e in log.events if e.payload.get("seat") == client.seat]
    text = json.dumps([e.to_dict() for e in log.events])
    assert "my token is ***" in text and speeches
    assert leaks(text) == []
    seen = json.dumps(client.seen)  # what the server sent back (its own words included)
    assert leaks(seen) == []
