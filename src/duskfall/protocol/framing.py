"""Frames: an 8-byte unsigned big-endian length, then that many bytes of UTF-8 JSON.

:class:`FrameDecoder` is incremental: feed it whatever ``recv`` returned (half a header, several
frames at once, ...) and take the complete frames out. A length over the limit is refused as soon
as the 8 header bytes are in, before any of the body is read or buffered.
"""

from __future__ import annotations

import json
from typing import Any

HEADER_SIZE = 8
DEFAULT_MAX_FRAME = 1024 * 1024  # 1 MiB


class FrameError(Exception):
    """The byte stream cannot be read any further (the connection must be closed)."""

    code = "bad_frame"


class FrameTooLarge(FrameError):
    """A length prefix over the limit; raised before the body is read."""

    code = "frame_too_large"

    def __init__(self, length: int, limit: int) -> None:
        super().__init__(f"frame of {length} bytes is over the limit of {limit} bytes")
        self.length = length
        self.limit = limit


def encode_frame(payload: bytes) -> bytes:
    """Prefix ``payload`` with its 8-byte big-endian length."""
    return len(payload).to_bytes(HEADER_SIZE, "big") + payload


# Compact JSON, UTF-8 as is, no NaN: one encoder for every frame (json.dumps with options
# builds one per call).
encode_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def encode_message(message: dict[str, Any]) -> bytes:
    """One frame holding ``message`` as compact UTF-8 JSON."""
    return encode_frame(encode_json(message).encode("utf-8"))


class FrameDecoder:
    """Incremental frame decoder with a size limit.

    ``feed(data)`` returns the payloads of every frame completed by ``data``; a length over
    ``max_frame`` raises :class:`FrameTooLarge` (the decoder is then unusable: close the stream).
    ``pending`` says whether a frame has been started but not finished (for read deadlines).
    """

    __slots__ = ("_buffer", "_expected", "_failed", "max_frame")

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        if max_frame < 0:
            raise ValueError("max_frame must be >= 0")
        self.max_frame = max_frame
        self._buffer = bytearray()
        self._expected: int | None = None
        self._failed = False

    @property
    def pending(self) -> bool:
        """True while part of a frame (header or body) has arrived but not all of it."""
        return bool(self._buffer) or self._expected is not None

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        if self._failed:
            raise FrameError("decoder already failed; the stream cannot be resynchronised")
        self._buffer += data
        frames: list[bytes] = []
        while True:
            if self._expected is None:
                if len(self._buffer) < HEADER_SIZE:
                    return frames
                length = int.from_bytes(self._buffer[:HEADER_SIZE], "big")
                if length > self.max_frame:
                    self._failed = True
                    self._buffer.clear()
                    raise FrameTooLarge(length, self.max_frame)
                del self._buffer[:HEADER_SIZE]
                self._expected = length
            if len(self._buffer) < self._expected:
                return frames
            frames.append(bytes(self._buffer[: self._expected]))
            del self._buffer[: self._expected]
            self._expected = None
