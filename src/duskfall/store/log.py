"""One game = one append-only JSONL file: a header line, then one event per line.

The header holds what is needed to replay the game: variant, config, roster, versions, and in
its ``admin`` part the seed (a decimal string: seeds have 128 bits, more than many JSON readers
keep) and, for a fork whose seats play with another seed than the deal, ``agent_seed``.
Events are flushed as they are written (a killed process loses nothing it wrote) and fsynced
at every phase end (in a worker thread when an event loop is running), so power loss costs at
most about one phase.

Every line ends with ``"h"``: the SHA-256 (hex) of the previous line's ``h`` followed by the
exact bytes of this line without its ``h`` (the header starts the chain from the empty
string). Changing, removing or moving any line breaks the chain from there on.

A log carries its own end: when the game ends, a last line ``{"type": "end", "events": N,
"last": H}`` follows its ``game_over`` (N events, H the ``h`` of the last of them, and its own
``h``). A chain cannot show lines cut off its end, but the end record can: a log of format 3
whose game ended and that has no end record was cut (:class:`MissingEnd`), and one without
``game_over`` either did not finish or was cut before it (only its index row can tell which).
Logs of format 2 predate the end record (:attr:`GameLog.has_end_records`).

A log of format 4 may be signed (:mod:`duskfall.store.signatures`): at every phase end its
writer adds a seal line ``{"type": "seal", "events": N, "last": H, "key": K, "mac": M}`` (N
events so far, H the ``h`` of the line before it, K the signing key's id, M the MAC of those),
and its end record carries ``key`` and ``mac`` too; ``last`` is always the ``h`` of the line
before the record (a seal, or the last event). Seals are chained like every line. Lines are
parsed strictly (every field present with its type; a bad visibility is an error, never
``public``). A truncated, corrupt or unchained line is reported as :class:`LogCorrupt` with the
number of whole events before it; everything up to the last whole event stays readable
(``read_log(path, strict=False)``). Logs of format 1 (before the chain) are read without the
chain check; :attr:`GameLog.chained` tells them apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import platform
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol

import duskfall
from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError, LogCorrupt
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.rng import parse_seed
from duskfall.store.files import NotARegularFile, check_writable_file, open_regular

FORMAT_VERSION = 4
UNCHAINED_FORMAT = 1
END_FORMAT = 3  # the first format whose finished games end with an end record
SIGNED_FORMAT = 4  # the first format that may carry signatures (seal lines, signed ends)
END = "end"  # the ``type`` of the end record
SEAL = "seal"  # the ``type`` of a seal line
_HASH_TAIL = re.compile(r',"h":"([0-9a-f]{64})"\}$')
_KEY_ID = re.compile(r"[0-9a-f]{16}")
_MAC = re.compile(r"[0-9a-f]{64}")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def link(previous: str, body: str) -> str:
    """The chain hash of a line whose text without ``h`` is ``body``."""
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()


def log_message(game_id: str, events: int, last: str) -> str:
    """What a log's seal (or signed end record) signs: its game, its events so far and the
    chain hash of the line before it (which covers every line up to there)."""
    return f"duskfall-log\x00{game_id}\x00{events}\x00{last}"


class Sealer(Protocol):
    """What signs a log (:class:`duskfall.store.signatures.Signer`)."""

    key_id: str

    def mac(self, message: str) -> str: ...


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def chained_line(previous: str, data: dict[str, Any]) -> tuple[str, str]:
    """The text of a log line for ``data`` (with its ``h``, and a newline) and its hash."""
    body = _dumps(data)
    digest = link(previous, body)
    return f'{body[:-1]},"h":"{digest}"}}\n', digest


@dataclass
class LogHeader:
    """The first line of a game log. ``seed`` is written to the header's admin part.

    ``seed`` deals the game; the seats' agents and the fallbacks draw from it too, unless
    ``agent_seed`` is set (a fork played on with another seed than its parent's deal).
    """

    game_id: str
    variant: str
    config: dict[str, Any]
    seed: int
    roster: list[dict[str, Any]]
    started_at: str = field(default_factory=utc_now)
    versions: dict[str, str] = field(
        default_factory=lambda: {
            "duskfall": duskfall.__version__,
            "python": platform.python_version(),
        }
    )
    extra: dict[str, Any] = field(default_factory=dict)
    format: int = FORMAT_VERSION
    agent_seed: int | None = None

    @property
    def seats_seed(self) -> int:
        """The seed the seats' agents and the fallbacks draw from."""
        return self.seed if self.agent_seed is None else self.agent_seed

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "header",
            "format": FORMAT_VERSION,
            "game_id": self.game_id,
            "variant": self.variant,
            "config": self.config,
            "roster": self.roster,
            "started_at": self.started_at,
            "versions": self.versions,
            "extra": self.extra,
            "admin": self._admin(),
        }

    def _admin(self) -> dict[str, str]:
        admin = {"seed": str(self.seed)}
        if self.agent_seed is not None:
            admin["agent_seed"] = str(self.agent_seed)
        return admin

    @classmethod
    def from_dict(cls, data: Any) -> LogHeader:
        """A header from its line; raises :class:`LogCorrupt` when it is not a valid one."""
        if not isinstance(data, dict) or data.get("type") != "header":
            raise LogCorrupt("the first line is not a duskfall log header", 0)
        version = _field(data, "format", int, "header", default=UNCHAINED_FORMAT)
        if version < UNCHAINED_FORMAT:
            raise LogCorrupt(f"header: unknown log format {version}", 0)
        if version > FORMAT_VERSION:
            raise LogCorrupt(
                f"the log has format {version}, newer than this duskfall ({FORMAT_VERSION}); "
                "upgrade duskfall",
                0,
            )
        agent_seed: Any = None
        if version == UNCHAINED_FORMAT:
            seed: Any = data.get("seed")
        else:
            admin = _field(data, "admin", dict, "header")
            seed, agent_seed = admin.get("seed"), admin.get("agent_seed")
        parsed_seed = _seed(seed, "seed")
        return cls(
            game_id=_field(data, "game_id", str, "header"),
            variant=_field(data, "variant", str, "header"),
            config=_field(data, "config", dict, "header", default={}),
            seed=parsed_seed,
            roster=_roster(_field(data, "roster", list, "header", default=[])),
            started_at=_field(data, "started_at", str, "header", default=""),
            versions=_field(data, "versions", dict, "header", default={}),
            extra=_field(data, "extra", dict, "header", default={}),
            format=version,
            agent_seed=None if agent_seed is None else _seed(agent_seed, "agent_seed"),
        )


