"""A person at the terminal playing one seat (agent kind ``human``), for every variant.

At each decision the player sees what happened since their last turn (their own history
only), their situation and the legal choices (``legal.describe()``). They answer with a
number, a name, a word such as ``abstain``, free text for speeches, or JSON. Answers are
checked on the spot with the same decoding and ``legal.parse`` the handler uses, so a bad
answer is re-asked at once with the rule's hint; typing a player's name works wherever a
seat number is expected. ``?`` shows the situation and the choices again.

Input is read by one daemon thread per stream, so a game that ends, or a deadline that
passes, never leaves the process waiting for a line. End of input makes the seat fail
cleanly (the game goes on with the documented fallback).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any, TextIO

from duskfall.agents.specs import AgentContext
from duskfall.core.errors import ConfigError, IllegalAction
from duskfall.core.variant import Variant
from duskfall.runtime.parsing import decode_reply

DEFAULT_TIMEOUT = 3600.0
HISTORY_KEYS = ("history", "events", "log")


class LineReader:
    """Lines of a text stream, read by a daemon thread and awaited without blocking the loop."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lines: deque[str] = deque()
        self._eof = False
        self._mutex = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None
        self._thread: threading.Thread | None = None

    def _pump(self) -> None:
        while True:
            try:
                line = self._stream.readline()
            except (OSError, ValueError):
                line = ""
            with self._mutex:
                if line:
                    self._lines.append(line.rstrip("\r\n"))
                else:
                    self._eof = True
                waiter, self._waiter = self._waiter, None
            if waiter is not None:
                loop, future = waiter
                with contextlib.suppress(RuntimeError):  # a closed loop waits for nothing
                    loop.call_soon_threadsafe(_wake, future)
            if not line:
                return

    async def readline(self) -> str | None:
        """The next line without its newline, or None at end of input."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._pump, name="duskfall-input", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        while True:
            with self._mutex:
                if self._lines:
                    return self._lines.popleft()
                if self._eof:
                    return None
                future: asyncio.Future[None] = loop.create_future()
                self._waiter = (loop, future)
            try:
                await future
            finally:
                with self._mutex:
                    if self._waiter is not None and self._waiter[1] is future:
                        self._waiter = None


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_READERS: dict[TextIO, LineReader] = {}


def reader_for(stream: TextIO) -> LineReader:
    """One reader per stream, shared by every human seat reading it (hot-seat play)."""
    reader = _READERS.get(stream)
    if reader is None:
        reader = _READERS[stream] = LineReader(stream)
    return reader


class HumanPlayer:
    """The Participant of a person at the terminal (prompts for LLMs are never rendered)."""

    renders_prompts = False
    name = "human"

    def __init__(
        self,
        variant: Variant,
        seat: int,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.variant = variant
        self.seat = seat
        self.decision_timeout = timeout
        self._reader = reader_for(stdin or sys.stdin)
        self._out = stdout or sys.stdout
        self._shown: dict[str, int] = {}

    def describe(self) -> str:
        return "human"

    def _print(self, text: str = "") -> None:
        self._out.write(text + "\n")
        self._out.flush()

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> str:
        observation: Mapping[str, Any] = extra["observation"]
        legal = extra["legal"]
        if extra.get("attempt", 0) == 0:
            self._print()
            self._print(f"=== seat {self.seat}: your turn ({legal.kind}) ===")
            self._show_news(observation)
            self._print(self._view(observation))
        hint = extra.get("hint")
        if hint:
            self._print(f"Not accepted: {hint}")
        while True:
            self._print(f"Choices: {legal.describe()}")
            self._out.write("> ")
            self._out.flush()
            line = await self._reader.readline()
            if line is None:
                self._print()  # end the prompt's line
                raise EOFError("the terminal closed (end of input)")
            text = line.strip()
            if text in ("?", "help"):
                self._print(self._view(observation))
                continue
            try:
                return self._checked(text, legal, observation)
            except IllegalAction as exc:
                self._print(f"Not accepted: {exc.hint}")

    def _checked(self, text: str, legal: Any, observation: Mapping[str, Any]) -> str:
        """``text`` if the rules accept it, else the seat number of a player named ``text``."""
        try:
            legal.parse(decode_reply(text).action)
            return text
        except IllegalAction:
            seat = _seat_named(text, observation)
            if seat is None:
                raise
            legal.parse(decode_reply(str(seat)).action)
            return str(seat)

    def _show_news(self, observation: Mapping[str, Any]) -> None:
        """Print the entries of the seat's history it has not been shown yet."""
        for key in HISTORY_KEYS:
            entries = observation.get(key)
            if not isinstance(entries, list):
                continue
            start = self._shown.get(key, 0)
            for entry in entries[start:]:
                line = self._entry_line(entry, observation)
                if line:
                    self._print(f"  {line}")
            self._shown[key] = len(entries)
            return

    def _entry_line(self, entry: Any, observation: Mapping[str, Any]) -> str | None:
        render = self.variant.info.format_history_entry
        if render is not None:
            return render(entry, observation)
        return entry if isinstance(entry, str) else json.dumps(entry, default=str)

    def _view(self, observation: Mapping[str, Any]) -> str:
        render = self.variant.info.render_view
        if render is not None:
            return render(observation)
        lines = []
        for key, value in observation.items():
            if key in HISTORY_KEYS:
                continue
            shown = value if isinstance(value, str) else json.dumps(value, default=str)
            lines.append(f"{key}: {shown}")
        return "\n".join(lines)


def _seat_named(text: str, observation: Mapping[str, Any]) -> int | None:
    """The seat of the player called ``text`` (ignoring case), from the observation's roster."""
    wanted = text.strip().lower()
    players = observation.get("players")
    if not wanted or not isinstance(players, list):
        return None
    for player in players:
        if isinstance(player, Mapping) and str(player.get("name", "")).lower() == wanted:
            seat = player.get("seat", player.get("player_id"))
            return seat if isinstance(seat, int) else None
    return None


def make_human(ctx: AgentContext) -> HumanPlayer:
    """Agent factory for ``human`` (option ``human_timeout``: seconds per decision).

    ``human:browser`` (a seat played in the web page) is refused: it would print that seat's
    private view to whoever runs the command.
    """
    if ctx.arg == "browser":
        raise ConfigError(
            f"seat {ctx.seat} was played in the browser; a terminal may not take it over "
            "(it would show that seat's private view here)"
        )
    timeout = float(ctx.options.get("human_timeout", DEFAULT_TIMEOUT))
    return HumanPlayer(ctx.variant, ctx.seat, timeout=timeout)
