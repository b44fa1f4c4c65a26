"""``duskfall check-bot -- COMMAND...``: does a program play the protocol right?

Each scenario (:mod:`duskfall.kit.scenarios`) starts a real server on the loopback interface
with the program's seat at 0 and steering bots in the others, puts a recording proxy
(:mod:`duskfall.kit.proxy`) in front of it, and runs the program once, with the proxy's host
and port (``{host}``/``{port}`` in the command, else appended as the last two arguments;
also ``DUSKFALL_HOST``/``DUSKFALL_PORT`` in its environment). With ``ws`` the program connects
over WebSocket instead (``{ws_url}``, else the URL appended; ``DUSKFALL_WS_URL``), through a
WebSocket proxy. It plays to the end of the game.

Then every request the program was asked is judged from the frames: accepted, refused (the
program's frame and the server's reason), timed out, or never answered. The checks:

* one per decision kind of every variant (and per case where a kind has rare ones: the
  sports-mafia re-vote among tied players and the eliminate-all round): passed when every
  request of that kind was answered in time and accepted at once;
* ``reconnect``: the proxy cuts the program's connection as its third request comes; it must
  come back with its ``HELLO`` token, answer that request (sent again) and go on;
* ``state updates``: the other seats move as people and remote seats do, so the server sends
  the program a state update (a request with empty ``valid_actions``) after their moves; it
  must answer none of them (each answer draws a ``not_your_turn`` or ``player_dead`` ERROR);
* ``slow answer``: a game with 1 ms deadlines, so every answer is late: the program must
  take the ``TIMEOUT``s and its ``stale_request`` errors and play on to the end (the other
  seats wait for its late answers to its first requests, up to the deadline, so a program that
  thinks for seconds is still in the game when its answers come);
* ``stale id``: in that game every answer must echo its ``request_id``, so that a late answer
  is refused as stale and never taken for the next request.

Every other game gives the program ``deadline`` seconds (10 by default) per request, as a real
server does: a slow program passes within it, and a request it lets pass fails its kind's row
(after :data:`BENCH_AFTER` in a row a stand-in plays its seat until it sends something, as a
server's ``bench_after`` does, so a silent program costs a few deadlines per game, not one per
request).
A program that exits ends its game at once (its scenario's rows say so, with the last lines of
its standard error); one that exits before its first answer in the first game ends the check.

A kind that no scenario reached (the program's own choices decide some: a badge pass needs it
to run for sheriff) is reported as such, not as a failure.

The program is trusted with nothing: it runs in a process group of its own, killed whole when its
game is over (a child it forked does not outlive the check); its standard error is read as a
bounded tail (:func:`~duskfall.arena.programs.tail`), and every field of the report is cut to
one short line, whatever it sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.agents.kinds import register_agent_kind
from duskfall.arena.programs import stop, tail
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant, variant_ids
from duskfall.kit.proxy import Frame, Proxy, WsProxy
from duskfall.kit.scenarios import (
    DEADLINE,
    DIRECTORS,
    SCENARIOS,
    SLOW_WAITS,
    Director,
    Scenario,
)
from duskfall.runtime.capped import one_line
from duskfall.server import GameServer, ServerSettings

PASS, FAIL, NOT_REACHED = "pass", "FAIL", "not reached"
EXIT_GRACE = 5.0
BENCH_AFTER = 3  # requests let pass in a row before a stand-in plays (until the program is back)
STDERR_LINES = 12  # the lines of the program's standard error a failure shows
ANSWERS_UPDATE = ("not_your_turn", "player_dead")  # the ERRORs an answer to a state update draws
FIELD_CHARS = 160  # what a report shows of a frame's field
DETAIL_CHARS = 400  # what a report shows of a row's detail
NAME_CHARS = 60  # ... and of its check's name (a phase the server named)
DOCS_DEFAULT = "docs/protocol.md"
CUT_AT = 3  # the reconnect scenario cuts the connection as its 3rd request comes
DOCS = {
    "reconnect": "docs/protocol.md#hello-extension-1",
    "state updates": "docs/protocol.md#action_request",
    "slow answer": "docs/protocol.md#timeout-and-fallback-extensions",
    "stale id": "docs/protocol.md#action_response",
}
"""Where the checks that are not a variant's are documented (a variant's: its ``kit.docs``)."""


@dataclass
class Row:
    """One line of the report."""

    variant: str
    check: str
    result: str = NOT_REACHED
    answered: int = 0
    detail: str = ""
    scenario: str = ""  # the game a failure was seen in

    HEADER = ("result", "check", "answers", "detail")

    @property
    def docs(self) -> str:
        if self.check in DOCS:
            return DOCS[self.check]
        if self.variant in variant_ids():
            return get_variant(self.variant).info.kit.docs
        return DOCS_DEFAULT

    def name(self) -> str:
        return one_line(f"{self.variant} {self.check}", NAME_CHARS)

    @classmethod
    def header(cls, width: int) -> str:
        """The table's header line, over rows of names padded to ``width``."""
        result, check, answers, detail = cls.HEADER
        return f"{result:<11} {check.ljust(width)}  {answers:>7}  {detail}"

    def line(self, width: int) -> str:
        """The row as one line of the report (its name padded to ``width``)."""
        line = f"{self.result:<11} {self.name().ljust(width)}  {self.answered:>7}  "
        line += one_line(self.detail, DETAIL_CHARS)
        return line + (f"  (see {self.docs})" if self.result == FAIL else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "check": one_line(self.check, NAME_CHARS),
            "result": self.result,
            "answers": self.answered,
            "detail": one_line(self.detail, DETAIL_CHARS),
            "scenario": self.scenario,
            "docs": self.docs,
        }