def _seed(value: Any, what: str) -> int:
    try:
        return parse_seed(value if isinstance(value, str | int) else repr(value), what)
    except ConfigError as exc:
        raise LogCorrupt(f"header: {exc}", 0) from None


_MISSING = object()


def _field(data: dict[str, Any], key: str, kind: type, what: str, default: Any = _MISSING) -> Any:
    """``data[key]``, checked to be a ``kind`` (an int is never a bool); LogCorrupt if not."""
    value = data.get(key, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise LogCorrupt(f"{what} has no {key!r}", 0)
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LogCorrupt(f"{what}: {key!r} must be a {kind.__name__}, not {value!r:.40}", 0)
    return value


def _roster(entries: list[Any]) -> list[dict[str, Any]]:
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
            raise LogCorrupt(f"header: bad roster entry {entry!r:.60}", 0)
    return entries


def _check_visibility(visibility: str, what: str) -> None:
    if visibility in ("public", "admin"):
        return
    scope, _, rest = visibility.partition(":")
    if scope == "team" and rest:
        return
    if scope == "seats" and rest and all(s.isascii() and s.isdigit() for s in rest.split(",")):
        return
    raise LogCorrupt(f"{what}: bad visibility {visibility!r:.40}", 0)


def parse_event(data: Any, what: str = "event") -> Event:
    """An event from its log line, strictly: every field present with its type."""
    if not isinstance(data, dict):
        raise LogCorrupt(f"{what}: not an event", 0)
    visibility = _field(data, "visibility", str, what)
    _check_visibility(visibility, what)
    return Event(
        kind=_field(data, "kind", str, what),
        payload=_field(data, "payload", dict, what),
        visibility=visibility,
        day=_field(data, "day", int, what),
        phase=_field(data, "phase", str, what),
        seq=_field(data, "seq", int, what),
        game_id=_field(data, "game_id", str, what),
        source=_field(data, "source", str, what),
    )


@dataclass(frozen=True, slots=True)
class LogEnd:
    """A log's end record: how many events it holds and the chain hash of the line before it
    (its last event, or a seal); a signed log's also carries the key id and the MAC."""

    events: int
    last: str
    key: str | None = None
    mac: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": END, "events": self.events, "last": self.last}
        if self.mac is not None:
            out["key"], out["mac"] = self.key, self.mac
        return out

    def signed(self, game_id: str, signer: Sealer) -> LogEnd:
        """This record signed by ``signer``."""
        mac = signer.mac(log_message(game_id, self.events, self.last))
        return LogEnd(self.events, self.last, signer.key_id, mac)

    @classmethod
    def parse(cls, data: dict[str, Any]) -> LogEnd:
        events, last = data.get("events"), data.get("last")
        if not isinstance(events, int) or isinstance(events, bool) or not isinstance(last, str):
            raise LogCorrupt(f"a malformed {data.get('type')} record", 0)
        key, mac = data.get("key"), data.get("mac")
        if (key, mac) != (None, None) and not (
            isinstance(key, str)
            and isinstance(mac, str)
            and _KEY_ID.fullmatch(key)
            and _MAC.fullmatch(mac)
        ):
            raise LogCorrupt(f"a malformed {data.get('type')} record (its signature)", 0)
        return cls(events, last, key, mac)


@dataclass(frozen=True, slots=True)
class LogSeal(LogEnd):
    """A seal line: the log signed up to here (``key`` and ``mac`` always set); ``h`` is the
    seal line's own chain hash (set when read)."""

    h: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**LogEnd.to_dict(self), "type": SEAL}


