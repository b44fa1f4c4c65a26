"""Prefix reuse of llama.cpp's KV cache across the seats that share one model.

One ``Llama`` serves every seat of a process, and its context holds one conversation at a
time: when seats take turns, each call would evaluate its whole prompt again. Here every call
ends by saving the context's KV state (sequence 0, without logits) in a
:class:`PrefixStateCache` keyed by its tokens; the next call loads the saved state that
shares the longest prefix with its prompt (when that beats what the context already holds),
and llama-cpp-python evaluates only the rest. A seat's growing conversation thus costs only
its new tokens, however the seats interleave.

:class:`ReusingLlama` also counts the prompt tokens each call evaluated
(:attr:`ReusingLlama.prompt_evaluated`): the rest of the prompt came from the cache.

:func:`open_llama` makes one. Reuse needs a KV cache that can drop a suffix: models with
sliding-window attention (Gemma 3) get it from a full-size SWA cache (``swa_full``). Reuse
does not change replies: weights are not repacked (see :func:`_without_weight_repacking`), so
a token's logits do not depend on how its prompt was split into batches, and sampling is
seeded per request.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import count
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp import Llama, LlamaState
from llama_cpp import llama_cpp as bindings
from llama_cpp.llama_cache import BaseLlamaCache

from duskfall.llm.providers.llama_logs import route_llama_logs

SEQUENCE = 0  # llama-cpp-python decodes every prompt into sequence 0


class SavedState(LlamaState):
    """A saved state that knows how many of its tokens were the prompt (the rest, the reply
    generated then)."""

    def __init__(self, *args: Any, prompt_length: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prompt_length = prompt_length


class PrefixStateCache(BaseLlamaCache):
    """Saved KV states, found by the longest token prefix, within ``capacity_bytes``.

    Storing a state drops the saved states whose prompt it contains (a seat's previous call,
    whatever became of that call's reply in the conversation), so a conversation keeps one
    entry; past the capacity the least recently used go first.
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
            if common_prefix(saved.input_ids, tokens) >= prompt_length(saved):
                self._drop(old)
        self._states[next(self._ids)] = value
        self._bytes += value.llama_state_size
        while self._bytes > self.capacity_bytes and self._states:
            self._drop(next(iter(self._states)))

    def _drop(self, key: int) -> None:
        self._bytes -= self._states.pop(key).llama_state_size


def prompt_length(state: LlamaState) -> int:
    """The prompt tokens of a saved state (all of them, for states saved elsewhere)."""
    return int(getattr(state, "prompt_length", state.n_tokens))


def common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    """How many leading tokens ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if len(differ) else n


class ReusingLlama(Llama):
    """A ``Llama`` whose saved states hold only the KV cache of its sequence (no logits:
    llama-cpp-python would copy ``n_batch x n_vocab`` floats per state), and which counts
    the prompt tokens each call evaluates."""

    prompt_evaluated: int | None = None
    prompt_end = 0

    def begin_call(self) -> None:
        """Start counting the prompt tokens the next completion evaluates."""
        self.prompt_evaluated = None

    def eval(self, tokens: Sequence[int]) -> None:
        first = self.prompt_evaluated is None  # the first eval of a completion: its prompt
        if first:
            self.prompt_evaluated = len(tokens)
        super().eval(tokens)
        if first:
            self.prompt_end = self.n_tokens

    def save_state(self) -> LlamaState:
        """The KV state of the sequence; an empty one if the cache could not hold it (no
        copy is made: with a large model, a long conversation's state takes gigabytes)."""
        size = llama_cpp.llama_state_seq_get_size(self._ctx.ctx, SEQUENCE)
        too_large = self.cache is not None and size > self.cache.capacity_bytes
        data = bytearray() if too_large else self._kv_bytes(size)
        return SavedState(
            prompt_length=min(self.prompt_end, self.n_tokens),
            input_ids=self.input_ids[: self.n_tokens].copy(),
            scores=np.empty((0, 0), dtype=np.single),
            n_tokens=self.n_tokens,
            llama_state=data,  # a bytearray: loading it copies nothing
            llama_state_size=len(data),
            seed=self._seed,
        )

    def _kv_bytes(self, size: int) -> bytearray:
        data = bytearray(size)
        view = (ctypes.c_uint8 * size).from_buffer(data)
        written = llama_cpp.llama_state_seq_get_data(self._ctx.ctx, view, size, SEQUENCE)
        del view  # releases the buffer so that it can be trimmed
        if not 0 < written <= size:
            raise RuntimeError("llama.cpp could not save the KV state")
        del data[written:]
        return data

    def load_state(self, state: LlamaState) -> None:
        size = state.llama_state_size
        view = (ctypes.c_uint8 * size).from_buffer(state.llama_state)  # a bytearray: no copy
        loaded = llama_cpp.llama_state_seq_set_data(self._ctx.ctx, view, size, SEQUENCE)
        del view
        if loaded != size:
            self.reset()
            raise RuntimeError("llama.cpp could not load a saved KV state")
        self.input_ids[: state.n_tokens] = state.input_ids
        self.n_tokens = state.n_tokens
        self._requires_eval = True  # the next call decodes at least one token for its logits
        self._seed = state.seed


def open_llama(
    path: str, *, cache_bytes: int, verbose: bool = False, **params: Any
) -> ReusingLlama:
    """Load the GGUF at ``path`` (``params``: ``Llama``'s), with a :class:`PrefixStateCache`
    of ``cache_bytes`` (0: none). llama.cpp logs only to DEBUG logging unless ``verbose``."""
    route_llama_logs(verbose=verbose)
    with _without_weight_repacking():
        llama = ReusingLlama(model_path=path, swa_full=True, verbose=verbose, **params)
    if cache_bytes > 0:
        llama.set_cache(PrefixStateCache(cache_bytes))
    return llama


@contextmanager
def _without_weight_repacking() -> Iterator[None]:
    """Load models without llama.cpp's CPU weight repacking.

    The repacked matrix products of a batch round differently from the one-token ones, so
    the logits of a prompt moved by up to several units (Gemma 3 270M) with the way it was cut
    into batches: a reply depended on whether its prefix came from the cache or the previous
    call. Unpacked weights give the same logits however a prompt is split, at about the same
    speed here. llama-cpp-python has no parameter for it, so its defaults are amended while a
    model loads (callers hold the load lock).
    """
    default = bindings.llama_model_default_params

    def unpacked() -> Any:
        params = default()
        params.use_extra_bufts = False
        return params

    bindings.llama_model_default_params = unpacked
    try:
        yield
    finally:
        bindings.llama_model_default_params = default
