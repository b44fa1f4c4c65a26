"""Showing a game in the terminal as it happens (god view)."""

from __future__ import annotations

import logging
from pathlib import Path

from rich.console import Console

from duskfall.cli import fail
from duskfall.core import event_kinds as kinds
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.terminal import plain
from duskfall.core.variant import State, Variant
from duskfall.session import PreparedGame

log = logging.getLogger(__name__)


def runtime_line(event: Event) -> str | None:
    """Lines for the runtime's own events (thoughts, speech, retries, fallbacks), in rich
    markup: every value from the event goes through :func:`plain`."""
    p = event.payload
    seat = plain(p.get("seat"), one_line=True)
    if event.kind == kinds.THOUGHT:
        return f"[dim]  ({seat} thinks: {plain(str(p['text'])[:300])})[/]"
    if event.kind == kinds.INVALID_ACTION:
        return f"[yellow]  seat {seat} answer refused: {plain(p['error'])}[/]"
    if event.kind == kinds.FALLBACK:
        return f"[yellow]  seat {seat} falls back to {plain(p['action'])} ({plain(p['reason'])})[/]"
    if event.kind == kinds.DECISION_TIMEOUT:
        return f"[yellow]  seat {seat} timed out[/]"
    if event.kind == kinds.PARTICIPANT_ERROR:
        return f"[yellow]  seat {seat} failed: {plain(p['error'])}[/]"
    return None


class ConsoleView:
    """An observer that prints every event in the god view.

    ``showed_end`` says whether the variant's own end-of-game line (a rules event with the
    ``winner``) was printed, so that the result is not printed a second time.
    """

    def __init__(
        self,
        variant: Variant,
        console: Console,
        show_runtime: bool = True,
        numbered: bool = False,
    ) -> None:
        self.variant = variant
        self.console = console
        self.show_runtime = show_runtime
        self.numbered = numbered  # each line after its event number (for fork --at/--replace)
        self.showed_end = False
        self._warned = False  # a line failed to show (said once)

    def on_event(self, event: Event) -> None:
        """Print the event's line; a line that cannot be made or printed is left out with a
        warning (what a display does never ends a game)."""
        try:
            self._show(event)
        except Exception as exc:
            if not self._warned:
                self._warned = True
                log.warning("event %s (%s) could not be shown: %r", event.seq, event.kind, exc)

    def _show(self, event: Event) -> None:
        if event.source == "rules":
            line = self.variant.format_event(event)
        elif self.show_runtime:
            line = runtime_line(event)
        else:
            line = None
        if line:
            shown = f"[dim]{event.seq:>5}[/] {line}" if self.numbered else line
            self.console.print(shown, highlight=False)
            self.showed_end |= event.source == "rules" and "winner" in event.payload

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


def follow(game: PreparedGame, console: Console, quiet: bool) -> ConsoleView | None:
    """The god view of ``game`` printed as it plays on, unless ``quiet`` or a person plays a
    seat (a person's seat is shown its own view only)."""
    if quiet or "human" in game.agents:
        return None
    view = ConsoleView(game.variant, console)
    game.record.observers.append(view)
    return view


def outcome_line(outcome: Outcome) -> str:
    """The result of a game, in rich markup (its reason may quote a seat's error)."""
    reason = plain(outcome.reason)
    if outcome.winner is None:
        return f"[bold]Draw[/] ({outcome.termination.value}: {reason})"
    return f"[bold green]{plain(outcome.winner)} wins[/] ({reason})"


def seed_line(seed: int) -> str:
    """The seed, shown once the game is over (it gives away the deal while it runs)."""
    return f"seed {seed} (play it again with --seed {seed})"


def show_end(
    console: Console,
    outcome: Outcome,
    seed: int,
    log_note: str,
    view: ConsoleView | None,
    roles: str | None = None,
) -> None:
    """The end of a played game: its result (unless the view showed it), every role where a
    person played (``roles``), the seed, the log; a game stopped by a failing seat is one
    error line and exit status 1."""
    aborted = outcome.termination is Termination.ABORTED
    if not aborted and (view is None or not view.showed_end):
        console.print(outcome_line(outcome))
    if roles is not None:
        console.print(roles, highlight=False, markup=False)
    console.print(seed_line(seed), highlight=False)  # only now: the seed gives away the deal
    console.print(log_note, highlight=False, markup=False)
    if aborted:
        fail(
            f"the game was aborted: {outcome.reason}; to play such a seat's fallbacks to the "
            "end instead, pass --on-seat-failure fallback",
            code=1,
        )


def roles_line(state: State) -> str:
    """Every seat's role, for the end of a game a person played (their view never had it)."""
    return "roles: " + ", ".join(f"{seat}={role}" for seat, role in sorted(state.roles().items()))


def resume_hint(log_path: Path | None, db: Path | None = None) -> str:
    """What to print when the user stops a game with Ctrl-C: how to continue it."""
    if log_path is None:
        return "\ninterrupted (the game had no log to resume from)"
    where = f" --db {db}" if db is not None else ""
    return f"\ninterrupted; continue with: duskfall resume {log_path}{where}"
