"""A person at the terminal playing one seat (agent kind ``human``), for every variant.

At each decision the person sees what their seat saw since their last decision, under day
and night headers, their standing, and the question with its labelled options: the pieces of
an LLM seat's prompt, formatted for people (:mod:`.human_view`). They answer the variant's
form question by question, Enter taking the default shown in brackets (:mod:`.human_form`);
each line is checked on the spot and a refused one asked again with its reason; ``?`` shows
the standing and the question again. When the game ends the person is shown the end (the
votes, the night, the final reveal) since their last decision, even if they died long before.

End of input makes the seat fail cleanly (the game goes on with the documented fallback).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import RenderableType
from rich.text import Text

from duskfall.agents.human_form import fill, form_for, refused
from duskfall.agents.human_input import reader_for
from duskfall.agents.human_view import view_for
from duskfall.agents.kinds import AgentContext
from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.prompting import Entry, flatten
from duskfall.core.terminal import guarded_console
from duskfall.core.variant import Variant
from duskfall.runtime.checking import CheckedAnswer
from duskfall.runtime.parsing import Reply
from duskfall.runtime.participant import BaseParticipant, DecisionRequest

DEFAULT_TIMEOUT = 3600.0
HELP_WORDS = frozenset({"?", "help"})


class HumanPlayer(BaseParticipant):
    """The Participant of a person at the terminal (LLM prompts are never rendered for it)."""

    renders_prompts = False
    reads_history = True
    name = "human"

    def __init__(
        self,
        variant: Variant,
        seat: int,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        width: int | None = None,
    ) -> None:
        self.variant = variant
        self.seat = seat
        self.decision_timeout = timeout
        self._reader = reader_for(stdin or sys.stdin)
        self._out = stdout or sys.stdout
        # what the seat is shown holds other players' words: nothing in them is obeyed
        self._console = guarded_console(file=self._out, highlight=False, emoji=False, width=width)
        self._view = view_for(variant)
        self._shown = 0  # entries of the seat's history shown so far
        self._followed: list[Entry] = []  # the seat's rules events as they happen
        self._followed_shown = 0  # of those, how many a turn has covered
        self._closed = False  # the input has ended: no question is asked again

    def describe(self) -> str:
        return "human"

    def _show(self, renderables: Sequence[RenderableType]) -> None:
        for renderable in renderables:
            self._console.print(renderable)

    def _say(self, text: str) -> None:
        self._console.print(Text(text))

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> CheckedAnswer:
        observation, legal = request.observation, request.legal
        if request.attempt == 0:
            self._turn(observation, legal, request.entries)
        hint = request.hint
        if hint:
            self._say(refused(hint))
        form = form_for(self.variant, observation, legal)
        if form.intro:
            self._say(form.intro)
        ask = functools.partial(self._ask, observation, legal)
        data, action = await fill(form, legal, ask, self._say)
        return CheckedAnswer(data, reply=Reply(action))

    def _turn(
        self, observation: Mapping[str, Any], legal: Any, entries: Sequence[Entry] | None
    ) -> None:
        news: Sequence[Entry] = ()
        if entries is not None:
            news, self._shown = entries[self._shown :], len(entries)
        self._followed_shown = len(self._followed)
        self._console.rule(f"seat {self.seat}: your turn ({legal.kind})")
        self._show(self._view.turn(observation, legal, news))

    async def _ask(self, observation: Mapping[str, Any], legal: Any, prompt: str) -> str:
        """The next line typed after ``prompt`` (``?`` shows the view again and asks again)."""
        while True:
            if self._closed:
                raise EOFError("the terminal closed (end of input)")
            self._out.write(prompt)
            self._out.flush()
            line = await self._reader.readline()
            if line is None:
                self._out.write("\n")
                self._closed = True
                continue
            if line.strip().lower() not in HELP_WORDS:
                return line
            self._show(self._view.again(observation, legal))

    def watch_game(self, game_id: str, log_path: Path | None) -> EndOfGame:
        """Follow the seat's visible events, to show the person the end of the game."""
        return EndOfGame(self)

    def follow(self, event: Event) -> None:
        if event.source == "rules":
            self._followed.append(flatten(event))

    def show_end(self, observation: Mapping[str, Any]) -> None:
        """The events the seat saw since the person's last decision, to the end."""
        news, self._followed_shown = self._followed[self._followed_shown :], len(self._followed)
        self._console.rule(f"seat {self.seat}: the end")
        self._show(self._view.ending(observation, news))


class EndOfGame:
    """The runtime's seat feed of a :class:`HumanPlayer`: the events it may see as they happen,
    then its last observation, from which the end of the game is shown."""

    def __init__(self, player: HumanPlayer) -> None:
        self.player = player

    def on_event(self, event: Event) -> None:
        self.player.follow(event)

    def on_phase_end(self) -> None:
        pass

    def on_final_view(self, observation: Mapping[str, Any]) -> None:
        self.player.show_end(observation)

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


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
