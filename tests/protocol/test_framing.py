"""Frame encoding and the incremental decoder: partial frames, batches, the size limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.protocol import (
    DEFAULT_MAX_FRAME,
    HEADER_SIZE,
    FrameDecoder,
    FrameError,
    FrameTooLarge,
    encode_frame,
    encode_message,
)


def test_frame_is_eight_byte_big_endian_length_then_payload() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x00\x00\x00\x00\x03abc"
    assert encode_message({"type": "ERROR", "message": "é"}) == encode_frame(
        '{"type":"ERROR","message":"é"}'.encode()
    )


def test_default_limit_is_one_mebibyte() -> None:
    assert DEFAULT_MAX_FRAME == 1024 * 1024
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(b"x" * DEFAULT_MAX_FRAME)) == [b"x" * DEFAULT_MAX_FRAME]


def test_byte_by_byte_and_batched_frames() -> None:
    stream = encode_frame(b"one") + encode_frame(b"") + encode_frame(b"three")
    decoder = FrameDecoder()
    out: list[bytes] = []
    for i in range(len(stream)):
        out += decoder.feed(stream[i : i + 1])
    assert out == [b"one", b"", b"three"]
    assert not decoder.pending
    assert FrameDecoder().feed(stream) == [b"one", b"", b"three"]


def test_pending_tracks_a_started_frame() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(b"hello")[:3]) == []
    assert decoder.pending
    assert decoder.feed(encode_frame(b"hello")[3:]) == [b"hello"]
    assert not decoder.pending


def test_oversized_length_refused_from_the_header_alone() -> None:
    decoder = FrameDecoder(max_frame=100)
    header = (101).to_bytes(HEADER_SIZE, "big")
    assert decoder.feed(header[:7]) == []
    with pytest.raises(FrameTooLarge) as info:
        decoder.feed(header[7:])  # no body byte has been sent
    assert info.value.length == 101 and info.value.limit == 100
    assert decoder.buffered == 0
    with pytest.raises(FrameError):
        decoder.feed(b"more")


def test_huge_length_prefix_refused() -> None:
    with pytest.raises(FrameTooLarge):
        FrameDecoder().feed(b"\xff" * HEADER_SIZE)


def test_frame_at_the_limit_is_accepted() -> None:
    assert FrameDecoder(max_frame=5).feed(encode_frame(b"12345")) == [b"12345"]


payloads = st.lists(st.binary(max_size=300), max_size=12)


@settings(max_examples=300, deadline=None)
@given(payloads, st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=40))
def test_any_split_of_any_frames_decodes_to_the_same_payloads(
    frames: list[bytes], cuts: list[int]
) -> None:
    stream = b"".join(encode_frame(p) for p in frames)
    decoder = FrameDecoder(max_frame=300)
    out: list[bytes] = []
    pos = 0
    i = 0
    while pos < len(stream):
        size = cuts[i % len(cuts)]
        out += decoder.feed(stream[pos : pos + size])
        pos += size
        i += 1
    assert out == frames
    assert not decoder.pending


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=2000), st.integers(min_value=0, max_value=512))
def test_arbitrary_bytes_only_ever_yield_frames_or_a_frame_error(data: bytes, limit: int) -> None:
    decoder = FrameDecoder(max_frame=limit)
    try:
        frames = decoder.feed(data)
    except FrameTooLarge as exc:
        assert exc.length > limit
        return
    assert all(len(f) <= limit for f in frames)
    consumed = sum(HEADER_SIZE + len(f) for f in frames)
    # what is left is buffered, except a parsed header of the frame in progress
    assert len(data) - consumed - decoder.buffered in (0, HEADER_SIZE)
