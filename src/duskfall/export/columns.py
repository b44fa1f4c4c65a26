"""The columns of an exported dataset: one declaration per column, read by the writers (types),
the row builders (names) and the dataset card (descriptions).

Each table is written as two files: the **public** part holds what a spectator of the ended game
could see (the public record, every role once the game is over, timings and token counts);
the **hidden** part holds what only the seats or the game's administrator saw (observations,
prompts, the actions themselves, reasoning, refused replies, private events, the seed). Both
share a key (``game_id``, plus ``decision`` or ``seq``), so a user can publish the public files
alone and keep the hidden ones, or join them for research.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["string", "int", "float", "bool", "json", "strings"]


@dataclass(frozen=True)
class Column:
    """One column: its name, type (``json`` is JSON text), whether it is hidden, and what it
    holds."""

    name: str
    kind: Kind
    about: str
    hidden: bool = False


@dataclass(frozen=True)
class Table:
    """A table (``games``, ``decisions``, ``events``): its key and its columns.

    A table is split by column (hidden columns go to the hidden file, beside the key) or, with
    ``split_rows``, by row (rows whose ``visibility`` is not ``public`` go to the hidden file).
    """

    name: str
    about: str
    key: tuple[str, ...]
    columns: tuple[Column, ...]
    split_rows: bool = False

    def part(self, hidden: bool) -> tuple[Column, ...]:
        """The columns of one part: the key and that part's columns."""
        if self.split_rows:
            return self.columns
        return tuple(c for c in self.columns if c.name in self.key or c.hidden == hidden)

    def file(self, hidden: bool, extension: str) -> str:
        return f"{self.name}{'_hidden' if hidden else ''}.{extension}"


GAME_ID = Column("game_id", "string", "the game's id (`<variant>-<16 hex>`)")

GAMES = Table(
    "games",
    "one row per game",
    ("game_id",),
    (
        GAME_ID,
        Column("variant", "string", "the variant id (`werewolf`, `mafia`, `sports-mafia`)"),
        Column("config", "json", "the variant's config (preset, role list, rule options)"),
        Column("seats", "int", "number of seats"),
        Column("agents", "strings", "the agent of each seat, in seat order (`llm:MODEL`...)"),
        Column("models", "strings", "the model of each seat, or null for a program"),
        Column("roles", "strings", "each seat's role (revealed when the game ended)"),
        Column("sides", "strings", "each seat's side: `village` or `evil`"),
        Column("status", "string", "`finished` or `aborted`"),
        Column("winner", "string", "the winning team, null for a draw or an aborted game"),
        Column("termination", "string", "how the game ended (`win`, `day_limit`, `aborted`...)"),
        Column("days", "int", "the game's length in days"),
        Column("decisions", "int", "decisions made (rows of `decisions` for this game)"),
        Column("events", "int", "events in the game's log"),
        Column("llm_calls", "int", "model calls made for the game (a fork's own)"),
        Column("prompt_tokens", "int", "prompt tokens of every model call (cached included)"),
        Column("cached_tokens", "int", "prompt tokens read from a provider's cache"),
        Column("completion_tokens", "int", "completion tokens of every model call"),
        Column("cost_usd", "float", "the price of the model calls in USD (price table)"),
        Column("parent_game_id", "string", "a fork's parent game, null for a game of its own"),
        Column("fork_event", "int", "a fork's point: how many of its parent's events it kept"),
        Column("fork_prefix", "int", "how many events of the fork's log copy its parent's"),
        Column("fork_replaced", "int", "the parent's event a fork's intervention replaced"),
        Column("tournament", "string", "the tournament the game was played in, if any"),
        Column("tournament_slot", "int", "its slot in that tournament's schedule"),
        Column("started_at", "string", "UTC start time (ISO 8601)"),
        Column("duskfall_version", "string", "the duskfall version that played it"),
        Column("seed", "string", "the game's secret seed (deals every role)", hidden=True),
        Column("chain_hash", "string", "hash of the log's last line (its integrity)", True),
    ),
)

DECISIONS = Table(
    "decisions",
    "one row per decision a seat made (its action applied to the rules)",
    ("game_id", "decision"),
    (
        GAME_ID,
        Column("decision", "int", "the decision's number in its game, from 0"),
        Column("seat", "int", "the deciding seat"),
        Column("agent", "string", "the agent that made it (a copied row: the parent's seat's)"),
        Column("model", "string", "that agent's model, or null for a program"),
        Column("inherited", "bool", "copied from a fork's parent's prefix, not played here"),
        Column("role", "string", "the seat's role"),
        Column("side", "string", "the seat's side: `village` or `evil`"),
        Column("day", "int", "day number"),
        Column("phase", "string", "`NIGHT`, `DAY`..."),
        Column("kind", "string", "the decision asked (`VOTE`, `SPEECH`...)"),
        Column("by", "string", "`agent`, or `fallback` when the rules' default was applied"),
        Column("attempts", "int", "answers the seat gave (refused ones included)"),
        Column("refused_attempts", "int", "answers refused as illegal or unreadable"),
        Column("legal_first_try", "bool", "the first answer was legal"),
        Column("timed_out", "bool", "the decision's deadline passed"),
        Column("llm_calls", "int", "model calls made for it (beliefs questions apart)"),
        Column("latency_s", "float", "seconds the model calls took"),
        Column("prompt_tokens", "int", "prompt tokens of those calls"),
        Column("cached_tokens", "int", "their prompt tokens read from a cache"),
        Column("completion_tokens", "int", "their completion tokens"),
        Column("observation", "json", "the seat's view when asked (rebuilt by replay)", True),
        Column("legal_actions", "json", "the legal actions, in the wire form", True),
        Column("messages", "json", "the conversation sent to the model (last attempt)", True),
        Column("action", "json", "the action applied", True),
        Column("reasoning", "string", "the reasoning the seat gave with its answer", True),
        Column("refused", "json", "each refused answer: attempt, reply, why", True),
        Column("beliefs", "json", "P(evil) of each living player, stated before it", True),
    ),
)

EVENTS = Table(
    "events",
    "one row per event of the game's log; the public part holds the public events only",
    ("game_id", "seq"),
    (
        GAME_ID,
        Column("seq", "int", "the event's number in its game"),
        Column("inherited", "bool", "copied from a fork's parent's prefix"),
        Column("day", "int", "day number"),
        Column("phase", "string", "phase"),
        Column("kind", "string", "the event's kind (`vote`, `speech`, `night_resolved`...)"),
        Column("visibility", "string", "`public`, `team:<name>`, `seats:<n>` or `admin`"),
        Column("source", "string", "`rules`, `runtime`, `llm` or `agent`"),
        Column("payload", "json", "the event's content"),
    ),
    split_rows=True,
)

TABLES = (GAMES, DECISIONS, EVENTS)