@dataclass
class Request:
    """A request the program was asked, and what became of it."""

    request_id: int
    check: str
    answers: list[dict[str, Any]] = field(default_factory=list)
    refusal: dict[str, Any] | None = None  # the ERROR
    timed_out: bool = False
    asked_at: float = 0.0
    answered_at: float | None = None


@dataclass
class Played:
    """One scenario's game as the proxy saw it, and the program's exit."""

    scenario: Scenario
    frames: list[Frame]
    status: int | None
    errors: str
    finished: bool
    deadline_ms: int = 10_000

    def answered(self) -> bool:
        return any(f.up and _is(f.message, "ACTION_RESPONSE") for f in self.frames)


@dataclass
class Report:
    """The rows of a check, and the last lines of the program's standard error in each game
    with a failure."""

    rows: list[Row]
    stderr: dict[str, list[str]] = field(default_factory=dict)

    def counts(self) -> tuple[int, int, int]:
        """Passed, failed and not reached."""
        failed = sum(r.result == FAIL for r in self.rows)
        passed = sum(r.result == PASS for r in self.rows)
        return passed, failed, len(self.rows) - failed - passed

    def summary(self) -> str:
        """The one-line verdict (a badge's text): ``check-bot: PASS; 36 passed, ...``."""
        passed, failed, unreached = self.counts()
        verdict = "FAIL" if failed else "PASS"
        return f"check-bot: {verdict}; {passed} passed, {failed} failed, {unreached} not reached"

    def to_json(self) -> dict[str, Any]:
        passed, failed, unreached = self.counts()
        return {
            "ok": not failed,
            "passed": passed,
            "failed": failed,
            "not_reached": unreached,
            "summary": self.summary(),
            "rows": [row.to_json() for row in self.rows],
            "stderr": self.stderr,
        }


def _is(message: Any, kind: str) -> bool:
    return isinstance(message, dict) and message.get("type") == kind


def command_for(command: Sequence[str], host: str, port: int, ws_url: str = "") -> list[str]:
    """``command`` with ``{host}``/``{port}``/``{ws_url}`` filled in, else host and port (or,
    over WebSocket, the URL) appended."""
    places = {"{host}": host, "{port}": str(port), "{ws_url}": ws_url}
    if any(place in part for part in command for place in places):
        out = list(command)
        for place, value in places.items():
            out = [part.replace(place, value) for part in out]
        return out
    return [*command, ws_url] if ws_url else [*command, host, str(port)]


