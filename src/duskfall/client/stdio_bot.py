"""A bot that needs no socket code: JSON lines on its standard input and output.

``duskfall run-bot -- CMD ARGS`` connects to a game server as one seat and starts ``CMD`` once
for the game. For every request that needs an answer it writes one line to the program's
standard input: the ``ACTION_REQUEST`` as the server sent it (``phase``, ``valid_actions``,
``observation``, ``request_id``, ``deadline_ms``...), plus ``events`` (the ``GAME_EVENT``s that
came since the previous line, so the program sees everything its seat may know) and, after a
refusal, ``error`` (the server's reason). The program answers each line with one line: the
action object (``{"type": "VOTE", "target": 3}``), or ``{"action": {...}}``. Its standard error
is passed through. At the end of the game it gets one last line, ``{"type": "GAME_OVER", ...}``,
and its standard input closes.

Each answer must come within the request's ``deadline_ms``; a program that is late, writes
something that is not a JSON object, or exits, is said so in one line on standard error, and the
server's fallback plays for it (a late answer is dropped, never sent for a later request).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Sequence
from typing import Any

from duskfall.client.aio import AsyncClient
from duskfall.core.terminal import printable
from duskfall.protocol.messages import ActionRequest, ErrorMessage, GameEvent

MAX_LINE = 1 << 20  # longest answer line read from the program, bytes
MARGIN = 0.25  # seconds kept from the deadline for the answer to reach the server
EXIT_GRACE = 3.0  # seconds the program has to exit once its input closed


class BotProgramError(RuntimeError):
    """The program could not be started, or stopped answering for good."""


class StdioBot:
    """One program, spoken to in JSON lines (one request in, one action out)."""

    def __init__(self, command: Sequence[str]) -> None:
        if not command:
            raise BotProgramError("run-bot needs the bot's command after --")
        self.command = list(command)
        self.process: asyncio.subprocess.Process | None = None
        self.thinking = 0.0  # seconds the program took to answer, over the game
        self.answers = 0

    async def start(self) -> None:
        try:
            self.process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=MAX_LINE,
                start_new_session=True,
            )
        except OSError as exc:
            raise BotProgramError(f"cannot start {self.command[0]!r}: {exc.strerror}") from None

    async def send(self, line: dict[str, Any]) -> None:
        """Write one line to the program (nothing if it has gone)."""
        process = self.process
        if process is None or process.stdin is None or process.stdin.is_closing():
            return
        process.stdin.write(json.dumps(line, separators=(",", ":")).encode() + b"\n")
        with contextlib.suppress(ConnectionError, OSError):
            await process.stdin.drain()

    async def ask(self, line: dict[str, Any], seconds: float) -> dict[str, Any] | None:
        """The program's answer to ``line`` within ``seconds``, or None (said on stderr)."""
        process = self.process
        if process is None or process.stdout is None:
            return None
        await self.send(line)
        start = time.monotonic()
        try:
            raw = await asyncio.wait_for(process.stdout.readline(), max(seconds, 0.01))
        except TimeoutError:
            _say(f"the bot did not answer request {line.get('request_id')} within {seconds:.1f} s")
            await self._skip_late_answer()
            return None
        except ValueError:  # a line longer than MAX_LINE
            _say(f"the bot's answer is longer than {MAX_LINE} bytes: not sent")
            return None
        self.thinking += time.monotonic() - start
        if not raw:
            raise BotProgramError("the bot's program closed its output (did it exit?)")
        self.answers += 1
        return _action_of(raw)

    async def _skip_late_answer(self) -> None:
        """A late answer still comes: read and drop it, so it never answers a later request."""
        process = self.process
        if process is None or process.stdout is None:
            return
        with contextlib.suppress(TimeoutError, ValueError):
            await asyncio.wait_for(process.stdout.readline(), 30.0)

    async def stop(self) -> int | None:
        """Close the program's input; stop it (and its group) if it does not exit by itself."""
        process = self.process
        if process is None:
            return None
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), EXIT_GRACE)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        return process.returncode


def _action_of(raw: bytes) -> dict[str, Any] | None:
    """The action in one answer line, or None (said on stderr)."""
    try:
        answer = json.loads(raw)
    except ValueError:
        _say(f"the bot's answer is not JSON: {printable(raw[:80].decode(errors='replace'))}")
        return None
    if isinstance(answer, dict) and isinstance(answer.get("action"), dict):
        answer = answer["action"]
    if not isinstance(answer, dict):
        _say(f"the bot's answer is not a JSON object: {printable(str(answer)[:80])}")
        return None
    return answer


def _say(text: str) -> None:
    import sys

    print(f"run-bot: {text}", file=sys.stderr, flush=True)


class StdioBotClient(AsyncClient):
    """An :class:`AsyncClient` whose decisions come from a :class:`StdioBot`."""

    def __init__(self, host: str, port: int, bot: StdioBot, **options: Any) -> None:
        options.setdefault("send_hello", True)
        super().__init__(host, port, **options)
        self.bot = bot
        self._events: list[dict[str, Any]] = []
        self._error: str | None = None

    def on_event(self, event: GameEvent) -> None:
        self._events.append(event.model_dump(mode="json", exclude_none=True))

    def on_error(self, error: ErrorMessage) -> None:
        if error.request_id is not None:  # a refused answer: the reason goes with the re-ask
            self._error = error.detail or error.message

    async def determine_action(self, request: ActionRequest) -> dict[str, Any] | None:
        line: dict[str, Any] = request.model_dump(mode="json", exclude_none=True)
        line["events"], self._events = self._events, []
        if self._error is not None:
            line["error"], self._error = self._error, None
        deadline = (request.deadline_ms or 60_000) / 1000 - MARGIN
        return await self.bot.ask(line, deadline)

    async def finish(self) -> None:
        """Tell the program the game is over and let it go."""
        over = self.session.game_over
        if over is not None:
            end = over.model_dump(mode="json", exclude_none=True)
            await self.bot.send({**end, "type": "GAME_OVER", "events": self._events})
        await self.bot.stop()


async def run_bot(
    host: str,
    port: int,
    command: Sequence[str],
    *,
    token: str | None = None,
    name: str | None = None,
    connect_timeout: float = 10.0,
) -> GameEvent | None:
    """Play one seat with the program ``command``; returns the GAME_OVER event (None if the
    game did not end for this client)."""
    bot = StdioBot(command)
    await bot.start()
    client = StdioBotClient(host, port, bot, name=name, connect_timeout=connect_timeout)
    try:
        await client.connect(token=token)
        return await client.run()
    finally:
        await client.finish()
        await client.close()
