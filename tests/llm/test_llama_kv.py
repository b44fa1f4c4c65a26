"""The saved-state cache of the local model, without a model: lookup by longest prefix, one
entry per conversation, a bound in bytes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from duskfall.testing.require import require

require("llama_cpp", "pip install 'duskfall[local]'")

from llama_cpp import LlamaState  # noqa: E402

from duskfall.llm.providers.llama_kv import PrefixStateCache, common_prefix  # noqa: E402
from duskfall.llm.providers.reusing_llama import MIN_BATCH, batches  # noqa: E402


def state(tokens: list[int], size: int = 100) -> Any:
    ids = np.asarray(tokens, dtype=np.intc)
    return LlamaState(ids, np.empty((0, 0), np.single), len(ids), bytearray(size), size, 0)


def test_common_prefix() -> None:
    a = np.asarray([1, 2, 3, 4], np.intc)
    assert common_prefix(a, np.asarray([1, 2, 9], np.intc)) == 2
    assert common_prefix(a, a[:3]) == 3
    assert common_prefix(a, np.asarray([7], np.intc)) == 0


def test_the_longest_prefix_wins_and_extended_states_are_dropped() -> None:
    cache = PrefixStateCache(10_000)
    assert cache  # llama-cpp-python saves into the cache only if it is truthy
    with pytest.raises(KeyError):
        cache[[1, 2, 3]]
    cache[[0]] = state([1, 2, 3])  # seat A, first call
    cache[[0]] = state([1, 5, 6])  # seat B, first call
    cache[[0]] = state([1, 2, 3, 4, 9])  # seat A again: its first state is dropped
    assert cache.entries == 2 and cache.cache_size == 200
    assert list(cache[[1, 2, 3, 4, 9, 7]].input_ids) == [1, 2, 3, 4, 9]
    assert list(cache[[1, 5, 8]].input_ids) == [1, 5, 6]
    assert [1, 5] in cache and [2] not in cache
    cache.clear()
    assert cache.entries == cache.cache_size == 0


def test_the_least_recently_used_state_goes_past_the_capacity() -> None:
    cache = PrefixStateCache(250)
    cache[[0]] = state([1, 2])
    cache[[0]] = state([3, 4])
    cache[[1, 2, 7]]  # seat [1, 2] is used again
    cache[[0]] = state([5, 6])
    assert cache.entries == 2 and cache.cache_size == 200
    assert [3, 4] not in cache and [1, 2] in cache
    cache[[0]] = state([7, 8], size=300)  # larger than the whole cache: not kept,
    cache[[0]] = state([1, 2, 9], size=0)  # nor an empty state (one too large to copy)
    assert cache.entries == 2 and [1, 2] in cache and [7] not in cache


def test_prompts_are_evaluated_in_even_batches_never_below_the_minimum() -> None:
    assert batches(1027, 512) == [(0, 342), (342, 685), (685, 1027)]
    assert batches(512, 512) == [(0, 512)] and batches(3, 512) == [(0, 3)]
    for count in (MIN_BATCH, 513, 1030, 5000):
        sizes = [end - start for start, end in batches(count, 512)]
        assert sum(sizes) == count and max(sizes) <= 512 and min(sizes) >= MIN_BATCH
