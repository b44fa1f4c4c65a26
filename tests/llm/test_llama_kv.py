"""The saved-state cache of the local model, without a model: lookup by longest prefix, one
entry per conversation, a bound in bytes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from duskfall.testing.require import require

require("llama_cpp", "pip install 'duskfall[local]'")

from duskfall.llm.providers.llama_kv import (  # noqa: E402
    PrefixStateCache,
    SavedState,
    common_prefix,
)


def state(tokens: list[int], size: int = 100, *, reply: int = 0) -> Any:
    """A saved state of ``tokens``, the last ``reply`` of them generated."""
    ids = np.asarray(tokens, dtype=np.intc)
    scores = np.empty((0, 0), np.single)
    return SavedState(
        ids, scores, len(ids), bytearray(size), size, 0, prompt_length=len(ids) - reply
    )


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
    # seat B's next prompt holds its first prompt, not the reply generated then (the
    # conversation kept another text): the first state is dropped all the same
    cache[[0]] = state([1, 5, 6, 8], reply=2)
    cache[[0]] = state([1, 5, 6, 7, 7])
    assert cache.entries == 2 and list(cache[[1, 5]].input_ids) == [1, 5, 6, 7, 7]
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
