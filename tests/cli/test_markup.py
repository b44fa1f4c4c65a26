"""Untrusted text is never rich markup: a speech, a model's reasoning, a server's game id or a
remote entrant's frame is printed as it was said by ``play``, ``replay``, ``connect`` and
``tournament run`` (``oops [/bold]`` plays to the end, ``[link=...]`` is no hyperlink), and
every ``--help`` shows the extras it names (``duskfall[web]``) whole."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import typer

from conftest import CliRun, InBackground
from duskfall.cli.display import ConsoleView
from duskfall.core.events import Event
from duskfall.core.terminal import PlainTable, guarded_console, plain
from duskfall.testing.hostile import (
    HYPERLINK,
    MARKUP_FRAME_TYPE,
    MARKUP_GAME_ID,
    MARKUP_TEXT,
    answer_saying,
    markup_shown,
    markup_tournament,
    obeyable,
    seated_and_over,
)
from duskfall.testing.stub_server import StubServer


def _terminal() -> tuple[Any, io.StringIO]:
    out = io.StringIO()
    console = guarded_console(file=out, width=300, force_terminal=True, color_system="truecolor")
    return console, out


def test_plain_text_in_a_line_of_markup_prints_as_said() -> None:
    console, out = _terminal()
    console.print(f"[yellow]seat 3 says:[/] {plain(MARKUP_TEXT)}", highlight=False)
    shown = out.getvalue()
    assert markup_shown(shown) and HYPERLINK not in shown
    assert "\\x1b[2J" in shown and "\x1b[2J" not in shown  # the screen clear escaped
    assert plain("a\\") == "a\\\\"  # a trailing backslash escapes nothing after it


def test_a_line_whose_markup_does_not_parse_prints_as_it_is() -> None:
    console, out = _terminal()
    console.print("oops [/bold] tail", highlight=False)  # no MarkupError
    assert "oops [/bold] tail" in out.getvalue()


def test_a_line_the_god_view_cannot_show_is_left_out(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:  # a variant whose line for an event fails
        def format_event(self, event: Event) -> str:
            raise KeyError("winner")

    console, out = _terminal()
    view = ConsoleView(cast(Any, Broken()), console)
    view.on_event(Event("game_end", {}, source="rules"))  # no exception: the game goes on
    view.on_event(Event("thought", {"seat": 1, "text": MARKUP_TEXT}, source="llm"))
    assert "could not be shown" in caplog.text and markup_shown(out.getvalue())


def test_a_plain_tables_cells_are_text() -> None:
    console, out = _terminal()
    table = PlainTable(title="entrants [/bold]")
    table.add_column("name")
    table.add_row(MARKUP_TEXT)
    console.print(table)
    shown = out.getvalue()
    assert "entrants [/bold]" in shown and HYPERLINK not in shown
    assert "[link=https://evil.example]click[/link]" in shown


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    server = StubServer(answer=answer_saying(MARKUP_TEXT))
    in_background(server.start())
    yield server
    in_background(server.close())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "options"),
    [("mafia", []), ("werewolf", ["--preset", "werewolf-6"]), ("sports-mafia", [])],
)
def test_a_markup_speech_plays_to_the_end_and_replays_literally(
    variant: str,
    options: list[str],
    stub: StubServer,
    cli: CliRun,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))
    log = tmp_path / "game.jsonl"
    code, out, err = cli("play", "-v", variant, *options, "--seed", "3",
                         "--agents", f"llm:openai:stub@{stub.url}", "--log", str(log))  # fmt: skip
    assert code == 0, out + err
    assert markup_shown(out), out[-2000:]
    assert MARKUP_TEXT.replace("\x1b", "\\u001b") in log.read_text()  # logged as said
    code, out, err = cli("replay", str(log))
    assert code == 0, out + err
    assert "replay verified" in out and markup_shown(out), out[-2000:]
    assert obeyable(out + err) == []


async def _hostile_server() -> tuple[asyncio.Server, int]:
    """A server that seats every client in a game whose id is markup, and ends it at once."""

    async def seat(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(seated_and_over())
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(seat, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_connect_shows_a_hostile_servers_game_id_as_said(
    cli: CliRun, in_background: InBackground[Any]
) -> None:
    server, port = in_background(_hostile_server())
    try:
        code, out, err = cli("connect", "--port", str(port), "--timeout", "10")
    finally:
        server.close()
    assert code == 0, out + err
    shown = " ".join(out.split())  # as one line, however the terminal wrapped it
    assert f"of {MARKUP_GAME_ID}: winner [red]red[/red]" in shown and HYPERLINK not in out


@pytest.mark.subprocess
def test_tournament_prints_a_remote_entrants_frame_type_as_sent(
    cli: CliRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = markup_tournament(tmp_path)
    code, out, err = cli("tournament", "run", str(config), "--db", str(tmp_path / "index.db"))
    assert code == 1, out + err
    failed = [line for line in out.splitlines() if line.startswith("failed game:")]
    assert any(MARKUP_FRAME_TYPE in line for line in failed), out + err
    assert "Traceback" not in out + err


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every command of the app's click tree, with the words that call it."""
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():  # a group
        yield from _commands(sub, (*path, name))


def _extras(command: Any) -> set[str]:
    texts = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
    return {extra for text in texts for extra in re.findall(r"duskfall\[\w+\]", text)}


def test_every_help_shows_the_extras_it_names(cli: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    from duskfall.cli import _load_commands, app

    monkeypatch.setenv("COLUMNS", "200")
    _load_commands()
    named = {}
    for path, command in _commands(typer.main.get_command(app)):
        extras = _extras(command)
        if not extras:
            continue
        code, out, err = cli(*path, "--help")
        assert code == 0, out + err
        named[" ".join(path)] = extras
        for extra in extras:
            assert extra in out, f"duskfall {' '.join(path)} --help:\n{out}"
    assert named["serve"] == {"duskfall[web]"} and named["export"] == {"duskfall[export]"}
