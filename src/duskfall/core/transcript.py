"""A seat's history in words, grouped by day and night, and the prompts composed from a kit.

Every variant's prompts are put together here from its :class:`~duskfall.core.prompting.PromptKit`,
so the three variants follow the same rules:

* the history holds every event the seat was shown, under period headers (``Night 1``,
  ``Day 1``...): verbatim for the current and the previous day, and for older days a digest
  (each event's digest line: deaths, votes, claims, accusations and private results are kept;
  nothing is dropped without a line);
* the output contract is one JSON object ``{"reasoning": ..., "action": {...}}``, reasoning
  first; the decision's example is shaped like its schema, with placeholders for choices.

:func:`stateless_prompts` composes one self-contained (system, user) pair; the LLM agent's
conversation (:mod:`duskfall.llm.conversation`) sends the same pieces turn by turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.prompting import DecisionPrompt, Entry, Line, Period, PromptKit

REASONING_CHARS = 1000
RECENT_DAYS = 2  # the current day and the one before it are shown verbatim
HISTORY_TITLE = "What you have seen so far, by day and night:"
NOTHING_YET = "(nothing yet)"


def contract_text(reasoning_chars: int = REASONING_CHARS) -> str:
    """The output contract, the same for every decision of every variant (no template a
    small model could copy as its answer)."""
    return (
        "Answer each decision with one JSON object holding two fields, in this order: "
        f'"reasoning", where you think the decision through in up to {reasoning_chars} '
        'characters (it stays private), then "action", your decision, shaped like the '
        "example given with the decision. Nothing else in your answer is read."
    )


@dataclass(slots=True)
class Section:
    """The lines of one period, in the order they happened."""

    period: Period
    lines: list[Line] = field(default_factory=list)


def build_sections(
    kit: PromptKit, entries: Iterable[Entry], obs: Mapping[str, Any]
) -> list[Section]:
    """The entries' lines grouped by period (a marker opens its period without a line)."""
    sections: list[Section] = []
    for entry in entries:
        period = kit.period(entry)
        if not sections or sections[-1].period != period:
            sections.append(Section(period))
        line = kit.line(entry, obs)
        if line is None:
            if entry["kind"] not in kit.markers:
                raise ValueError(f"the prompt kit shows no line for a {entry['kind']!r} event")
            continue
        sections[-1].lines.append(line)
    return sections


NOTHING_SEEN = "- (nothing you could see)"
NOTHING_SO_FAR = "- (nothing so far)"


def render_section(
    section: Section, *, digest: bool = False, continued: bool = False, current: bool = False
) -> str:
    """One period under its header; ``digest`` gives each event's digest line; an empty
    ``current`` period has had nothing happen yet, an empty past one nothing the seat saw."""
    title = section.period.title
    if digest:
        title += " (digest)"
    elif continued:
        title += " (continued)"
    body = [f"- {line.summary if digest else line.text}" for line in section.lines]
    empty = NOTHING_SO_FAR if current else NOTHING_SEEN
    return "\n".join([f"[{title}]", *(body or [empty])])


def current_day(sections: Sequence[Section]) -> int:
    return max((s.period.day for s in sections), default=0)


def is_recent(section: Section, day: int) -> bool:
    """Whether a period is shown verbatim when the game is at ``day``."""
    return section.period.day > day - RECENT_DAYS


def render_history(sections: Sequence[Section], *, day: int | None = None) -> str:
    """Every section: old days as digests, the current and previous day verbatim."""
    if not sections:
        return NOTHING_YET
    now = current_day(sections) if day is None else day
    last = len(sections) - 1
    return "\n\n".join(
        render_section(section, digest=not is_recent(section, now), current=i == last)
        for i, section in enumerate(sections)
    )


def render_decision(decision: DecisionPrompt, hint: str | None = None) -> str:
    """The decision, its fields, its example answer, and why a previous answer was refused."""
    example = json.dumps(dict(decision.example))
    parts = [
        *(part for part in (decision.text, decision.fields) if part),
        f'Your "action" is shaped like {example}, each <...> replaced by your choice.',
    ]
    if hint:
        parts.append(f"Your previous answer was refused: {hint} Answer again.")
    return "\n".join(parts)


def render_now(
    kit: PromptKit,
    obs: Mapping[str, Any],
    legal: Any,
    *,
    coaching: bool,
    hint: str | None = None,
    situation: str | None = None,
) -> str:
    """The seat's standing (``situation`` if already rendered) and the decision asked now."""
    if situation is None:
        situation = kit.situation(obs, coaching=coaching)
    decision = render_decision(kit.decision(obs, legal, coaching=coaching), hint)
    return f"Now:\n{situation}\n\n{decision}"


def system_prompt(
    kit: PromptKit,
    obs: Mapping[str, Any],
    *,
    coaching: bool = False,
    reasoning_chars: int = REASONING_CHARS,
) -> str:
    """The seat's fixed system prompt: the output contract, then the kit's rules and role (the
    parts every seat shares come first, so a prefix cache can share them across seats)."""
    return f"{contract_text(reasoning_chars)}\n\n{kit.system(obs, coaching=coaching)}"


def stateless_prompts(
    kit: PromptKit,
    obs: Mapping[str, Any],
    legal: Any,
    entries: Iterable[Entry] | None,
    *,
    hint: str | None = None,
    coaching: bool = False,
    reasoning_chars: int = REASONING_CHARS,
) -> tuple[str, str]:
    """One self-contained (system, user) pair holding everything the seat may know."""
    system = system_prompt(kit, obs, coaching=coaching, reasoning_chars=reasoning_chars)
    parts = []
    if entries is not None:
        parts.append(f"{HISTORY_TITLE}\n\n{render_history(build_sections(kit, entries, obs))}")
    parts.append(render_now(kit, obs, legal, coaching=coaching, hint=hint))
    return system, "\n\n".join(parts)
