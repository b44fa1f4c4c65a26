"""What a variant tells a language-model seat, piece by piece: its prompt kit.

duskfall composes every LLM prompt from these pieces (:mod:`duskfall.core.transcript`), the
same way for every variant, so that a seat is shown everything it may know and nothing else:

* ``system(obs, coaching=...)``: fixed for the whole game for this seat (rules of the roles
  in play, the seat's name, role, team and team-mates): nothing that changes, so a provider
  can cache it;
* ``period(entry)``: the part of the game an event belongs to (``Night 1``, ``Day 2``), under
  whose header it is shown;
* ``line(entry, obs)``: the event as this seat is shown it, and its digest line for days that
  are summarised (deaths, votes, claims, accusations and private results are always kept);
* ``situation(obs, coaching=...)``: the seat's standing now (who lives, what it privately
  knows now: checks, potions, last protection, team-mates alive or dead), every seat labelled;
* ``decision(obs, legal, coaching=...)``: the question, every option labelled, what each field
  of the answer means, and an example with placeholders (``"<seat>"``) in place of real
  choices, shaped exactly like the schema (the terminal shows a person the question and
  options only);
* ``entries(obs)``: the history an observation itself carries (what a remote client can show),
  or None when the observation carries none.

An *entry* is a flattened event: ``{"kind", "day", "phase", **payload}``. ``coaching`` off
(the default, for measurement) means rules, role, facts and legal choices only; on adds
strategy hints and heuristic priorities.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from duskfall.core.events import Event

Entry = Mapping[str, Any]

PLACEHOLDER_OPEN = "<"
PLACEHOLDER_CLOSE = ">"


def flatten(event: Event) -> dict[str, Any]:
    """An event as a history entry: ``day``, ``phase``, ``kind`` and its payload."""
    return {"day": event.day, "phase": event.phase, "kind": event.kind, **event.payload}


def is_placeholder(value: Any) -> bool:
    """Whether ``value`` is an example's placeholder such as ``"<seat>"``."""
    return (
        isinstance(value, str)
        and len(value) > 2
        and value.startswith(PLACEHOLDER_OPEN)
        and value.endswith(PLACEHOLDER_CLOSE)
    )


@dataclass(frozen=True, slots=True, order=True)
class Period:
    """A part of the game with its own header.

    ``order`` sorts periods through the game; ``day`` is the day number the period counts as
    when deciding what is recent (night 2 and day 2 both count as day 2); ``title`` is the
    header (``Night 2``). The opening (deal, roles) is day 0.
    """

    order: int
    day: int = field(compare=False)
    title: str = field(compare=False)


@dataclass(frozen=True, slots=True)
class Line:
    """One event as a seat is shown it; ``digest`` is its line in a summarised day (None: the
    text itself is short enough to be kept as it is)."""

    text: str
    digest: str | None = None

    @property
    def summary(self) -> str:
        return self.text if self.digest is None else self.digest


@dataclass(frozen=True, slots=True)
class DecisionPrompt:
    """The decision as asked: ``text`` (the question and its labelled options), ``example``:
    an action shaped like the schema, real choices replaced by placeholders, and ``fields``:
    what each field of that action means (for an answer in JSON: a person at the terminal is
    shown ``text`` only)."""

    text: str
    example: Mapping[str, Any]
    fields: str = ""


class PromptKit(Protocol):
    """A variant's pieces of an LLM prompt (see the module docstring)."""

    @property
    def markers(self) -> frozenset[str]:
        """Event kinds that only open a period (``night_start``): shown as its header."""
        ...

    def system(self, obs: Mapping[str, Any], *, coaching: bool) -> str: ...

    def period(self, entry: Entry) -> Period: ...

    def line(self, entry: Entry, obs: Mapping[str, Any]) -> Line | None:
        """The entry as the seat is shown it; None only for a marker kind."""
        ...

    def situation(self, obs: Mapping[str, Any], *, coaching: bool) -> str: ...

    def decision(self, obs: Mapping[str, Any], legal: Any, *, coaching: bool) -> DecisionPrompt: ...

    def entries(self, obs: Mapping[str, Any]) -> Sequence[Entry] | None: ...