async def play(
    scenario: Scenario,
    command: Sequence[str],
    timeout: float,
    log_dir: Path,
    deadline: float = DEADLINE,
    *,
    ws: bool = False,
) -> Played:
    """Run ``command`` through ``scenario``'s game; the frames it exchanged."""
    register_agent_kind("check-steer", "duskfall.kit.scenarios:make_steering_bot", "check-bot")
    director = DIRECTORS[scenario.name] = Director(deadline=deadline)
    deadline_ms = scenario.deadline_ms if scenario.fault == "slow" else round(deadline * 1000)
    settings = ServerSettings(
        variant=scenario.variant,
        config=dict(scenario.config),
        seed=scenario.seed(lambda seed: ServerSettings(seed=seed).game_seed(0)),
        port=0,
        games=1,
        fill_bots_after=0,
        bot=f"check-steer:{scenario.name}",
        deadline_ms=deadline_ms,
        bench_after=0 if scenario.fault == "slow" else BENCH_AFTER,
        reconnect_grace=15.0,
        log_dir=log_dir,
        ws_port=0 if ws else None,
    )
    server = GameServer(settings)
    await server.start()
    cut_at = CUT_AT if scenario.fault == "reconnect" else None
    hooks: dict[str, Any] = {"on_answer": director.answer, "on_request": director.request}
    proxy = (
        WsProxy(server.ws_port or 0, cut_at=cut_at, **hooks)
        if ws
        else Proxy(server.port, cut_at=cut_at, **hooks)
    )
    await proxy.start()
    ws_url = proxy.url if isinstance(proxy, WsProxy) else ""
    argv = command_for(command, "127.0.0.1", proxy.listen_port, ws_url)
    env = {**os.environ, "DUSKFALL_HOST": "127.0.0.1", "DUSKFALL_PORT": str(proxy.listen_port)}
    if ws_url:
        env["DUSKFALL_WS_URL"] = ws_url
    errors_file = log_dir / f"{scenario.name}.err"
    try:
        with errors_file.open("wb") as errors:
            try:
                process = await asyncio.create_subprocess_exec(
                    *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                    stderr=errors, env=env, start_new_session=True,
                )  # fmt: skip
            except OSError as exc:
                raise ConfigError(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        try:
            finished = await _watch(server, process, timeout, lambda: _over(proxy.frames))
        finally:
            await stop(process, EXIT_GRACE)  # and every process of its group
    finally:
        await proxy.close()
        await server.close()
    text = tail(errors_file)
    return Played(scenario, proxy.frames, process.returncode, text, finished, deadline_ms)


def _over(frames: Sequence[Frame]) -> bool:
    """Whether the program was sent its ``GAME_OVER``."""
    return any(
        not f.up and _is(f.message, "GAME_EVENT") and f.message.get("event") == "GAME_OVER"
        for f in reversed(frames)
    )


async def _watch(
    server: GameServer,
    process: asyncio.subprocess.Process,
    timeout: float,
    over: Callable[[], bool],
) -> bool:
    """Wait for the game's end (True), the program's exit or the timeout."""
    game = asyncio.ensure_future(server.serve())
    exited = asyncio.ensure_future(process.wait())
    try:
        await asyncio.wait({game, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if not game.done():
            if exited.done() and over():
                # it may have left on GAME_OVER, just before the server finished: a moment more
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(game), EXIT_GRACE)
            return game.done()
        return True
    finally:
        exited.cancel()
        if not game.done():
            game.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await game


def _check_of(message: dict[str, Any]) -> str:
    """The check a request belongs to: its phase, and for sports mafia's votes their round."""
    phase = str(message.get("phase"))
    valid = message.get("valid_actions") or {}
    if "eliminate_all" in valid:
        return f"{phase} (eliminate-all)"
    observation = message.get("observation") or {}
    if "vote" in valid and observation.get("tied_players"):
        return f"{phase} (re-vote among tied)"
    return phase


def judge(frames: Iterable[Frame]) -> list[Request]:
    """Every request the program was asked, with its answers and what the server made of them."""
    requests: dict[int, Request] = {}
    open_id: int | None = None
    for frame in frames:
        message = frame.message
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if not frame.up:
            if kind == "ACTION_REQUEST" and message.get("valid_actions"):
                rid = message.get("request_id")
                if isinstance(rid, int) and rid not in requests:
                    requests[rid] = Request(rid, _check_of(message), asked_at=frame.at)
                open_id = rid if isinstance(rid, int) else open_id
            elif kind == "ERROR" and message.get("request_id") in requests:
                request = requests[message["request_id"]]
                code = message.get("code")
                kept = code != "stale_request" and code not in ANSWERS_UPDATE
                if request.refusal is None and kept:
                    request.refusal = message
            elif kind in ("TIMEOUT", "FALLBACK") and message.get("request_id") in requests:
                requests[message["request_id"]].timed_out = kind == "TIMEOUT"
        elif kind == "ACTION_RESPONSE":
            rid = message.get("request_id", open_id)
            if rid in requests:
                request = requests[rid]
                request.answers.append(message)
                if request.answered_at is None:
                    request.answered_at = frame.at
    return list(requests.values())


def _shown(message: Any) -> str:
    """A frame's field as one short line."""
    text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
    return one_line(text, FIELD_CHARS)


def kind_rows(played: Iterable[Played]) -> list[Row]:
    """One row per decision kind (and rare case) of every variant played."""
    runs = list(played)
    variants = list(dict.fromkeys(p.scenario.variant for p in runs))
    rows: list[Row] = []
    for variant in variants:
        by_check = {check: Row(variant, check) for check in get_variant(variant).info.kit.rows}
        for run in runs:
            if run.scenario.variant != variant or run.scenario.fault == "slow":
                continue
            for request in judge(run.frames):
                row = by_check.setdefault(request.check, Row(variant, request.check))
                _grade(row, request, run)
        rows += by_check.values()
    return rows


def _grade(row: Row, request: Request, run: Played) -> None:
    if row.result == FAIL:
        return
    where = f"{run.scenario.name}, request {request.request_id}"
    row.scenario = run.scenario.name
    if request.refusal is not None:
        answer = request.answers[-1] if request.answers else {}
        reason = request.refusal.get("detail") or request.refusal.get("message")
        code = request.refusal.get("code")
        row.result = FAIL
        row.detail = (
            f"{where}: sent {_shown(answer.get('action'))}; {_shown(code)}: {_shown(reason)}"
        )
    elif request.timed_out:
        row.result = FAIL
        row.detail = f"{where}: no answer within its deadline, {run.deadline_ms} ms (TIMEOUT)"
    elif not request.answers:
        if run.finished and run.scenario.fault != "reconnect":  # that one has its own row
            row.result = FAIL
            row.detail = f"{where}: never answered"
    else:
        row.result = PASS
        row.answered += 1


def state_update_rows(runs: Iterable[Played]) -> list[Row]:
    """``state updates``, per variant: the program answered none of the state updates it was
    sent (an answer to one draws a ``not_your_turn`` or ``player_dead`` ERROR; the slow game,
    where every answer is late, is left out)."""
    rows: dict[str, Row] = {}
    refused: dict[str, int] = {}
    for run in runs:
        if run.scenario.fault == "slow":  # late answers draw these ERRORs too
            continue
        row = rows.setdefault(run.scenario.variant, Row(run.scenario.variant, "state updates"))
        last_answer: dict[int, Any] = {}
        for frame in run.frames:
            message = frame.message
            if frame.up and _is(message, "ACTION_RESPONSE"):
                last_answer[frame.connection] = message
            elif (
                not frame.up and _is(message, "ACTION_REQUEST") and not message.get("valid_actions")
            ):
                row.answered += 1  # here: the updates sent
            elif not frame.up and _is(message, "ERROR") and message.get("code") in ANSWERS_UPDATE:
                if row.result != FAIL:
                    row.result, row.scenario = FAIL, run.scenario.name
                    row.detail = (
                        f"{run.scenario.name}: answered a state update (a request with empty "
                        f"valid_actions, never to be answered): sent "
                        f"{_shown(last_answer.get(frame.connection))}; "
                        f"{_shown(message.get('code'))}: {_shown(message.get('detail'))}"
                    )
                refused[row.variant] = refused.get(row.variant, 0) + 1
    for row in rows.values():
        if row.result == FAIL:
            row.detail = f"{refused[row.variant]} ERRORs for answers to state updates; {row.detail}"
        elif row.answered:
            row.result = PASS
            row.detail = f"answered none of the {row.answered} state updates sent"
    return list(rows.values())


def reconnect_row(run: Played) -> Row:
    row = Row(run.scenario.variant, "reconnect", scenario=run.scenario.name)
    connections = sorted({f.connection for f in run.frames})
    later = [
        f.message for f in run.frames if f.up and f.connection > 1 and isinstance(f.message, dict)
    ]
    hello = next((m for m in later if m.get("type") == "HELLO" and m.get("token")), None)
    if len(connections) < 2 or hello is None:
        row.result = FAIL
        row.detail = (
            f"the connection was cut as request {CUT_AT} came; the program did not come back "
            "with its HELLO token"
            + (f" (it exited with status {run.status})" if run.status is not None else "")
        )
        return row
    answered = [r for r in judge(f for f in run.frames if f.connection > 1) if r.answers]
    if not answered or not run.finished:
        row.result = FAIL
        row.detail = "it reclaimed its seat but did not play on to the end"
        return row
    row.result, row.answered = PASS, len(answered)
    row.detail = "reclaimed its seat" + (
        f", last_seq {hello['last_seq']}" if "last_seq" in hello else " (without last_seq)"
    )
    return row


def slow_rows(run: Played) -> list[Row]:
    """``slow answer`` and ``stale id`` from the 1 ms-deadline game."""
    variant = run.scenario.variant
    requests = judge(run.frames)
    answers = [f.message for f in run.frames if f.up and isinstance(f.message, dict)]
    responses = [m for m in answers if m.get("type") == "ACTION_RESPONSE"]
    slow = Row(variant, "slow answer", answered=len(responses), scenario=run.scenario.name)
    stale = Row(variant, "stale id", answered=len(responses), scenario=run.scenario.name)
    timeouts = sum(r.timed_out for r in requests)
    if not run.finished:
        slow.result = FAIL
        slow.detail = f"it stopped playing after {timeouts} TIMEOUTs" + (
            f" (exit status {run.status})" if run.status is not None else ""
        )
    elif not responses:
        slow.result = FAIL
        slow.detail = (
            f"it never answered: its first {SLOW_WAITS} requests timed out at once and the game "
            "waited for its late answers for as long as its deadline"
        )
    else:
        slow.result = PASS
        slow.detail = f"played on through {timeouts} TIMEOUTs"
    missing = [m for m in responses if "request_id" not in m]
    if missing:
        stale.result = FAIL
        stale.detail = (
            f"answers without request_id ({len(missing)}), e.g. {_shown(missing[0])}: a late "
            "one is taken for the next request"
        )
    elif responses:
        known = {r.request_id for r in requests}
        wrong = [m for m in responses if m.get("request_id") not in known]
        if wrong:
            stale.result = FAIL
            stale.detail = f"an answer names a request never sent: {_shown(wrong[0])}"
        else:
            stale.result = PASS
            stale.detail = "every answer echoed its request_id"
    return [slow, stale]


def program_rows(runs: Iterable[Played]) -> list[Row]:
    """A row for each scenario whose program failed (exited early, or the game timed out)."""
    rows = []
    for run in runs:
        if run.finished or run.scenario.fault == "reconnect":
            continue
        last = run.errors.strip().splitlines()[-1:]
        rows.append(
            Row(
                run.scenario.variant,
                f"game {run.scenario.name}",
                FAIL,
                scenario=run.scenario.name,
                detail=(
                    f"the game did not end: the program exited with status {run.status}"
                    if run.status is not None
                    else "the game did not end in time"
                )
                + (f"; its last error line: {_shown(last[0])}" if last else ""),
            )
        )
    return rows


def scenarios_for(variants: Sequence[str] | None, names: Sequence[str] | None) -> list[Scenario]:
    chosen = [
        s
        for s in SCENARIOS
        if (not variants or s.variant in variants) and (not names or s.name in names)
    ]
    if not chosen:
        known = ", ".join(s.name for s in SCENARIOS)
        raise ConfigError(f"no scenario matches; scenarios: {known}")
    return chosen


def _cannot_play(run: Played) -> bool:
    """Whether the program exited before its first answer without the game being over."""
    return run.status is not None and not run.finished and not run.answered()


def stderr_lines(text: str, count: int = STDERR_LINES) -> list[str]:
    """The last ``count`` lines of a standard error tail, each one short line."""
    return [one_line(line, FIELD_CHARS) for line in text.rstrip().splitlines()[-count:]]


async def check(
    command: Sequence[str],
    scenarios: Sequence[Scenario],
    *,
    timeout: float = 600.0,
    deadline: float = DEADLINE,
    ws: bool = False,
    progress: Callable[[str], None] = lambda line: None,
) -> Report:
    """Run every scenario and return the report."""
    if not command:
        raise ConfigError("give the program to check after --, e.g. check-bot -- node bot.js")
    if shutil.which(command[0]) is None and not Path(command[0]).exists():
        raise ConfigError(f"cannot find the program {command[0]!r}")
    runs: list[Played] = []
    with tempfile.TemporaryDirectory(prefix="duskfall-check-") as folder:
        for scenario in scenarios:
            progress(f"{scenario.name}: playing {scenario.variant}...")
            run = await play(scenario, command, timeout, Path(folder), deadline, ws=ws)
            runs.append(run)
            if len(runs) == 1 and _cannot_play(run):  # no use playing on
                progress(f"the program exited with status {run.status} before its first answer")
                break
    rows = kind_rows(runs)
    rows += state_update_rows(runs)
    for run in runs:
        if run.scenario.fault == "reconnect":
            rows.append(reconnect_row(run))
        elif run.scenario.fault == "slow":
            rows += slow_rows(run)
    rows += program_rows(runs)
    failing = {row.scenario for row in rows if row.result == FAIL}
    stderr = {
        run.scenario.name: stderr_lines(run.errors)
        for run in runs
        if run.scenario.name in failing and run.errors.strip()
    }
    return Report(rows, stderr)