class MissingEnd(LogCorrupt):
    """A log whose game ended (``game_over``) has no end record after it: lines were cut from
    its end (or its process died between its last two lines)."""


class TornLine(LogCorrupt):
    """The log's last line has no newline: the process died while writing it (or the file
    was cut). Resume cuts it; replay checks the whole events before it."""


class LineReader:
    """Reads a log line by line: the header, then events, checking the chain and each line.

    :meth:`take` raises :class:`LogCorrupt` at the first bad line (a line is the text
    without its newline); ``head`` is the chain hash of the last good line.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.header: LogHeader | None = None
        self.events: list[Event] = []
        self.head = ""
        self.number = 0
        self.lines = 0  # whole lines taken (header, events, seals, end)
        self.end: LogEnd | None = None
        self.seals: list[LogSeal] = []

    @property
    def chained(self) -> bool:
        return self.header is None or self.header.format != UNCHAINED_FORMAT

    def take(self, line: str) -> Event | None:
        """Check and parse the next line: its event, or None for the header and the end."""
        self.number += 1
        where = f"{self.where}:{self.number}"
        body, digest = line, None
        if self.chained:
            tail = _HASH_TAIL.search(line)
            if tail is not None:
                body, digest = line[: tail.start()] + "}", tail.group(1)
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise self._corrupt(f"{where}: corrupt line ({exc})") from None
        try:
            if isinstance(data, dict) and "h" in data and not self.chained:
                raise LogCorrupt("a chain hash in a format 1 log (was its format changed?)", 0)
            if self.header is None:
                header = LogHeader.from_dict(data)
                if header.format == UNCHAINED_FORMAT:
                    if digest is not None:
                        raise LogCorrupt(
                            "a chain hash in a format 1 log (was its format changed?)", 0
                        )
                else:
                    self._check_link(where, body, digest)
                self.header = header
                self.lines += 1
                return None
            if self.end is not None:
                raise LogCorrupt("a line after the log's end record", 0)
            if isinstance(data, dict) and data.get("type") in (END, SEAL):
                self._take_record(data, where, body, digest)
                self.lines += 1
                return None
            event = parse_event(data, where)
            self._check_link(where, body, digest)
        except LogCorrupt as exc:
            message = str(exc) if str(exc).startswith(where) else f"{where}: {exc}"
            raise self._corrupt(message) from None
        if event.seq != len(self.events):
            raise self._corrupt(
                f"{where}: event seq {event.seq} where {len(self.events)} was expected"
            )
        if event.game_id != self.header.game_id:
            raise self._corrupt(f"{where}: an event of another game ({event.game_id!r:.40})")
        self.events.append(event)
        self.lines += 1
        return event

    def _take_record(self, data: dict[str, Any], where: str, body: str, digest: str | None) -> None:
        """An end record or a seal line: it must name the events and the chain before it."""
        kind = data["type"]
        assert self.header is not None
        if kind == SEAL and (self.header.format < SIGNED_FORMAT or "mac" not in data):
            raise LogCorrupt(f"a seal line in a format {self.header.format} log", 0)
        record = LogEnd.parse(data)
        if record.events != len(self.events):
            raise LogCorrupt(
                f"the {kind} record says {record.events} events, the log holds {len(self.events)}",
                0,
            )
        if record.last != self.head:
            raise LogCorrupt(f"the {kind} record names another last line", 0)
        self._check_link(where, body, digest)
        if kind == END:
            self.end = record
        else:
            self.seals.append(
                LogSeal(record.events, record.last, record.key, record.mac, self.head)
            )

    def _check_link(self, where: str, body: str, digest: str | None) -> None:
        if not self.chained:
            return
        if digest is None:
            raise LogCorrupt(f'{where}: the line has no hash ("h") at its end', 0)
        if digest != link(self.head, body):
            raise LogCorrupt(
                f"{where}: hash mismatch: this line, or one before it, was changed, removed "
                "or moved",
                0,
            )
        self.head = digest

    def _corrupt(self, message: str) -> LogCorrupt:
        return LogCorrupt(message, len(self.events))


class LogWriter:
    """Appends a game's events to its JSONL file; an :class:`~duskfall.runtime.record.Observer`.

    With ``append`` the chain goes on from the file's last line (a format 1 log stays
    unchained); the file must hold whole lines only (resume cuts a damaged last line first).
    """

    def __init__(
        self,
        path: str | Path,
        header: LogHeader | None = None,
        *,
        append: bool = False,
        signer: Sealer | None = None,
    ):
        self.path = Path(path)
        check_writable_file(self.path, "the game log")  # a FIFO would block the open for ever
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._head: str | None = ""
        self._events = 0
        self._sealed = 0  # events covered by the last signature
        self._over = False  # the last event is game_over
        self._signer = signer
        if append:
            existing = read_log(self.path)
            self._head = existing.head if existing.chained else None
            self._events = len(existing.events)
            self._sealed = existing.signed_events
            header = existing.header
            if header.format < SIGNED_FORMAT:
                self._signer = None  # an older format has no place for signatures
        self._game_id = header.game_id if header is not None else ""
        self._file: IO[str] | None = self.path.open("a" if append else "w", encoding="utf-8")
        if header is not None and not append:
            self._write(header.to_dict())
            self.sync()
        elif append and self._sealed < self._events:
            self.checkpoint()  # resumed: sign what the killed process wrote after its last seal
            self.sync()

    @property
    def head(self) -> str | None:
        """The chain hash of the last line written (None for a format 1 log)."""
        return self._head

    def _write(self, data: dict[str, Any]) -> None:
        assert self._file is not None, "log already closed"
        if self._head is None:
            line = _dumps(data) + "\n"
        else:
            line, self._head = chained_line(self._head, data)
        self._file.write(line)
        self._file.flush()

    def on_event(self, event: Event) -> None:
        self._write(event.to_dict())
        self._events += 1
        self._over = event.kind == kinds.GAME_OVER

    def checkpoint(self) -> None:
        """Sign the log so far (a seal line), if it has a signer and unsigned events (not
        after ``game_over``: the end record, next, carries the last signature)."""
        if self._signer is None or self._head is None or self._sealed == self._events:
            return
        if self._over:
            return
        seal = LogEnd(self._events, self._head).signed(self._game_id, self._signer)
        self._write(LogSeal(seal.events, seal.last, seal.key, seal.mac).to_dict())
        self._sealed = self._events

    def on_phase_end(self) -> None:
        """Sign the phase (one MAC), flush, and fsync off the event loop when one is running
        (a server must not stall)."""
        if self._file is None:
            return
        self.checkpoint()
        self._file.flush()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            os.fsync(self._file.fileno())
            return
        loop.run_in_executor(None, _fsync_quietly, self._file.fileno())

    def on_game_end(self, outcome: Outcome | None) -> None:
        """Write the end record (the game is over: nothing follows), then close the file."""
        if self._file is not None and self._head is not None:
            end = LogEnd(self._events, self._head)
            if self._signer is not None:
                end = end.signed(self._game_id, self._signer)
            self._write(end.to_dict())
        self.close()

    def sync(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None


def _fsync_quietly(fd: int) -> None:
    with contextlib.suppress(OSError):  # closed meanwhile: close() has synced it already
        os.fsync(fd)


@dataclass
class GameLog:
    """A parsed log: header, events, and whether it ended cleanly.

    ``head`` is the chain hash of the last whole line (empty for a format 1 log, which is not
    ``chained``); ``lines`` counts the whole lines read (header, events, seals, end);
    ``seals`` are the log's seal lines (:mod:`duskfall.store.signatures` checks them).
    """

    header: LogHeader
    events: list[Event]
    corrupt: LogCorrupt | None = None
    head: str = ""
    end: LogEnd | None = None
    seals: list[LogSeal] = field(default_factory=list)
    lines: int = 0

    @property
    def signed_events(self) -> int:
        """How many events the log's last signature covers (0 if it has none)."""
        if self.end is not None and self.end.mac is not None:
            return self.end.events
        return self.seals[-1].events if self.seals else 0

    @property
    def chained(self) -> bool:
        return self.header.format != UNCHAINED_FORMAT

    @property
    def has_end_records(self) -> bool:
        """Whether the log's format ends a finished game with an end record (format 3 on)."""
        return self.header.format >= END_FORMAT

    @property
    def finished(self) -> bool:
        return any(e.kind == kinds.GAME_OVER for e in self.events)

    @property
    def outcome(self) -> Outcome | None:
        for event in reversed(self.events):
            if event.kind == kinds.GAME_OVER:
                try:
                    return Outcome.from_dict(event.payload)
                except (KeyError, TypeError, ValueError):
                    return None
        return None


