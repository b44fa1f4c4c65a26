"""Keys planted in every path (URL userinfo, the environment, the LLM config file, a failing
endpoint that echoes the key, the GM's models, a bad spec's error) never reach the console,
the log, the index database or the web."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.testing.require import require
from duskfall.testing.stub_server import FaultPlan, StubServer

ENV_KEY = "sk-env-PLANTED-0001"
FILE_KEY = "sk-file-PLANTED-0002"
ANTHROPIC_FILE_KEY = "sk-ant-file-PLANTED-0003"
URL_KEY = "url-PLANTED-0004"
GM_KEY = "gm-PLANTED-0005"
BAD_SPEC_KEY = "bad-PLANTED-0006"
PLANTED = (ENV_KEY, FILE_KEY, ANTHROPIC_FILE_KEY, URL_KEY, GM_KEY, BAD_SPEC_KEY)


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    """A faulty stub server that quotes the credentials it was sent, on its own loop."""
    server = StubServer(faults=FaultPlan(rate=0.4, kinds=("500", "429"), seed=3), echo_auth=True)
    in_background(server.start())
    yield server
    in_background(server.close())


@pytest.fixture
def run(cli: CliRun) -> Any:
    def call(*args: str) -> tuple[int, str]:
        code, out, err = cli(*args)
        return code, out + err

    return call


def leaks(blob: str | bytes) -> list[str]:
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    return [key for key in PLANTED if key in text]


def test_no_planted_key_reaches_any_output(
    stub: StubServer, run: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    config = tmp_path / "llm.toml"
    config.write_text(
        f'[openai]\napi_key = "{FILE_KEY}"\n\n[anthropic]\napi_key = "{ANTHROPIC_FILE_KEY}"\n'
    )
    monkeypatch.setenv("DUSKFALL_LLM_CONFIG", str(config))
    spec = f"llm:openai:m@http://user:{URL_KEY}@127.0.0.1:{stub.port}/v1"
    outputs: list[str] = []
    options = ("--agent-option", "retry_delay=0", "--agent-option", "retries=2")
    for key, name in ((ENV_KEY, "env"), (None, "file")):  # the env key, then the file's
        if key is None:
            monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        else:
            monkeypatch.setenv("OPENAI_API_KEY", key)
        log = tmp_path / f"{name}.jsonl"
        code, out = run("play", "--seed", "1", "--agents", f"0={spec},default=random",
                        "--log", str(log), *options)  # fmt: skip
        assert code == 0, out
        assert "seats: 0:llm:openai:m@http://127.0.0.1" in out
        outputs.append(out)
    assert stub.stats["500"] + stub.stats["429"] > 0  # the echoing errors did happen
    logs = [(tmp_path / f"{name}.jsonl").read_text() for name in ("env", "file")]
    assert "you sent" in logs[0] and "***" in logs[0]  # echoed, then masked

    gm_spec = f"openai:gm@http://user:{GM_KEY}@127.0.0.1:{stub.port}/v1"
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    code, out = run("gm", "--gm-model", gm_spec, "--player-model", gm_spec, "--max-steps", "1",
                    "--log", str(tmp_path / "gm.jsonl"))  # fmt: skip
    assert "game over" in out, out  # the stub's replies carry no markers: the GM gives up
    assert "GM openai:gm@http://127.0.0.1" in out
    outputs.append(out)
    logs.append((tmp_path / "gm.jsonl").read_text())

    code, out = run("play", "--agents", f"llm:openai:m@ftp://u:{BAD_SPEC_KEY}@host/v1")
    assert code == 2 and "must start with http" in out
    outputs.append(out)
    code, out = run("games", "--json")
    assert code == 0 and out.count("\n") == 3
    outputs.append(out)

    for blob in [*outputs, *logs, db.read_bytes()]:
        assert leaks(blob) == []
    for wal in tmp_path.glob("index.db-*"):
        assert leaks(wal.read_bytes()) == []

    require("fastapi", "pip install 'duskfall[web]'")
    from fastapi.testclient import TestClient

    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app

    settings = WebSettings(
        games_dir=tmp_path, db=db, access=Access("admin-PLANTED-token"), allow_hosts=("testserver",)
    )
    with TestClient(create_app(settings)) as client:
        listed = client.get("/api/games")
        assert listed.status_code == 200 and len(listed.json()["games"]) == 3
        bodies = [listed.text]
        for game in listed.json()["games"]:
            for headers in ({}, {"Authorization": "Bearer admin-PLANTED-token"}):
                view = client.get(f"/api/games/{game['game_id']}", headers=headers)
                assert view.status_code == 200
                bodies.append(view.text)
    assert any('"llm_call"' in body for body in bodies)  # the god view shows the calls
    for body in bodies:
        assert leaks(body) == []
