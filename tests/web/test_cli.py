"""``duskfall web``: one clear line when it cannot start."""

from __future__ import annotations

import importlib.util
import socket
import sys
from typing import Any

import pytest

from duskfall.cli import main
from duskfall.testing.ports import free_port


def _run(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["duskfall", "web", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    return int(exit_info.value.code or 0)


def test_missing_web_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec

    def without_fastapi(name: str, *args: Any) -> Any:
        return None if name in ("fastapi", "uvicorn") else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_fastapi)
    assert _run(monkeypatch) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "pip install 'duskfall[web]'" in err


def test_port_in_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = _run(monkeypatch, "--port", str(port), "--games-dir", str(tmp_path / "g"))
    assert code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"port {port} on 127.0.0.1 is in use" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--allow-host", "evil.example/x"], "--allow-host 'evil.example/x' is not a host name"),
        (["--allow-host", ""], "--allow-host '' is not a host name"),
        (["--max-body", "0"], "--max-body"),
    ],
)
def test_bad_guard_options(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Any,
    args: list[str],
    message: str,
) -> None:
    code = _run(monkeypatch, "--port", str(free_port()), "--games-dir", str(tmp_path / "g"), *args)
    assert code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert message in err and "Traceback" not in err
