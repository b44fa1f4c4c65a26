"""Seeds: 128 bits from the OS, every bit counts, the same stream in every process."""

from __future__ import annotations

import random

import pytest

from duskfall.core.errors import ConfigError
from duskfall.core.rng import MAX_SEED, check_seed, derive_rng, new_seed, parse_seed


def test_streams_are_pinned_for_small_and_big_seeds() -> None:
    # the stream of a seed never changes (across processes, runs and Python versions)
    assert derive_rng(MAX_SEED, "deal").getrandbits(64) == 4764090030849448518
    assert derive_rng(7, "deal").getrandbits(64) == 14725536242199171377


def test_every_bit_of_a_big_seed_counts() -> None:
    base = derive_rng(5, "deal").getrandbits(64)
    assert all(derive_rng(5 + (1 << bit), "deal").getrandbits(64) != base for bit in range(128))


def test_new_seeds_have_128_bits_and_are_valid() -> None:
    seeds = [new_seed() for _ in range(64)]
    assert len(set(seeds)) == 64 and all(check_seed(s) == s for s in seeds)
    assert max(s.bit_length() for s in seeds) > 120


@pytest.mark.parametrize("bad", [-1, MAX_SEED + 1, 1.5, True, "7", None])
def test_check_seed_refuses_what_is_not_a_seed(bad: object) -> None:
    with pytest.raises(ConfigError, match="2\\*\\*128-1"):
        check_seed(bad)


def test_parse_seed_reads_decimal_text() -> None:
    assert parse_seed(str(MAX_SEED)) == MAX_SEED and parse_seed(" 12 ") == 12
    for bad in ("", "-1", "0x10", "1e3", "١٢", str(MAX_SEED + 1)):
        with pytest.raises(ConfigError):
            parse_seed(bad)


def test_a_stream_is_random_seeded_with_its_text() -> None:
    for seed, stream in ((0, "deal"), (7, "agent:3"), (2**128 - 1, "rules é")):
        ours, theirs = derive_rng(seed, stream), random.Random(f"duskfall:{seed}:{stream}")
        assert [ours.random() for _ in range(3)] == [theirs.random() for _ in range(3)]