MAX_LINE_CHARS = 64 * 1024 * 1024  # far above any event's line; a longer one is no log's


class LineTooLong(LogCorrupt):
    """A line longer than :data:`MAX_LINE_CHARS` (read no further: no log has one)."""


def log_lines(path: str | Path) -> Iterator[str]:
    """The lines of the log file ``path``, each with its newline (the last may lack it);
    :class:`LogCorrupt` if ``path`` is no regular file (a FIFO would never end) or a line is
    longer than :data:`MAX_LINE_CHARS`."""
    try:
        handle = open_regular(path, "log")
    except NotARegularFile as exc:
        raise LogCorrupt(str(exc), 0) from None
    with handle:
        while line := handle.readline(MAX_LINE_CHARS + 1):
            if len(line) > MAX_LINE_CHARS:
                raise LineTooLong(f"{path}: a line longer than {MAX_LINE_CHARS} characters", 0)
            yield line


def read_log(path: str | Path, *, strict: bool = True, heads: list[str] | None = None) -> GameLog:
    """Read a log. With ``strict`` a corrupt, unchained or truncated line raises
    :class:`LogCorrupt`; otherwise the log is cut at the last whole event and ``corrupt``
    says what was wrong. ``heads``, if given, is filled with the chain hash after the header
    and after each event (``heads[n]``: after ``n`` events; what a fork's origin names)."""
    path = Path(path)
    if not path.exists():
        raise LogCorrupt(f"{path}: no such log file", 0)
    if path.is_dir():
        raise LogCorrupt(f"{path} is a directory, not a log file", 0)
    reader = LineReader(str(path))
    problem: LogCorrupt | None = None
    try:
        for line in log_lines(path):
            if not line.endswith("\n"):
                problem = TornLine(
                    f"{path}:{reader.number + 1}: the log ends mid-line "
                    f"(truncated after {len(reader.events)} events)",
                    len(reader.events),
                )
                break
            reader.take(line[:-1])
            if heads is not None and reader.header and len(heads) == len(reader.events):
                heads.append(reader.head)  # the first line after n events
    except LineTooLong as exc:
        problem = LineTooLong(str(exc), len(reader.events))
    except LogCorrupt as exc:
        problem = exc
    except UnicodeDecodeError:
        problem = LogCorrupt(f"{path}: the log is not valid UTF-8", len(reader.events))
    except OSError as exc:
        raise LogCorrupt(f"{path}: cannot read the log ({exc.strerror})", 0) from None
    if reader.header is None:
        raise problem or LogCorrupt(f"{path}: empty log (no header)", 0)
    log = GameLog(
        reader.header, reader.events, problem, reader.head, reader.end, reader.seals, reader.lines
    )
    if problem is None and log.end is None and log.has_end_records and log.finished:
        problem = log.corrupt = MissingEnd(
            f"{path}: the game ended but the log has no end record after its "
            f"{len(log.events)} events: lines were cut from its end",
            len(log.events),
        )
    if problem is not None and strict:
        raise problem
    return log


