"""History tools over one seat's record folder; each returns only what that seat may see.

The folder itself holds only the seat's view (see :mod:`.records`); on top of that the tools
refuse paths outside it (every path is resolved by :mod:`.paths`: no links followed, the real
path inside the folder, regular files only) and other players' private thoughts, returning an
error result (never the content, never an exception). Outputs are plain text lines, clipped
to a budget (latest lines kept).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.agents.cognitive.context import SessionContext
from duskfall.agents.cognitive.paths import UnsafePath, read_text, resolve_inside, walk
from duskfall.agents.cognitive.records import HISTORY, THOUGHTS, SeatRecords, player_dir
from duskfall.core.events import PUBLIC

TOOL_NAMES = (
    "read_public_history",
    "read_private_info",
    "read_public_speech",
    "read_player_votes",
    "read_player_info",
    "read_private_thoughts",
    "read_metrics",
    "read_file",
    "search_file",
)
_PLAYER = re.compile(r"^(?:p|seat|player)?\s*#?\s*(-?\d+)$", re.IGNORECASE)
_DAY_SCOPE = re.compile(r"day[\s_:-]*(\d+)", re.IGNORECASE)
SEARCH_HITS = 30


@dataclass(frozen=True)
class ToolRequest:
    """One tool call as a session asked for it."""

    tool_name: str
    player_id: Any = None
    time_scope: str = "all_days"
    path: str = ""
    query: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ToolRequest:
        return cls(
            tool_name=str(data.get("tool_name", "")),
            player_id=data.get("player_id"),
            time_scope=str(data.get("time_scope") or "all_days"),
            path=str(data.get("path") or ""),
            query=str(data.get("query") or ""),
        )

    def describe(self) -> str:
        args = [f"{k}={v!r}" for k, v in self._args().items() if v not in (None, "")]
        return f"{self.tool_name}({', '.join(args)})"

    def _args(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "time_scope": None if self.time_scope == "all_days" else self.time_scope,
            "path": self.path,
            "query": self.query,
        }


@dataclass(frozen=True)
class ToolResult:
    """A tool's output, or the error that replaced it."""

    request: ToolRequest
    output: str = ""
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def render(self) -> str:
        head = f"[{self.request.describe()}]"
        return f"{head} ERROR: {self.error}" if self.error else f"{head}\n{self.output}"


class ToolError(Exception):
    """A request the tools refuse; the message goes back to the model."""


