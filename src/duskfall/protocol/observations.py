"""``ACTION_REQUEST`` frames whose observations are encoded once per distinct value.

Every seat of a game gets its observation after every action (the requests and the state
updates), and most of it is the public table, the same for every seat: the JSON of the whole
observation for each seat was most of a server's time. :class:`ObservationFrames` encodes an
observation field by field and keeps, for each field, the JSON of its last value, and of every
small value it has seen (a seat's role, its known roles: one per seat): a value seen again (the
next seat's table, an unchanged vote history, a seat's own fields) costs a ``marshal`` snapshot
and a lookup instead of a JSON encoding. The snapshot, unlike ``==``, tells ``True`` from ``1``
and ``1.0``, so equal snapshots mean identical JSON.

:meth:`ObservationFrames.fields` also gives each field's snapshot, which is how a state update
can carry only the fields that changed for a seat (the ``state_updates: "changes"`` option of
the client's HELLO).
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Mapping
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

from duskfall.protocol.framing import encode_frame

# The JSON of encode_message (compact, UTF-8, no NaN), so that the frames are the same bytes.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def _scalar(value: Any) -> str:
    """``_encode(value)``, without the encoder's set-up for the small values of a request."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if kind is dict and not value:
        return "{}"  # a state update's valid_actions
    return _encode(value)


@lru_cache(maxsize=1024)
def _name(name: str) -> str:
    """A field's name as a JSON string and its colon (the names are few: cached)."""
    return f"{_encode(name)}:"


class Field:
    """One encoded observation field: ``"name":value`` and the snapshot of its value."""

    __slots__ = ("snapshot", "text")

    def __init__(self, snapshot: bytes | None, text: str) -> None:
        self.snapshot = snapshot
        self.text = text


SMALL = 512  # bytes of snapshot up to which a value is kept among the small ones
SMALL_KEPT = 1024  # small values kept at most (then forgotten all at once)


class ObservationFrames:
    """Encodes the ``ACTION_REQUEST`` frames of one game (see the module docstring)."""

    def __init__(self) -> None:
        self._last: dict[str, Field] = {}  # each field's last large value
        self._small: dict[tuple[str, bytes], Field] = {}

    def fields(self, observation: Mapping[str, Any]) -> dict[str, Field] | None:
        """Each field of ``observation`` encoded (None if it has a key that is not a string)."""
        out: dict[str, Field] = {}
        last = self._last
        snapshot: bytes | None
        for name, value in observation.items():
            if type(name) is not str:
                return None
            try:  # an exact, cheap fingerprint of the value
                snapshot = marshal.dumps(value)
            except ValueError:  # not plain data (e.g. an object with to_dict): always encoded
                snapshot = None
            if snapshot is not None and len(snapshot) <= SMALL:
                out[name] = self._small_field(name, value, snapshot)
                continue
            cached = last.get(name)
            if cached is None or snapshot is None or cached.snapshot != snapshot:
                cached = last[name] = Field(snapshot, _name(name) + _encode(value))
            out[name] = cached
        return out

    def _small_field(self, name: str, value: Any, snapshot: bytes) -> Field:
        small = self._small
        cached = small.get((name, snapshot))
        if cached is None:
            if len(small) >= SMALL_KEPT:
                small.clear()
            cached = small[name, snapshot] = Field(snapshot, _name(name) + _encode(value))
        return cached

    def frame(self, message: Mapping[str, Any], fields: Mapping[str, Field] | None = None) -> bytes:
        """The frame of ``message``, an ``ACTION_REQUEST``, its observation encoded field by
        field; ``fields`` (from :meth:`fields`) replaces it, e.g. by only the fields that changed.
        """
        parts: list[str] = []
        for name, value in message.items():
            if name == "observation":
                if fields is None:
                    fields = self.fields(value)
                text = _object(fields) if fields is not None else _encode(value)
            else:
                text = _scalar(value)
            parts.append(_name(name) + text)
        return encode_frame(("{" + ",".join(parts) + "}").encode("utf-8"))


def _object(fields: Mapping[str, Field]) -> str:
    return "{" + ",".join([field.text for field in fields.values()]) + "}"
