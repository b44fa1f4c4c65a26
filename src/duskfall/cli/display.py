"""Showing a game in the terminal as it happens (god view)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from duskfall.core import event_kinds as kinds
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.variant import State, Variant


def runtime_line(event: Event) -> str | None:
    """Lines for the runtime's own events (thoughts, speech, retries, fallbacks)."""
    p = event.payload
    if event.kind == kinds.THOUGHT:
        return f"[dim]  ({p['seat']} thinks: {escape(str(p['text'])[:300])})[/]"
    if event.kind == kinds.INVALID_ACTION:
        return f"[yellow]  seat {p['seat']} answer refused: {escape(str(p['error']))}[/]"
    if event.kind == kinds.FALLBACK:
        return f"[yellow]  seat {p['seat']} falls back to {p['action']} ({escape(p['reason'])})[/]"
    if event.kind == kinds.DECISION_TIMEOUT:
        return f"[yellow]  seat {p['seat']} timed out[/]"
    if event.kind == kinds.PARTICIPANT_ERROR:
        return f"[yellow]  seat {p['seat']} failed: {escape(str(p['error']))}[/]"
    return None


class ConsoleView:
    """An observer that prints every event in the god view."""

    def __init__(self, variant: Variant, console: Console, show_runtime: bool = True) -> None:
        self.variant = variant
        self.console = console
        self.show_runtime = show_runtime

    def on_event(self, event: Event) -> None:
        if event.source == "rules":
            line = self.variant.format_event(event)
        elif self.show_runtime:
            line = runtime_line(event)
        else:
            line = None
        if line:
            self.console.print(line, highlight=False)

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


def outcome_line(outcome: Outcome) -> str:
    if outcome.winner is None:
        return f"[bold]Draw[/] ({outcome.termination.value}: {outcome.reason})"
    return f"[bold green]{outcome.winner} wins[/] ({outcome.reason})"


def seed_line(seed: int) -> str:
    """The seed, shown once the game is over (it gives away the deal while it runs)."""
    return f"seed {seed} (play it again with --seed {seed})"


def roles_line(state: State) -> str:
    """Every seat's role, for the end of a game a person played (their view never had it)."""
    return "roles: " + ", ".join(f"{seat}={role}" for seat, role in sorted(state.roles().items()))


def resume_hint(log_path: Path | None, db: Path | None = None) -> str:
    """What to print when the user stops a game with Ctrl-C: how to continue it."""
    if log_path is None:
        return "\ninterrupted (the game had no log to resume from)"
    where = f" --db {db}" if db is not None else ""
    return f"\ninterrupted; continue with: duskfall resume {log_path}{where}"
