"""A game's record packed by a worker and written by the driver: byte for byte the log a
writer would have written, and a packed folder that can only land inside its target."""

from __future__ import annotations

import io
import tarfile
import zlib
from pathlib import Path

import pytest

from duskfall.core.events import Event
from duskfall.store.log import LogHeader, LogWriter, read_log
from duskfall.store.packed import (
    LogBuffer,
    Packed,
    PackedDamaged,
    pack_folder,
    unpack_folder,
    write_log_file,
)


def _events(count: int) -> list[Event]:
    return [
        Event(
            "speech", {"seat": i % 6, "text": f"line {i} é"}, "public", 1 + i // 20, "day", i, "g"
        )
        for i in range(count)
    ]


@pytest.mark.parametrize("compress", [True, False])
def test_a_packed_log_is_the_log_a_writer_writes(tmp_path: Path, compress: bool) -> None:
    header = LogHeader("g", "sports-mafia", {}, 7, [{"seat": 0, "agent": "random"}])
    writer = LogWriter(tmp_path / "written.jsonl", header)
    buffer = LogBuffer(header, compress=compress)
    for event in _events(300):
        writer.on_event(event)
        buffer.on_event(event)
    writer.close()
    packed = buffer.packed()
    assert packed.compressed is compress
    write_log_file(tmp_path / "packed.jsonl", packed)
    assert (tmp_path / "packed.jsonl").read_bytes() == (tmp_path / "written.jsonl").read_bytes()
    assert len(read_log(tmp_path / "packed.jsonl").events) == 300  # the chain holds
    assert not list(tmp_path.glob(".*.part"))  # written under a temporary name, then renamed
    if compress:
        assert len(packed) * 3 < (tmp_path / "written.jsonl").stat().st_size  # hashes do not shrink


def test_side_files_come_back_where_they_were(tmp_path: Path) -> None:
    source = tmp_path / "worker"
    (source / "g.records" / "seat-1").mkdir(parents=True)
    (source / "g.records" / "seat-1" / "history.jsonl").write_text("{}\n")
    (source / "g-seat2.err").write_text("no model\n")
    packed = pack_folder(source)
    (tmp_path / "empty").mkdir()
    assert packed is not None and pack_folder(tmp_path / "empty") is None
    unpack_folder(packed, tmp_path / "games")
    assert (tmp_path / "games" / "g-seat2.err").read_text() == "no model\n"
    assert (tmp_path / "games" / "g.records" / "seat-1" / "history.jsonl").exists()


def _tar(name: str, kind: bytes = tarfile.REGTYPE) -> Packed:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        member = tarfile.TarInfo(name)
        member.type = kind
        member.linkname = "/etc/passwd" if kind == tarfile.SYMTYPE else ""
        archive.addfile(member, io.BytesIO(b""))
    return Packed(zlib.compress(buffer.getvalue()))


@pytest.mark.parametrize(
    "packed", [_tar("../outside.txt"), _tar("/etc/cron.d/x"), _tar("link", tarfile.SYMTYPE)]
)
def test_a_packed_folder_never_writes_outside_its_target(tmp_path: Path, packed: Packed) -> None:
    with pytest.raises(PackedDamaged):
        unpack_folder(packed, tmp_path / "games")
    assert not (tmp_path / "outside.txt").exists()


def test_damaged_bytes_are_one_error() -> None:
    with pytest.raises(PackedDamaged, match="damaged"):
        Packed(b"not zlib at all").raw()
