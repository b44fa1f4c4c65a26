"""Saved KV states of llama.cpp conversations, found by their longest shared token prefix.

llama-cpp-python looks up ``Llama.cache`` before each completion and loads the saved state
sharing the longest prefix with the prompt when that beats what its context holds. The states
here are saved at the end of each prompt (:mod:`duskfall.llm.providers.reusing_llama`), so a
seat's next prompt, which extends its last one, always finds its state; a conversation keeps
one entry, and the least recently used go first past the capacity.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from itertools import count

import numpy as np
from llama_cpp import LlamaState
from llama_cpp.llama_cache import BaseLlamaCache


class PrefixStateCache(BaseLlamaCache):
    """Saved KV states, found by the longest token prefix, within ``capacity_bytes``.

    Storing a state drops the saved states it extends (a seat's previous prompt), so a
    conversation keeps one entry; past the capacity the least recently used go first. An empty
    state, or one larger than the whole capacity, is not kept.
    """

    def __init__(self, capacity_bytes: int) -> None:
        super().__init__(capacity_bytes)
        self._states: OrderedDict[int, LlamaState] = OrderedDict()
        self._ids = count()
        self._bytes = 0

    def __bool__(self) -> bool:
        # llama-cpp-python tests ``if self.cache:`` before it saves: an empty cache must count
        return True

    @property
    def cache_size(self) -> int:
        """Bytes of saved state held."""
        return self._bytes

    @property
    def entries(self) -> int:
        return len(self._states)

    @property
    def tokens(self) -> int:
        """Tokens whose KV state is held."""
        return sum(state.n_tokens for state in self._states.values())

    def clear(self) -> None:
        self._states.clear()
        self._bytes = 0

    def _longest(self, tokens: Sequence[int]) -> tuple[int | None, int]:
        """The saved state sharing the longest prefix with ``tokens``, and that length."""
        wanted = np.asarray(tokens, dtype=np.intc)
        best, best_length = None, 0
        for key, state in self._states.items():
            length = common_prefix(state.input_ids, wanted)
            if length > best_length:
                best, best_length = key, length
        return best, best_length

    def __getitem__(self, key: Sequence[int]) -> LlamaState:
        found, _ = self._longest(key)
        if found is None:
            raise KeyError("no saved state shares a prefix with these tokens")
        self._states.move_to_end(found)
        return self._states[found]

    def __contains__(self, key: Sequence[int]) -> bool:
        return self._longest(key)[0] is not None

    def __setitem__(self, key: Sequence[int], value: LlamaState) -> None:
        """Keep ``value`` (its own tokens are its key: ``key`` may hold one token more),
        unless it is empty or alone larger than the capacity."""
        if not 0 < value.llama_state_size <= self.capacity_bytes:
            return
        tokens = value.input_ids
        for old in list(self._states):
            saved = self._states[old]
            if common_prefix(saved.input_ids, tokens) == len(saved.input_ids):
                self._drop(old)
        self._states[next(self._ids)] = value
        self._bytes += value.llama_state_size
        while self._bytes > self.capacity_bytes and self._states:
            self._drop(next(iter(self._states)))

    def _drop(self, key: int) -> None:
        self._bytes -= self._states.pop(key).llama_state_size


def common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    """How many leading tokens ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if len(differ) else n
