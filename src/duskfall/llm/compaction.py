"""Compaction of the history a variant puts in each prompt, so it is not re-sent every call.

Variants may list everything a seat has seen so far as bullet lines (``- ...``). An agent
that has already been shown those lines does not need them again in full: a
:class:`HistoryCompactor` remembers which bullet lines it has sent and collapses a run of
already-sent bullet lines to its last ``keep`` lines and one line saying how many were left
out. New lines, and every line that is not a bullet, are always kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BULLET = "- "


@dataclass
class HistoryCompactor:
    """Per-seat memory of the bullet lines already shown; see the module docstring."""

    keep: int = 6
    seen: set[str] = field(default_factory=set)

    def compact(self, prompt: str) -> str:
        lines = prompt.split("\n")
        out: list[str] = []
        run: list[str] = []

        def flush() -> None:
            dropped = len(run) - self.keep
            if dropped > 1:
                out.append(f"- ({dropped} earlier lines you were shown before are left out)")
                out.extend(run[dropped:])
            else:
                out.extend(run)
            run.clear()

        for line in lines:
            if line.startswith(BULLET) and line in self.seen:
                run.append(line)
                continue
            flush()
            out.append(line)
        flush()
        self.seen.update(line for line in lines if line.startswith(BULLET))
        return "\n".join(out)
