"""A key a model says in disguise is masked where the text enters the record: never readable in
the log, ``replay`` (in a shell without the key), or a web view (public, seat, god).

The stub model server says the key it was sent in every free-text field of its replies, in
each form of :mod:`duskfall.testing.disguises` in turn (base64, hex, ``%XX``, ``&#NN;``, upper
case, reversed, spaced, full-width, zero-width-, soft-hyphen- and bidi-joined, without its
``sk-`` prefix, dotted), to ``llm`` and ``cognitive`` seats (whose tool calls then carry it),
and in a third game half of it in one reply and the other half in the seat's next reply.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun, InBackground
from duskfall.core.redaction import forget_secrets
from duskfall.testing.disguises import SAID, disguised, form_echoes, halves, split_echo
from duskfall.testing.require import require
from duskfall.testing.stub_server import StubServer

KEY = "sk-test-D1SGU1SED-31c9e4"
FORMS = {**disguised(KEY), "the key": KEY}
SECOND = halves(KEY)[1]
GAMES: list[tuple[str, str, tuple[Callable[[str, Mapping[str, Any]], str], ...]]] = [
    ("llm", "forms", form_echoes()),
    ("cognitive", "cognitive", form_echoes()),
    ("llm", "split", (split_echo,)),
]


def readable(blob: str) -> list[str]:
    """The forms ``blob`` (JSON lines or text, escapes read) shows the key in."""
    lines = []
    for line in blob.splitlines():
        try:
            lines.append(json.dumps(json.loads(line), ensure_ascii=False))
        except ValueError:
            lines.append(line)
    text = "\n".join(lines)
    shown = [name for name, form in FORMS.items() if form in text]
    return shown + (["split over two replies"] if SECOND in text else [])


@pytest.mark.slow
@pytest.mark.subprocess
def test_keys_said_in_disguise_are_masked_everywhere(
    in_background: InBackground[Any],
    cli: CliRun,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    logs: list[Path] = []
    outputs: list[str] = []
    for agent, name, echoes in GAMES:
        server = StubServer(echo_auth_in_replies=True, echo_forms=echoes)
        in_background(server.start())
        try:
            log = tmp_path / f"{name}.jsonl"
            code, out, err = cli("play", "--variant", "werewolf", "--preset", "werewolf-6",
                                 "--seed", "5", "--agents", f"{agent}:openai:stub@{server.url}",
                                 "--log", str(log), "--agent-option", "retry_delay=0")  # fmt: skip
        finally:
            in_background(server.close())
        assert code == 0, out + err
        assert server.stats["echoed"] > 10
        outputs.append(out + err)
        logs.append(log)
    texts = [log.read_text() for log in logs]
    assert all(SAID in text or halves(KEY)[0] in text for text in texts)  # the words recorded
    for blob in [*outputs, *texts]:
        assert readable(blob) == []

    forget_secrets()  # a shell without the key: nothing is left to mask it with
    monkeypatch.delenv("OPENAI_API_KEY")
    for log in logs:
        code, out, err = cli("replay", str(log))
        assert code == 0, out + err
        assert readable(out + err) == []
        assert "\u200b".join(KEY) not in out  # the zero-width-joined key does not read as it

    require("fastapi", "pip install 'duskfall[web]'")
    from fastapi.testclient import TestClient

    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app

    settings = WebSettings(
        games_dir=tmp_path, db=db, access=Access("admin-DISGUISED-tok"), allow_hosts=("testserver",)
    )
    admin = {"Authorization": "Bearer admin-DISGUISED-tok"}
    with TestClient(create_app(settings)) as client:
        for log in logs:
            game_id = json.loads(log.read_text().splitlines()[0])["game_id"]
            for query, headers in (("?seat=-1", {}), ("?seat=0", admin), ("?seat=3", admin)):
                view = client.get(f"/api/games/{game_id}{query}", headers=headers)
                assert view.status_code == 200, view.text
                assert readable(view.text) == [], (log.name, query)