def sign_end(text: bytes, signer: Sealer) -> tuple[bytes, str]:
    """A whole log (built where the key is not: a worker's :class:`~duskfall.store.packed.
    LogBuffer`) with its end record signed, and its final chain hash; a log without an end
    record, or already signed, is returned as it is."""
    lines = text.rstrip(b"\n")
    cut = lines.rfind(b"\n")
    last = lines[cut + 1 :].decode("utf-8")
    tail = _HASH_TAIL.search(last)
    if tail is None or cut < 0:
        return text, ""
    data = json.loads(last[: tail.start()] + "}")
    if not isinstance(data, dict) or data.get("type") != END or "mac" in data:
        return text, tail.group(1)
    game_id = json.loads(text[: text.index(b"\n")])["game_id"]
    end = LogEnd.parse(data).signed(game_id, signer)
    line, head = chained_line(end.last, end.to_dict())
    return lines[: cut + 1] + line.encode("utf-8"), head


def truncate_to_whole_events(path: str | Path, log: GameLog) -> None:
    """Cut a damaged log file back to its whole lines (header, events, seals: for resuming)."""
    path = Path(path)
    keep = log.lines
    with path.open("rb") as handle:
        lines = handle.readlines()[:keep]
    with path.open("wb") as handle:
        handle.writelines(lines)
        handle.flush()
        os.fsync(handle.fileno())
