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

import marshal
from collections.abc import Mapping
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

from duskfall.protocol.framing import encode_frame, encode_json
from duskfall.protocol.messages import action_request

# The JSON of encode_message (compact, UTF-8, no NaN), so that the frames are the same bytes.
_encode = encode_json


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


# (field name, id of its value) -> the value and its field: see ObservationFrames.fields
SharedFields = dict[tuple[str, int], tuple[Any, Field]]

SMALL = 1024  # bytes of snapshot up to which a value is kept among the small ones (a player's row)
SMALL_KEPT = 256  # small values kept at most, then forgotten all at once (memory: < 1 MB a game)


class ObservationFrames:
    """Encodes the ``ACTION_REQUEST`` frames of one game (see the module docstring)."""

    def __init__(self) -> None:
        self._last: dict[str, Field] = {}  # each field's last large value
        self._small: dict[tuple[str, bytes], Field] = {}  # small values' fields, list items
        self._heads: dict[tuple[int, str], str] = {}  # a state update's opening, per seat and phase
        # The fields encoded since the game's state last changed, to pass as ``shared`` to
        # :meth:`fields`; None until someone tells these frames of every change
        # (:meth:`follow_state`, then :meth:`state_changed`).
        self.unchanged: SharedFields | None = None

    def follow_state(self) -> None:
        """From now on :meth:`state_changed` is called before every change of the state."""
        self.unchanged = {}

    def state_changed(self) -> None:
        """The state is about to change: no value encoded so far may be reused by identity."""
        if self.unchanged is not None:
            self.unchanged = {}

    def fields(
        self, observation: Mapping[str, Any], shared: SharedFields | None = None
    ) -> dict[str, Field] | None:
        """Each field of ``observation`` encoded (None if it has a key that is not a string).

        ``shared`` is for the observations of several seats built from one state that does
        not change in between (a round of state updates): a value that is the very same
        object as one already encoded there (a table the state shares between seats) is not
        looked at again (the same object in one unchanged state has the same JSON).
        """
        out: dict[str, Field] = {}
        field_of = self._field
        if shared is None:
            for name, value in observation.items():
                if type(name) is not str:
                    return None
                out[name] = field_of(name, value)
            return out
        seen_in = shared.get
        for name, value in observation.items():
            if type(name) is not str:
                return None
            seen = seen_in((name, id(value)))
            if seen is not None and seen[0] is value:
                out[name] = seen[1]
            else:
                field = out[name] = field_of(name, value)
                shared[name, id(value)] = (value, field)  # the value kept: its id stays its own
        return out

    def _field(self, name: str, value: Any) -> Field:
        try:  # an exact, cheap fingerprint of the value
            snapshot = marshal.dumps(value)
        except ValueError:  # not plain data (e.g. an object with to_dict): always encoded
            return Field(None, _name(name) + _encode(value))
        if len(snapshot) <= SMALL:
            return self._small_field(name, value, snapshot)
        cached = self._last.get(name)
        if cached is None or cached.snapshot != snapshot:
            cached = self._last[name] = Field(snapshot, _name(name) + self._json(name, value))
        return cached

    def _json(self, name: str, value: Any) -> str:
        """The JSON of a large value; a list's items go through the small values' cache, so
        that a table of which one row changed costs one row's encoding."""
        if type(value) is not list or len(value) < 2:
            return _encode(value)
        return "[" + ",".join([self._item(name, item) for item in value]) + "]"

    def _item(self, name: str, item: Any) -> str:
        try:
            snapshot = marshal.dumps(item)
        except ValueError:
            return _encode(item)
        if len(snapshot) > SMALL:
            return _encode(item)
        return self._small_field(f"{name}[]", item, snapshot, named=False).text

    def _small_field(self, name: str, value: Any, snapshot: bytes, *, named: bool = True) -> Field:
        """The field of a small value, kept by its snapshot (``named=False``: a list item,
        its text the bare JSON). Fields are never changed, so one serves every seat."""
        small = self._small
        field = small.get((name, snapshot))
        if field is None:
            if len(small) >= SMALL_KEPT:
                small.clear()
            text = _name(name) + _encode(value) if named else _encode(value)
            field = small[name, snapshot] = Field(snapshot, text)
        return field

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

    def state_update(
        self,
        player_id: int,
        phase: str,
        fields: Mapping[str, Field],
        game_id: str | None = None,
        *,
        partial: bool = False,
    ) -> bytes:
        """The frame of a state update, ``frame(action_request(player_id, phase, {},
        observation, game_id=game_id, partial=partial or None), fields)`` without building the
        message: its opening, the same for a seat all through a phase, is kept."""
        head = self._heads.get((player_id, phase))
        if head is None:
            if len(self._heads) >= SMALL_KEPT:
                self._heads.clear()
            message = action_request(player_id, phase, {}, {})
            del message["observation"]  # the last key: its value follows the opening
            opening = [_name(name) + _scalar(value) for name, value in message.items()]
            head = self._heads[player_id, phase] = ",".join([*opening, _name("observation")])
        tail = "" if game_id is None else f",{_name('game_id')}{_scalar(game_id)}"
        if partial:
            tail += f",{_name('partial')}true"
        return encode_frame(f"{{{head}{_object(fields)}{tail}}}".encode())


def _object(fields: Mapping[str, Field]) -> str:
    return "{" + ",".join([field.text for field in fields.values()]) + "}"
