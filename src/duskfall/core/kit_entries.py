"""What a variant gives the agent writer's kit: the check-bot's games and report rows, and the
tables the wire catalog plays (declared by the variant, read by :mod:`duskfall.kit`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CheckTable:
    """One ``check-bot`` game: its name and config, the program's role (at seat 0: an ordered
    deal, or a seed searched for the role), what the steering bots aim at (``spare``: never
    harm seat 0; ``voters``: seats 1 and 3 run for sheriff; ``witch``, ``hunter``, ``badge``,
    ``tie``: the kit's other goals), a fault (``reconnect``, ``slow``) and the deadline."""

    name: str
    config: Mapping[str, Any]
    goal: str = ""
    role: str | None = None
    fault: str | None = None
    deadline_ms: int = 10_000


@dataclass(frozen=True)
class KitEntries:
    """A variant's entries in the kit.

    * ``rows``: the check-bot report's rows: every decision kind (and rare case, such as
      ``VOTING (re-vote among tied)``), in order;
    * ``tables``: the check-bot's games;
    * ``catalog``: configs whose random games reach every decision kind and event (the
      catalog adds a table dealing every declared role);
    * ``docs``: where its decisions are documented (the report links failures there).
    """

    rows: Sequence[str] = ()
    tables: Sequence[CheckTable] = ()
    catalog: Sequence[Mapping[str, Any]] = field(default_factory=lambda: ({},))
    docs: str = "docs/protocol.md"
