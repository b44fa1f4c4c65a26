"""The one redaction function: secrets out of anything printed, logged, indexed or served.

:func:`redact` replaces, in any text (a model spec, a URL, a header dump, an error message, a
model's reply, a player's speech):

* the value of every registered secret, wherever it appears, and any run of
  :data:`~duskfall.core.disguise.WINDOW` of its letters and digits in disguise (upper case,
  full-width, spaced, dotted or dashed, joined with zero-width or bidi characters or soft
  hyphens, reversed, hex, ``%XX``, HTML references, base64, without its ``sk-`` prefix:
  :mod:`.disguise`);
* the userinfo of URLs (``http://user:KEY@host`` -> ``http://host``);
* the values of ``Authorization``, ``x-api-key`` and ``api-key`` headers, and ``Bearer ...``
  tokens.

Secrets are registered by the layer that knows them: the LLM layer registers API keys (from
the environment and the ``DUSKFALL_LLM_CONFIG`` file) with :func:`register_secret_env` and
:func:`register_secret`; the web app and the server register their admin and seat tokens (the
server forgets a game's seat tokens with :func:`forget_secret` once the game is over). A
variable named to :func:`register_secret_env` is read then (and again by
:func:`refresh_secret_env`), never per call: the matcher is compiled once per set of secrets.

What it costs: with no secret registered, a text pays one substring scan (the credential
patterns run only where it finds ``://``, ``bearer``, ``basic``, ``auth`` or ``api``); with
secrets, one regex pass and the disguise search. Only untrusted text pays it at all: an event
declares which of its payload's fields are untrusted text (:func:`redact_payload`), so an event
of numbers and seats never reaches the matcher. :func:`redact_value` applies :func:`redact` to
every string inside JSON-like data. :class:`SeatTails` also catches a secret split across one
seat's consecutive texts.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from duskfall.core.disguise import DisguiseMatcher

MASK = "***"
MIN_SECRET_LENGTH = 4  # shorter values would blank ordinary words

_URL_USERINFO = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s@?#]*@")
_HEADER_VALUE = re.compile(
    r"""(?ix)
    (["']?\b(?:proxy-)?(?:authorization|x-api-key|api[-_]key)["']?\s*[:=]\s*["']?)
    (?:(?:bearer|basic|token)\s+)?
    [^\s"',;}]+
    """
)
# a token has a digit or punctuation in it, so "the bearer of bad news" stays as it is
_BEARER = re.compile(r"(?i)\b(bearer|basic)(\s+)(?=[^\s]*[0-9._~+/=-])[A-Za-z0-9._~+/=:-]{6,}")
# the credential patterns above can only match where one of these is
_CREDENTIAL_HINT = re.compile(r"(?i)://|bearer|basic|auth|api")
# texts already found clean, up to this many characters in all: a model's conversation is
# recorded again with every call, and each turn is searched once
_MEMO_CHARS = 1 << 22


@dataclass(frozen=True)
class _Matcher:
    """The compiled form of one set of secrets."""

    exact: re.Pattern[str]
    disguised: DisguiseMatcher | None

    @classmethod
    def of(cls, values: Collection[str]) -> _Matcher | None:
        if not values:
            return None
        ordered = sorted(values, key=len, reverse=True)  # longest first: no partial leftovers
        exact = re.compile("|".join(re.escape(v) for v in ordered))
        return cls(exact, DisguiseMatcher.of(values))

    def mask(self, text: str) -> str:
        text = self.exact.sub(MASK, text)
        return text if self.disguised is None else self.disguised.mask(text, MASK)


_lock = threading.Lock()
_secrets: set[str] = set()
_env_values: dict[str, str] = {}  # variable name -> its value when last read
_matcher: _Matcher | None = None
_clean: dict[str, None] = {}  # texts with nothing to mask under today's matcher
_clean_chars = 0
_calls = 0


def _rebuild() -> None:
    """Compile the matcher of today's secrets (under the lock)."""
    global _matcher, _clean_chars
    _matcher = _Matcher.of(_secrets | {value for value in _env_values.values() if value})
    _clean.clear()
    _clean_chars = 0


def _long_enough(value: str | None) -> bool:
    return bool(value) and len(str(value).strip()) >= MIN_SECRET_LENGTH


def register_secret(value: str | None) -> None:
    """Have :func:`redact` replace ``value`` wherever it appears (too short values are ignored)."""
    if not _long_enough(value):
        return
    assert value is not None
    with _lock:
        if value not in _secrets:
            _secrets.add(value)
            _rebuild()


def forget_secret(value: str | None) -> None:
    """Stop masking ``value``: a secret whose use has ended (a finished game's seat token), so
    that a long-running server's list of secrets does not grow with every game it plays."""
    with _lock:
        if value in _secrets:
            _secrets.discard(value)
            _rebuild()


def register_secret_env(*names: str) -> None:
    """Have :func:`redact` replace the values of these environment variables, as they are now
    (read again by :func:`refresh_secret_env` and by registering a name again)."""
    with _lock:
        _read_env(names)


def refresh_secret_env() -> None:
    """Read every registered variable again (after the environment changed)."""
    with _lock:
        _read_env(list(_env_values))


def _read_env(names: Collection[str]) -> None:
    before = dict(_env_values)
    for name in names:
        value = os.environ.get(name)
        _env_values[name] = value if value is not None and _long_enough(value) else ""
    if _env_values != before:
        _rebuild()


def forget_secrets() -> None:
    """Drop every registered value and variable name (for tests)."""
    with _lock:
        _secrets.clear()
        _env_values.clear()
        _rebuild()


def matched_texts() -> int:
    """How many texts have gone through :func:`redact` in this process (a cost counter: tests
    check that events without untrusted text never reach the matcher)."""
    return _calls


def redact(text: str) -> str:
    """``text`` with known secrets (in any disguise), URL credentials, auth header values and
    bearer tokens masked."""
    global _calls, _clean_chars
    _calls += 1
    if len(text) < MIN_SECRET_LENGTH or text in _clean:  # too short to hold anything
        return text
    matcher = _matcher
    masked = text if matcher is None else matcher.mask(text)
    if _CREDENTIAL_HINT.search(masked):
        masked = _URL_USERINFO.sub(r"\g<1>", masked)
        masked = _HEADER_VALUE.sub(rf"\g<1>{MASK}", masked)
        masked = _BEARER.sub(rf"\g<1>\g<2>{MASK}", masked)
    if masked is text and matcher is _matcher:
        if _clean_chars > _MEMO_CHARS:
            _clean.clear()
            _clean_chars = 0
        _clean[text] = None
        _clean_chars += len(text)
    return masked


def redact_value(value: Any) -> Any:
    """``value`` (JSON-like data) with :func:`redact` applied to every string in it.

    Data with nothing to mask comes back as the very same object (no copy, types kept); a
    container holding something masked comes back as a new dict or list.
    """
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        copy: dict[Any, Any] | None = None
        for number, (key, item) in enumerate(value.items()):
            new_key = redact(key) if isinstance(key, str) else key
            new_item = item if isinstance(item, _PLAIN) else redact_value(item)
            if copy is None and (new_key is not key or new_item is not item):
                copy = dict(itertools.islice(value.items(), number))
            if copy is not None:
                copy[new_key] = new_item
        return value if copy is None else copy
    if isinstance(value, list | tuple):
        items = [item if isinstance(item, _PLAIN) else redact_value(item) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return items
    return value


_PLAIN = (int, float, type(None))  # nothing to mask (bool is an int)


def redact_payload(payload: dict[str, Any], text_fields: Collection[str] | None) -> dict[str, Any]:
    """``payload`` with :func:`redact_value` applied to its ``text_fields`` only (the fields an
    event's kind declares to carry untrusted text; ``None``: not declared, so every field). The
    same dict when nothing was masked; an event without text fields never reaches the matcher."""
    if text_fields is None:
        redacted: dict[str, Any] = redact_value(payload)
        return redacted
    changed: dict[str, Any] | None = None
    for name in text_fields:
        value = payload.get(name)
        if value is None or value == "":
            continue
        masked = redact_value(value)
        if masked is not value:
            changed = changed if changed is not None else dict(payload)
            changed[name] = masked
    return payload if changed is None else changed


class SeatTails:
    """Catches a secret split across one seat's consecutive texts (two replies, two speeches,
    a reply's reasoning and the next one's speech): each text is searched joined to the end of
    each of the seat's streams (a field of its replies, its speeches, its thoughts), and the
    part of a secret found across a join is masked in the new text (the old one, with less than
    a run of the secret, was recorded already)."""

    KEEP = 256  # characters of a stream's last texts kept: a disguised key, separators and all

    def __init__(self) -> None:
        self._tails: dict[int, dict[str, str]] = {}

    def redact(self, seat: int | None, text: str, stream: str = "") -> str:
        """``text`` (the seat's next text in ``stream``) redacted, the joins included."""
        masked: str = self.redact_value(seat, text, stream)
        return masked

    def redact_value(self, seat: int | None, value: Any, stream: str = "") -> Any:
        """:meth:`redact` applied to every string in ``value`` (one answer), each path its own
        stream, each joined to the streams' ends as they were before this answer."""
        if seat is None or _matcher is None:
            return redact_value(value)
        tails = self._tails.setdefault(seat, {})
        return self._walk(value, stream, dict(tails), tails)

    def _walk(self, value: Any, stream: str, before: dict[str, str], after: dict[str, str]) -> Any:
        if isinstance(value, str):
            return self._text(value, stream, before, after)
        if isinstance(value, Mapping):
            items = {k: self._walk(v, f"{stream}.{k}", before, after) for k, v in value.items()}
            same = all(items[k] is v for k, v in value.items())
            return value if same else items
        if isinstance(value, list | tuple):
            values = [self._walk(v, stream, before, after) for v in value]
            return value if all(v is v0 for v, v0 in zip(values, value, strict=True)) else values
        return value

    def _text(self, text: str, stream: str, before: dict[str, str], after: dict[str, str]) -> str:
        masked = redact(text)
        matcher = _matcher
        if not masked or matcher is None:
            return masked
        for tail in before.values():
            joined = matcher.mask(tail + masked)  # a registered secret, not a pattern's match
            if joined != tail + masked:  # a secret across the join: mask its part in this text
                kept = _common_suffix(joined, masked)
                if kept < len(masked):
                    masked = MASK + masked[len(masked) - kept :]
        after[stream] = (after.get(stream, "") + masked)[-self.KEEP :]
        return masked


def _common_suffix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            break
        n += 1
    return n
