"""A seat's numbered events: ``seq`` on every ``GAME_EVENT`` it is sent, and what it missed.

Numbering is per seat: a seat's events are numbered 1, 2, 3... in the order it was sent them,
counting only the events it may see, so a number tells nothing about the events hidden from
it (a quiet night for the village is as long in numbers as a busy one). Every event is kept,
whether or not a connection was there to take it, so a client that reconnects gets what it
missed: the events after the ``last_seq`` its ``HELLO`` names, or, without one, those that
arrived while it had no connection.
"""

from __future__ import annotations

from duskfall.protocol.framing import HEADER_SIZE, encode_json


def event_body(message: dict[str, object]) -> bytes:
    """A ``GAME_EVENT``'s JSON without its closing brace, shared by every seat it goes to
    (each seat's frame adds its own ``"seq"``)."""
    return encode_json(message)[:-1].encode("utf-8")


class SeatEvents:
    """The ``GAME_EVENT`` bodies one seat was sent (:func:`event_body`), in order."""

    __slots__ = ("_bodies", "_delivered")

    def __init__(self) -> None:
        self._bodies: list[bytes] = []
        self._delivered = 0  # events handed to a connection (those after it were missed)

    @property
    def last_seq(self) -> int:
        return len(self._bodies)

    @property
    def delivered(self) -> int:
        """The number of the last event handed to a connection (a reconnect without
        ``last_seq`` is sent those after it)."""
        return self._delivered

    def add(self, body: bytes, *, connected: bool) -> bytes:
        """Number ``body`` (see :func:`event_body`) and return its frame."""
        self._bodies.append(body)
        if connected:
            self._delivered = len(self._bodies)
        return self._frame(len(self._bodies))

    def missed(self, last_seq: int | None) -> list[bytes]:
        """The frames after ``last_seq`` (None: after the last one a connection took), and
        from now on every event counts as delivered."""
        count = len(self._bodies)
        start = self._delivered if last_seq is None else max(0, min(last_seq, count))
        self._delivered = count
        return [self._frame(seq) for seq in range(start + 1, count + 1)]

    def _frame(self, seq: int) -> bytes:
        body = self._bodies[seq - 1]
        tail = b',"seq":%d}' % seq
        return (len(body) + len(tail)).to_bytes(HEADER_SIZE, "big") + body + tail
