"""A seat's record folder: what one seat has seen of a game, written as the game goes.

The runtime feeds a :class:`SeatRecords` only the events its seat may see (``visible_to`` with
the seat's channels), so the folder can never hold another seat's secrets. Layout, inside the
game's folder ``<log dir>/<game_id>.records/``::

    seat-<n>/
      history.jsonl              every event seat n may see, in order (public and its own)
      players/<p>/info.jsonl     public facts naming player p (deaths, exiles, nominations...)
      players/<p>/speech.jsonl   p's public speeches
      players/<p>/votes.jsonl    p's public votes
      private/thoughts.jsonl     seat n's own thoughts (plans, investigations, moves)
      private/sessions.jsonl     the final JSON of each of its investigation sessions
      private/suspicion.json     its suspicion model, latest

Each JSONL line is ``{"seq", "day", "phase", "kind", "visibility", "text", "payload"}`` (votes
add ``"vote"``); the tools show the ``text``.
"""

from __future__ import annotations

import json
import re
import shutil
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from duskfall.agents.cognitive.paths import UnsafePath, read_text, resolve_inside
from duskfall.core.events import PUBLIC, Event
from duskfall.core.outcome import Outcome
from duskfall.core.variant import Variant

HISTORY = "history.jsonl"
THOUGHTS = "private/thoughts.jsonl"
SESSIONS = "private/sessions.jsonl"
SUSPICION = "private/suspicion.json"

_ACTOR_KEYS = ("seat", "player_id", "voter")
_SPEECH_KEYS = ("text", "says")
_MENTION_KEYS = ("seat", "player_id", "target", "chosen", "eliminated", "by")
_MENTION_LIST_KEYS = ("seats", "candidates", "tied", "members")
_MARKUP = re.compile(r"\[/?(?:bold|dim|italic|underline|red|green|blue|yellow|magenta|cyan)?\]")


def player_dir(player: int) -> str:
    return f"players/{player}"


def event_text(variant: Variant, event: Event) -> str:
    """One plain line for ``event`` (the variant's own rendering, without markup)."""
    try:
        line = variant.format_event(event)
    except Exception:  # a variant that cannot render an event it did not produce
        line = None
    if not line:
        fields = {k: v for k, v in event.payload.items() if k != "sub_phase"}
        return f"{event.kind} {json.dumps(fields, ensure_ascii=False, default=str)}"
    return _MARKUP.sub("", str(line)).replace("\\[", "[")


def actor_of(event: Event) -> int | None:
    """The player who did what ``event`` records (a speaker, a voter), if any."""
    for key in _ACTOR_KEYS:
        value = event.payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def is_speech(event: Event) -> bool:
    kind = event.kind.lower()
    payload = event.payload
    spoken = any(isinstance(payload.get(k), str) for k in _SPEECH_KEYS)
    return actor_of(event) is not None and (spoken or kind == "declaration")


def votes_in(event: Event) -> Iterator[tuple[int, Any]]:
    """``(voter, choice)`` pairs in a vote event: one voter's vote or a whole vote map."""
    if "vote" not in event.kind.lower():
        return
    votes = event.payload.get("votes")
    if isinstance(votes, Mapping):
        for voter, choice in votes.items():
            if str(voter).lstrip("-").isdigit():
                yield int(voter), choice
        return
    actor = actor_of(event)
    if actor is not None and ("target" in event.payload or "vote" in event.payload):
        yield actor, event.payload.get("target", event.payload.get("vote"))


def mentioned(event: Event) -> set[int]:
    """Players an event names (as actor, target, or in a list of seats)."""
    found: set[int] = set()
    payload = event.payload
    for key in _MENTION_KEYS:
        value = payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            found.add(value)
    for key in _MENTION_LIST_KEYS:
        values = payload.get(key)
        if isinstance(values, list):
            found.update(v for v in values if isinstance(v, int) and not isinstance(v, bool))
    for death in payload.get("deaths", ()) if isinstance(payload.get("deaths"), list) else ():
        if isinstance(death, Mapping) and isinstance(death.get("seat"), int):
            found.add(death["seat"])
    return found


class SeatRecords:
    """Writes (and owns) one seat's record folder; an observer of that seat's visible events."""

    def __init__(
        self, root: Path, seat: int, variant: Variant, *, scratch: Path | None = None
    ) -> None:
        """``scratch``: a temporary folder holding ``root``, removed when the game ends (or
        when these records are dropped, for a game that never ends)."""
        self.root = Path(root)
        self.seat = seat
        self.variant = variant
        self._cleanup = (
            weakref.finalize(self, shutil.rmtree, scratch, True) if scratch is not None else None
        )
        self.root.mkdir(parents=True, exist_ok=True)
        for sub in ("players", "private"):
            (self.root / sub).mkdir(exist_ok=True)
        self.events_seen = 0

    # -- observer --------------------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        """Record one event the seat may see (the runtime filters; see the module docstring)."""
        self.events_seen += 1
        line = self._line(event)
        self.append(HISTORY, line)
        if event.visibility != PUBLIC:
            return  # team chats and private results live in the history only
        actor = actor_of(event)
        votes = list(votes_in(event))
        for voter, choice in votes:
            self.append(f"{player_dir(voter)}/votes.jsonl", {**line, "vote": choice})
        if is_speech(event) and actor is not None and not votes:
            self.append(f"{player_dir(actor)}/speech.jsonl", line)
        described = {actor} if (votes or is_speech(event)) else set()
        for player in mentioned(event) - described:
            self.append(f"{player_dir(player)}/info.jsonl", line)

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        if self._cleanup is not None:
            self._cleanup()

    # -- writing ---------------------------------------------------------------------------

    def _line(self, event: Event) -> dict[str, Any]:
        return {
            "seq": event.seq,
            "day": event.day,
            "phase": event.phase,
            "kind": event.kind,
            "visibility": event.visibility,
            "text": event_text(self.variant, event),
            "payload": event.payload,
        }

    def append(self, relative: str, record: Mapping[str, Any]) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")

    def write_json(self, relative: str, value: Any) -> None:
        path = self.root / relative
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(value, ensure_ascii=False, indent=1, default=str), "utf-8")
        tmp.replace(path)

    def note_thought(self, day: int, phase: str, stage: str, text: str) -> None:
        """Add one of the seat's own thoughts (never visible to anybody else)."""
        self.append(THOUGHTS, {"day": day, "phase": phase, "stage": stage, "text": text})

    # -- reading ---------------------------------------------------------------------------

    def read_lines(self, relative: str) -> list[dict[str, Any]]:
        """The JSON lines of a record file; none if it is missing or unsafe (a link...)."""
        try:
            path = resolve_inside(self.root, relative)
            text = read_text(path) if path.exists() else ""
        except UnsafePath:
            return []
        lines = []
        for raw in text.splitlines():
            try:
                lines.append(json.loads(raw))
            except json.JSONDecodeError:
                continue  # a line cut short by a crash
        return lines


def records_root(game_id: str, log_path: Path | None, base: Path | None = None) -> Path:
    """The game's record folder: ``base`` if given, else beside the log (``<id>.records``)."""
    if base is not None:
        return Path(base) / f"{game_id}.records"
    if log_path is not None:
        return Path(log_path).with_name(f"{game_id}.records")
    return Path("games") / f"{game_id}.records"
