"""Item 14: untrusted text is never markup. From outside, on a terminal that takes colours
(``FORCE_COLOR``): a model that says ``oops [/bold] tail``, a hyperlink and a colour in every
free text plays each variant to its end, and ``play`` and ``replay`` show the words as said (no
hyperlink); a hostile server's game id reaches ``connect`` as sent; a remote entrant's frame
type reaches ``tournament run``'s "failed game:" line as sent; ``serve --help`` and
``export --help`` name their extras whole."""

from __future__ import annotations

import re
import socket
import threading

from duskfall.testing.hostile import (
    HYPERLINK,
    MARKUP_FRAME_TYPE,
    MARKUP_GAME_ID,
    MARKUP_TEXT,
    answer_saying,
    markup_shown,
    markup_tournament,
    seated_and_over,
)
from hardening_probes import Background, Duskfall, Run, Tally, stub

ITEM = 14
TITLE = "untrusted text never markup"
OUTSIDE = True

TERMINAL = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "250"}
VARIANTS = [("mafia", []), ("werewolf", ["--preset", "werewolf-6"]), ("sports-mafia", [])]


def _shown(text: str) -> str:
    """``text`` without its colours (what a person reads)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _said(run: Run, what: str, tally: Tally) -> None:
    tally.check(run.code == 0, f"{what}: exit {run.code}: {run.err.strip()[-200:]}")
    tally.check(markup_shown(_shown(run.out)), f"{what}: the words not shown as said")
    tally.check(HYPERLINK not in run.text, f"{what}: a hyperlink")


def _hostile_server() -> tuple[socket.socket, threading.Thread]:
    """A TCP server that seats one client in a game whose id is markup, and ends it at once."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with listener, listener.accept()[0] as client:
            client.sendall(seated_and_over(winner="[red]x[/red]"))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener, thread


def probe(duskfall: Duskfall, background: Background, tally: Tally) -> None:
    logs = duskfall.work / "markup"
    logs.mkdir()
    with stub(background, answer=answer_saying(MARKUP_TEXT)) as server:
        for variant, options in VARIANTS:
            log = logs / f"{variant}.jsonl"
            args = ["play", "-v", variant, *options, "--seed", "3"]
            args += ["--agents", f"llm:openai:stub@{server.url}", "--log", str(log)]
            _said(duskfall.run(*args, env=TERMINAL, timeout=300), f"play {variant}", tally)
            if log.exists():
                _said(duskfall.run("replay", str(log), env=TERMINAL), f"replay {variant}", tally)
            else:
                tally.check(False, f"replay {variant}: no log")
    listener, thread = _hostile_server()
    port = listener.getsockname()[1]
    run = duskfall.run("connect", "--port", str(port), "--timeout", "10", env=TERMINAL)
    thread.join(10)
    shown = _shown(run.out)
    tally.check(run.code == 0 and MARKUP_GAME_ID in shown, f"connect: game id {run.text[-200:]!r}")
    tally.check(HYPERLINK not in run.text, "connect: a hyperlink")
    folder = duskfall.work / "markup-tournament"
    folder.mkdir()
    run = duskfall.run(
        "tournament", "run", str(markup_tournament(folder)), env=TERMINAL, timeout=120
    )
    failed = [line for line in _shown(run.out).splitlines() if "failed game:" in line]
    tally.check(
        any(MARKUP_FRAME_TYPE in line for line in failed), f"tournament: {run.text[-300:]!r}"
    )
    tally.check("Traceback" not in run.text, "tournament: a traceback")
    for command, extra in (("serve", "duskfall[web]"), ("export", "duskfall[export]")):
        run = duskfall.run(command, "--help", env={"COLUMNS": "200"})
        tally.check(run.code == 0 and extra in run.out, f"{command} --help: {extra} eaten")
