"""Seeded randomness. Every random choice in duskfall comes from a stream derived here.

A game's seed is a secret: whoever knows it can compute the deal (every hidden role) and the
bots' choices. Without ``--seed`` it is drawn from the OS (:func:`new_seed`, 128 bits); valid
seeds are ``0 <= seed < 2**128`` (:func:`check_seed`).

A command that plays many games from one seed (``serve --seed``, ``simulate --seed``, a
learning environment's resets) derives each game's seed from that master seed with a keyed
hash (:func:`derive_seed`, :func:`game_seeds`), never by counting up: a game's seed is public
once it ends, and from it nobody can compute the next game's, nor the master seed.

That holds only if the master seed cannot be guessed: a small one (``--seed 11``) is found by
trying every candidate against one published game seed. So tournaments, ``serve`` and
``simulate`` deal from a 32-byte *secret master* instead (:func:`keyed_master`: the user's seed
keyed with the operator's deal key, or :func:`new_secret` when no seed is given), and every game
seed from it with :func:`secret_seed`: nobody without the operator's key can compute a deal,
whatever number the user chose.
"""

import random
import secrets
from collections.abc import Iterable, Iterator
from hashlib import blake2b, sha512

from duskfall.core.errors import ConfigError

SEED_BITS = 128
MAX_SEED = 2**SEED_BITS - 1
SECRET_BYTES = 32  # a secret master: 256 bits


def derive_rng(seed: int, stream: str) -> random.Random:
    """An independent, reproducible generator for one purpose (``stream``) of one game.

    The generator is seeded with the text ``duskfall:SEED:STREAM`` hashed with SHA-512 as
    :mod:`random` does with string seeds (version 2), so streams are stable across processes
    and Python runs (unlike ``hash()``), and every bit of a big seed counts. The hashing is
    done here and the generator given the resulting number: the same stream as
    ``random.Random(text)``, without its slower seeding path (a game derives one per seat).
    """
    return random.Random(stream_seed(seed, stream))


def stream_seed(seed: int, stream: str) -> int:
    """The number :func:`derive_rng` seeds its generator with (``rng.seed(stream_seed(...))``
    re-seeds an existing generator in place, for everything holding it)."""
    text = f"duskfall:{seed}:{stream}".encode()
    return int.from_bytes(text + sha512(text).digest())


def derive_seed(master: int, label: str) -> int:
    """The seed named ``label`` under ``master``: BLAKE2b keyed with the master seed (its 16
    bytes), 128 bits out. Knowing any number of derived seeds tells nothing of the others or of
    ``master``; the same master and label always give the same seed."""
    key = check_seed(master, "master seed").to_bytes(SEED_BITS // 8, "big")
    digest = blake2b(label.encode(), key=key, digest_size=SEED_BITS // 8).digest()
    return int.from_bytes(digest, "big")


def game_seed(master: int, purpose: str, index: int) -> int:
    """The seed of game ``index`` (from 0) of those played from ``master`` for ``purpose``
    (``serve``, ``simulate``...): :func:`derive_seed` of ``f"{purpose}:{index}"``."""
    return derive_seed(master, f"{purpose}:{index}")


def game_seeds(master: int, purpose: str, indexes: Iterable[int]) -> Iterator[int]:
    """:func:`game_seed` of each of ``indexes``, one at a time."""
    return (game_seed(master, purpose, index) for index in indexes)


def optimizer_seed(master: int) -> int:
    """A 31-bit seed for a library's own generator (an optimiser's), derived from ``master``
    (never 0, which some libraries read as "unseeded")."""
    return 1 + derive_seed(master, "optimizer") % (2**31 - 1)


def new_secret() -> bytes:
    """A fresh secret master from the OS: 256 random bits."""
    return secrets.token_bytes(SECRET_BYTES)


def keyed_master(key: bytes, seed: int, purpose: str) -> bytes:
    """The secret master of the user's ``seed`` for ``purpose`` (``tournament``, ``serve``,
    ``simulate``): BLAKE2b keyed with the operator's deal ``key``, 256 bits out. The same key,
    seed and purpose always give the same master; without the key no seed, however small,
    leads to it."""
    text = f"duskfall:master:{purpose}:{check_seed(seed)}".encode()
    return blake2b(text, key=key, digest_size=SECRET_BYTES).digest()


def secret_seed(secret: bytes, label: str) -> int:
    """The game seed named ``label`` under a secret master (BLAKE2b keyed with it, 128 bits
    out): seeds of other labels, and the master, stay unknown to whoever learns it."""
    digest = blake2b(label.encode(), key=secret, digest_size=SEED_BITS // 8).digest()
    return int.from_bytes(digest, "big")


def secret_int(secret: bytes) -> int:
    """A secret master as the number :func:`derive_rng` streams take as their seed."""
    return int.from_bytes(secret, "big")


def new_seed() -> int:
    """A fresh secret seed from the OS: 128 random bits."""
    return secrets.randbits(SEED_BITS)


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` if it is a valid seed (an int in ``0..2**128-1``), else a one-line ConfigError."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"{what} must be a whole number from 0 to 2**128-1, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        shown = str(seed) if len(str(seed)) <= 50 else f"a {len(str(seed))}-digit number"
        raise ConfigError(f"{what} {shown} is out of range: use a whole number from 0 to 2**128-1")
    return seed


def parse_seed(text: str | int, what: str = "seed") -> int:
    """A seed from its decimal text (as logs and the index store it) or an int; checked."""
    if isinstance(text, str):
        stripped = text.strip()
        if not stripped.isascii() or not stripped.isdigit() or len(stripped) > 40:
            raise ConfigError(f"{what} must be a whole number from 0 to 2**128-1, not {text!r}")
        text = int(stripped)
    return check_seed(text, what)
