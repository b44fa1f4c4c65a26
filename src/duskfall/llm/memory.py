"""A compact running memory: an agent's own notes, bounded so prompts stay small as games grow.

Each decision leaves one short note (what the agent thought, said and did). Notes are
clipped to ``note_chars``; once the notes exceed ``budget_chars`` the oldest are dropped,
and only a count of them remains. A retry of the same decision replaces its note instead
of adding one.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field


def clip(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: max(0, limit - 1)].rstrip() + "…"


@dataclass
class RunningMemory:
    """Bounded notes of one seat, oldest first."""

    budget_chars: int = 400
    note_chars: int = 140
    notes: deque[tuple[str, str]] = field(default_factory=deque)
    forgotten: int = 0

    def note(self, key: str, text: str) -> None:
        """Add (or, for the same ``key`` as the last note, replace) a note."""
        entry = clip(text, self.note_chars)
        if self.notes and self.notes[-1][0] == key:
            self.notes.pop()
        self.notes.append((key, entry))
        while len(self.notes) > 1 and self.size() > self.budget_chars:
            self.notes.popleft()
            self.forgotten += 1

    def size(self) -> int:
        return sum(len(text) + 3 for _, text in self.notes)

    def render(self) -> str:
        """The notes as a short block for a prompt ('' when there are none)."""
        if not self.notes:
            return ""
        lines = [f"- {text}" for _, text in self.notes]
        if self.forgotten:
            lines.insert(0, f"({self.forgotten} older notes omitted)")
        return "\n".join(lines)