def parse_player(value: Any, context: SessionContext) -> int | None:
    """``3``, ``"p3"``, ``"seat 3"`` or a player's name -> ``3``; ``None`` if empty/unknown."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value in context.players else None
    text = str(value).strip()
    match = _PLAYER.match(text)
    if match:
        seat = int(match.group(1))
        return seat if seat in context.players else None
    lowered = text.lower()
    for seat, name in context.names.items():
        if name.lower() == lowered:
            return seat
    return None


class Toolbox:
    """The tools of one seat for one decision."""

    def __init__(self, records: SeatRecords, context: SessionContext, max_chars: int = 1500):
        self.records = records
        self.context = context
        self.max_chars = max_chars
        self._tools: dict[str, Callable[[ToolRequest], str]] = {
            "read_public_history": self.read_public_history,
            "read_private_info": self.read_private_info,
            "read_public_speech": self.read_public_speech,
            "read_player_votes": self.read_player_votes,
            "read_player_info": self.read_player_info,
            "read_private_thoughts": self.read_private_thoughts,
            "read_metrics": self.read_metrics,
            "read_file": self.read_file,
            "search_file": self.search_file,
        }

    def run(self, request: ToolRequest) -> ToolResult:
        """Run one request; refusals and bad arguments come back as an error result."""
        tool = self._tools.get(request.tool_name)
        if tool is None:
            known = ", ".join(TOOL_NAMES)
            return ToolResult(request, error=f"unknown tool {request.tool_name!r}; tools: {known}")
        try:
            return ToolResult(request, output=self._clip(tool(request)))
        except (ToolError, UnsafePath) as exc:
            return ToolResult(request, error=str(exc))
        except OSError as exc:
            return ToolResult(request, error=f"cannot read: {exc.strerror or exc}")
        except Exception as exc:  # a tool must never break the agent's turn
            return ToolResult(request, error=f"{request.tool_name} failed ({type(exc).__name__})")

    def run_all(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        return [self.run(r) for r in requests]

    # -- the tools -------------------------------------------------------------------------

    def read_public_history(self, request: ToolRequest) -> str:
        lines = [x for x in self._history(request) if x.get("visibility") == PUBLIC]
        return self._render(lines, "no public events yet")

    def read_private_info(self, request: ToolRequest) -> str:
        lines = [x for x in self._history(request) if x.get("visibility") != PUBLIC]
        return self._render(lines, "you have no private information yet")

    def read_public_speech(self, request: ToolRequest) -> str:
        player = self._player(request)
        lines = self._scoped(self.records.read_lines(f"{player_dir(player)}/speech.jsonl"), request)
        return self._render(lines, f"{self.context.label(player)} has said nothing in public")

    def read_player_votes(self, request: ToolRequest) -> str:
        player = self._player(request)
        lines = self._scoped(self.records.read_lines(f"{player_dir(player)}/votes.jsonl"), request)
        return self._render(lines, f"{self.context.label(player)} has cast no public vote yet")

    def read_player_info(self, request: ToolRequest) -> str:
        player = self._player(request)
        state = "alive" if player in self.context.alive else "dead"
        lines = self._scoped(self.records.read_lines(f"{player_dir(player)}/info.jsonl"), request)
        facts = self._render(lines, "no public facts about this player yet")
        return f"{self.context.label(player)}: {state}\n{facts}"

    def read_private_thoughts(self, request: ToolRequest) -> str:
        player = parse_player(request.player_id, self.context)
        if request.player_id not in (None, "") and player != self.context.seat:
            raise ToolError(
                f"the private thoughts of {request.player_id} are not yours to read; "
                "you may read only your own (omit player_id)"
            )
        lines = self._scoped(self.records.read_lines(THOUGHTS), request)
        rendered = [{**x, "text": f"{x.get('stage')}: {x.get('text', '')}"} for x in lines]
        return self._render(rendered, "you have no earlier thoughts in this game")

    def read_metrics(self, request: ToolRequest) -> str:
        """Per living player: speeches, votes cast and received (public records only)."""
        received: Counter[int] = Counter()
        cast: dict[int, list[str]] = {}
        speeches: dict[int, int] = {}
        for player in self.context.players:
            votes = self.records.read_lines(f"{player_dir(player)}/votes.jsonl")
            cast[player] = [str(v.get("vote")) for v in votes]
            for vote in votes:
                target = vote.get("vote")
                if isinstance(target, int) and not isinstance(target, bool):
                    received[target] += 1
            speeches[player] = len(self.records.read_lines(f"{player_dir(player)}/speech.jsonl"))
        rows = []
        for player in self.context.alive:
            targets = ", ".join(cast[player][-4:]) or "none"
            rows.append(
                f"{self.context.label(player)}: {speeches[player]} speeches; "
                f"votes cast {len(cast[player])} (latest: {targets}); "
                f"votes received {received[player]}"
            )
        return "\n".join(rows) or "no metrics yet"

    def read_file(self, request: ToolRequest) -> str:
        path = self._path(request.path or ".")
        if path.is_dir():
            entries = [rel + ("/" if folder else "") for rel, folder in self._walk(path)]
            return "\n".join(entries) or "(empty folder)"
        if not path.exists():
            raise ToolError(f"no such record {request.path!r}; read_file with path '.' lists them")
        return read_text(path)

    def search_file(self, request: ToolRequest) -> str:
        query = request.query.strip().lower()
        if not query:
            raise ToolError("search_file needs a non-empty query")
        path, root = self._path(request.path or HISTORY), self._root()
        if path.is_dir():
            files = [root / rel for rel, folder in self._walk(path) if not folder]
        else:
            files = [path]
        if not files or not files[0].exists():
            raise ToolError(f"no such record {request.path!r}")
        hits = []
        for file in files:
            rel = file.relative_to(root)
            for number, line in enumerate(read_text(file).splitlines(), 1):
                if query in line.lower():
                    hits.append(f"{rel}:{number}: {line}")
        if not hits:
            return f"no line matches {request.query!r}"
        return "\n".join(hits[-SEARCH_HITS:])

    # -- helpers ---------------------------------------------------------------------------

    def _player(self, request: ToolRequest) -> int:
        player = parse_player(request.player_id, self.context)
        if player is None:
            raise ToolError(
                f"{request.tool_name} needs a valid player_id (e.g. 'p{self.context.players[0]}'),"
                f" not {request.player_id!r}"
                if self.context.players
                else f"{request.tool_name} needs a valid player_id"
            )
        return player

    def _root(self) -> Path:
        return resolve_inside(self.records.root, ".")

    def _path(self, relative: str) -> Path:
        """``relative`` inside the seat's folder (no links followed), or a refusal."""
        return resolve_inside(self.records.root, relative)

    def _walk(self, start: Path) -> list[tuple[str, bool]]:
        return walk(self.records.root, start)

    def _history(self, request: ToolRequest) -> list[dict[str, Any]]:
        return self._scoped(self.records.read_lines(HISTORY), request)

    def _scoped(self, lines: list[dict[str, Any]], request: ToolRequest) -> list[dict[str, Any]]:
        scope = request.time_scope.lower()
        today = self.context.day
        match = _DAY_SCOPE.search(scope)
        if match:
            day = int(match.group(1))
            return [x for x in lines if x.get("day") == day]
        if scope in ("today", "current_day"):
            return [x for x in lines if x.get("day") == today]
        if scope in ("last_day", "yesterday", "previous_day"):
            return [x for x in lines if x.get("day") == today - 1]
        return lines

    def _render(self, lines: list[dict[str, Any]], empty: str) -> str:
        if not lines:
            return empty
        return "\n".join(f"D{x.get('day', '?')} {x.get('phase')}: {x.get('text')}" for x in lines)

    def _clip(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        kept: list[str] = []
        size = 0
        lines = text.splitlines()
        for line in reversed(lines):
            if size + len(line) + 1 > self.max_chars and kept:
                break
            kept.append(line[-self.max_chars :])
            size += len(line) + 1
        omitted = len(lines) - len(kept)
        return f"({omitted} earlier lines omitted)\n" + "\n".join(reversed(kept))
