"""Signed records: a keyed MAC (HMAC-SHA256) on game logs and index rows.

A log's hash chain (:mod:`duskfall.store.log`) shows a changed line, but anyone can recompute
it; a signature can only be made with the operator's key (:mod:`duskfall.store.operator_key`,
its ``"records"`` subkey). A signed log carries, at every phase end, a *seal* line naming how
many events precede it, the chain hash of the line before it, the signing key's id and the
MAC of those; its end record carries the same for the whole log. Since each chain hash covers
every line before it, one MAC per phase signs the whole log so far, and the write path stays
one HMAC per phase. An index row is signed the same way
(:func:`duskfall.store.index.row_seal`), over its summary and its log's chain hash.

:class:`Signer` makes and checks MACs; :func:`check_log` gives a log's :class:`Verdict`;
:func:`record_signer` the signer of this process's new records, :func:`checking_signer` the
one ``replay`` checks with (``--key FILE``, else ``$DUSKFALL_KEY_FILE``, else the key beside
the index; never created).
"""

from __future__ import annotations

import hmac
import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from duskfall.core.errors import ConfigError, LogCorrupt
from duskfall.store.log import GameLog, LogEnd, log_message
from duskfall.store.operator_key import (
    KEY_ENV,
    key_path,
    load_key,
    operator_key,
    read_key,
    subkey,
)

PURPOSE = "records"


class LogForged(LogCorrupt):
    """A signature does not match what it signs: the record was forged or altered after the
    key holder wrote it."""


class Signer:
    """MACs of one operator key's ``"records"`` subkey; ``key_id`` names the key (16 hex
    digits, public: it tells keys apart and says nothing of them)."""

    def __init__(self, key: bytes) -> None:
        self._key = subkey(key, PURPOSE)
        self.key_id = hmac.digest(self._key, b"id", "sha256")[:8].hex()

    def mac(self, message: str) -> str:
        return hmac.digest(self._key, message.encode("utf-8"), "sha256").hex()

    def check(self, message: str, mac: str) -> bool:
        """Whether ``mac`` (any text: it comes from a file) is this key's MAC of ``message``."""
        given = mac.encode("utf-8", "surrogatepass")
        return hmac.compare_digest(self.mac(message).encode("ascii"), given)


_signers: dict[bytes, Signer] = {}
_by_path: dict[Path, Signer] = {}  # the key files this process signs with, read once


def signer_of(key: bytes) -> Signer:
    if key not in _signers:
        _signers[key] = Signer(key)
    return _signers[key]


def record_signer(db: str | Path | None = None) -> Signer | None:
    """The signer of the records this process writes: the operator key of ``db``'s index
    (default: the process's), created on first use; None when indexing is off and no
    ``$DUSKFALL_KEY_FILE`` is set, or the index's folder does not exist (such logs are
    unsigned)."""
    path = key_path(db)
    if path is None:
        return None
    if not path.parent.is_dir():
        if os.environ.get(KEY_ENV):
            raise ConfigError(f"cannot create the operator key {path}: no such directory")
        return None  # nor can the index be made there: that is its error to give
    where = path.resolve()
    if where in _by_path:
        return _by_path[where]
    try:
        signer = _by_path[where] = signer_of(operator_key(db))
        return signer
    except OSError as exc:
        raise ConfigError(f"cannot create the operator key {path}: {exc.strerror or exc}") from None


def checking_signer(key_file: Path | None = None, db: str | Path | None = None) -> Signer | None:
    """The signer a check uses: ``key_file`` if given, else ``$DUSKFALL_KEY_FILE``, else the
    key beside ``db``'s index; None if there is none (a key is never created to check)."""
    if key_file is not None:
        return signer_of(read_key(key_file))
    key = load_key(db)
    return None if key is None else signer_of(key)


NO_KEY_HINT = f"give --key FILE or {KEY_ENV}"


class Trust(Enum):
    """What a log's signature proves (see :func:`check_log`)."""

    SIGNED = "signed"  # every seal is this key's and matches
    NO_KEY = "no key"  # signed, but no key to check it with
    OTHER_KEY = "other key"  # signed with another key
    UNSIGNED = "unsigned"  # no seal at all


@dataclass(frozen=True)
class Verdict:
    """A log's signature check: its :class:`Trust`, the events the last seal covers, how many
    events follow it unsigned, and the key ids seen."""

    trust: Trust
    signed_events: int = 0
    unsigned_tail: int = 0
    key_ids: tuple[str, ...] = ()
    checking_id: str | None = None

    def describe(self) -> str:
        """One line for ``replay``."""
        if self.trust is Trust.SIGNED:
            text = f"verified (signed by this operator's key {self.checking_id})"
            if self.unsigned_tail:
                text += (
                    f" up to event {self.signed_events}; the {self.unsigned_tail} event(s) "
                    "after it were written after its last signature (the game was cut "
                    "mid-phase) and are checked for integrity only"
                )
            return text
        if self.trust is Trust.NO_KEY:
            return (
                f"integrity only: no operator key to check the signature of key "
                f"{', '.join(self.key_ids)} ({NO_KEY_HINT})"
            )
        if self.trust is Trust.OTHER_KEY:
            return (
                f"integrity only: signed by another key ({', '.join(self.key_ids)}), not this "
                f"operator's ({self.checking_id}); give its key with --key FILE to verify it"
            )
        return (
            "integrity only: the log is unsigned (written without an operator key, or before "
            "records were signed): nothing shows who wrote it"
        )


def check_log(log: GameLog, signer: Signer | None) -> Verdict:
    """The signature verdict of a parsed :class:`~duskfall.store.log.GameLog`; raises
    :class:`LogForged` if a seal of ``signer``'s key does not match, or a signed log's end
    record is not signed (a signed log's writer always signs its end)."""
    seals: list[LogEnd] = list(log.seals)
    end = log.end
    if end is not None and end.mac is not None:
        seals.append(end)
    if not seals:
        return Verdict(Trust.UNSIGNED)
    if end is not None and end.mac is None:
        raise LogForged(
            "forged or altered: the log is signed but its end record is not "
            "(its signed end was replaced)",
            len(log.events),
        )
    ids = tuple(dict.fromkeys(seal.key or "" for seal in seals))
    last = seals[-1]
    tail = len(log.events) - last.events
    if signer is None:
        return Verdict(Trust.NO_KEY, last.events, tail, ids)
    if ids != (signer.key_id,):
        return Verdict(Trust.OTHER_KEY, last.events, tail, ids, signer.key_id)
    game_id = log.header.game_id
    for seal in seals:
        if not signer.check(log_message(game_id, seal.events, seal.last), seal.mac or ""):
            raise LogForged(
                f"forged or altered: the signature after event {seal.events} does not match "
                "(the log was changed after this operator's key signed it)",
                seal.events,
            )
    return Verdict(Trust.SIGNED, last.events, tail, ids, signer.key_id)


def signature_of(path: Path, log: GameLog, signer: Signer | None) -> Verdict:
    """:func:`check_log` of the log read from ``path``, its error naming the file."""
    try:
        return check_log(log, signer)
    except LogForged as exc:
        raise LogForged(f"{path}: {exc}", exc.good_events) from None
