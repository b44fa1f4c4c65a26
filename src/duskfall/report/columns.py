"""The one registry of behaviour metric columns: each metric of
:class:`~duskfall.report.metrics.SeatMetrics` declares its column here, once (its key, header,
cell format, description, the terminal table it sits in, its JSON rounding and whether the
inspect_ai scorer reports it). Every format reads :data:`BEHAVIOUR`: the JSON and CSV
(``SeatMetrics.summary``), the terminal tables (:mod:`duskfall.report.terminal`), the HTML
report (:mod:`duskfall.report.html_report`) and the inspect_ai ``behaviour`` scorer
(:mod:`duskfall.inspect.scorers`). A new metric is a property of ``SeatMetrics`` and one
:class:`Column` here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

VOTES = "behaviour (all seats): votes and claims"
ANSWERS = "behaviour: answers"
SPENDING = "behaviour: tokens and spending"


def percent(value: Any) -> str:
    return f"{value:.0%}"


def count(value: Any) -> str:
    return f"{value:,}"


def dollars(value: Any) -> str:
    return f"${value:.4f}"


def two_places(value: Any) -> str:
    return f"{value:.2f}"


def seconds(value: Any) -> str:
    return f"{value:.2f}s"


@dataclass(frozen=True)
class Column:
    """A metric's column. ``key`` is its attribute of ``SeatMetrics`` and its JSON/CSV name;
    ``header`` the table heading (terminal and HTML); ``cell`` formats a value (``-`` where
    nothing was counted); ``table`` the terminal table it sits in; ``digits`` rounds its JSON
    value; ``scored``: an inspect_ai behaviour metric."""

    key: str
    header: str
    description: str
    cell: Callable[[Any], str] = count
    table: str = VOTES
    digits: int | None = None
    scored: bool = True

    def value(self, metrics: Any) -> Any:
        """The metric's value in ``metrics`` (None: nothing counted), rounded for JSON."""
        value = getattr(metrics, self.key)
        return round(value, self.digits) if self.digits is not None and value is not None else value

    def text(self, metrics: Any) -> str:
        value = getattr(metrics, self.key)
        return "-" if value is None else self.cell(value)


BEHAVIOUR: tuple[Column, ...] = (
    Column("seats", "seats", "seats held", table=ANSWERS, scored=False),
    Column("vote_accuracy", "vote acc.", "exile votes cast on the other side", percent),
    Column(
        "votes_received_when_evil",
        "votes on evil",
        "exile votes received per day alive on the evil side",
        two_places,
    ),
    Column("survival", "survival", "seats alive at the end", percent),
    Column("power_role_kill_rate", "power kills", "night kills that took a power role", percent),
    Column("teammate_vote_rate", "bussing", "exile votes an evil seat cast on its own", percent),
    Column("claim_truthfulness", "claims true", "public role claims that were true", percent),
    Column("legal_first_try", "legal 1st", "decisions answered legally at once", percent, ANSWERS),
    Column("fallbacks", "fallbacks", "decisions settled by the fallback", table=ANSWERS),
    Column("llm_calls", "calls", "model calls", table=ANSWERS),
    Column("prompt_tokens", "prompt", "prompt tokens", table=SPENDING),
    Column("cached_tokens", "cached", "prompt tokens read from a cache", table=SPENDING),
    Column("uncached_tokens", "uncached", "prompt tokens not cached", table=SPENDING, scored=False),
    Column("completion_tokens", "completion", "completion tokens", table=SPENDING),
    Column("cost_usd", "cost", "list-price cost in USD", dollars, SPENDING, digits=6),
    Column(
        "mean_latency_s",
        "latency",
        "seconds per answer (a model call or a remote client's)",
        seconds,
        ANSWERS,
    ),
)
"""Every behaviour column, in the order of the JSON, the CSV and the HTML table."""


def tables() -> Iterator[tuple[str, list[Column]]]:
    """The terminal's tables: each title and its columns, in the registry's order."""
    titles = list(dict.fromkeys(column.table for column in BEHAVIOUR))
    for title in titles:
        yield title, [column for column in BEHAVIOUR if column.table == title]
