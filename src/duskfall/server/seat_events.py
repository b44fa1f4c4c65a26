"""A seat's numbered events: ``seq`` on every ``GAME_EVENT`` it is sent, and what it missed.

Numbering is per seat: a seat's events are numbered 1, 2, 3... in the order it was sent them,
counting only the events it may see, so a number tells nothing about the events hidden from
it (a quiet night for the village is as long in numbers as a busy one). Every event is kept,
whether or not a connection was there to take it, so a client that reconnects gets what it
missed: the events after the ``last_seq`` its ``HELLO`` names, or, without one, those that
arrived while it had no connection.
"""

from __future__ import annotations

from duskfall.protocol.framing import encode_frame


class SeatEvents:
    """The ``GAME_EVENT`` objects one seat was sent (their JSON without ``seq``), in order."""

    __slots__ = ("_delivered", "_texts")

    def __init__(self) -> None:
        self._texts: list[str] = []
        self._delivered = 0  # events handed to a connection (those after it were missed)

    @property
    def last_seq(self) -> int:
        return len(self._texts)

    def add(self, text: str, *, connected: bool) -> bytes:
        """Number ``text`` (a ``GAME_EVENT``'s JSON object) and return its frame."""
        self._texts.append(text)
        if connected:
            self._delivered = len(self._texts)
        return self._frame(len(self._texts))

    def missed(self, last_seq: int | None) -> list[bytes]:
        """The frames after ``last_seq`` (None: after the last one a connection took), and
        from now on every event counts as delivered."""
        start = self._delivered if last_seq is None else max(0, min(last_seq, len(self._texts)))
        self._delivered = len(self._texts)
        return [self._frame(seq) for seq in range(start + 1, len(self._texts) + 1)]

    def _frame(self, seq: int) -> bytes:
        text = self._texts[seq - 1]
        return encode_frame(f'{text[:-1]},"seq":{seq}}}'.encode())
