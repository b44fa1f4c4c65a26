"""A llama-cpp-python ``Llama`` that reuses each conversation's KV prefix without changing a
reply.

One ``Llama`` serves every seat of a process and its context holds one conversation at a time.
:class:`ReusingLlama` saves the context at the end of each prompt in a
:class:`~duskfall.llm.providers.llama_kv.PrefixStateCache`, so a seat's next call (its prompt
extends the last one) loads that state and evaluates only its new tokens, however the seats
interleave; ``prompt_evaluated`` counts what a call evaluated.

A reply is the same whether its prefix came from the cache, from the context or was evaluated
cold: llama.cpp's CPU arithmetic gives the same logits only for the same kernels over the same
cache layout, and activations quantized to 8 bits turn any rounding difference into logit
changes of about one unit (Gemma 3 270M). So:

* weights are not repacked (:func:`_without_weight_repacking`): the repacked batch kernels
  round differently from the one-token ones;
* a prompt is evaluated in batches of at least :data:`MIN_BATCH` tokens (smaller ones take
  other kernels), rewinding a few cached tokens when fewer are new;
* the reply's tokens, decoded one at a time, are dropped from the context after each call,
  so no prompt ever reuses them;
* states are saved whole (``llama_state_get_data``: the per-sequence form leaves out the
  sliding-window layers' older cells), and while a prompt is evaluated its cached cells are
  also held by a second sequence: llama.cpp would otherwise write new tokens over cells that
  the sliding window no longer sees, and a different layout changes the attention's sums.

Reuse needs a cache that can drop a suffix: models with sliding-window attention (Gemma 3)
get it from a full-size window cache (``swa_full``).
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp import Llama, LlamaState
from llama_cpp import llama_cpp as bindings

from duskfall.llm.providers.grammar_prefilter import add_prefilter
from duskfall.llm.providers.llama_kv import PrefixStateCache
from duskfall.llm.providers.llama_logs import route_llama_logs

SEQUENCE = 0  # llama-cpp-python decodes every prompt into sequence 0
HOLD = 1  # holds the cached cells while a prompt is evaluated
MIN_BATCH = 8  # smaller batches take kernels that round differently


class ReusingLlama(Llama):
    """A ``Llama`` that evaluates prompts so that KV reuse never changes a reply, saves each
    prompt's state in its cache, and counts the prompt tokens each call evaluates."""

    prompt_evaluated: int | None = None
    prompt_end = 0

    def _init_sampler(self, *args: Any, **kwargs: Any) -> Any:
        """llama-cpp-python's sampler chain, with the grammar prefilter (see
        :mod:`~duskfall.llm.providers.grammar_prefilter`) when the call has a grammar."""
        sampler = super()._init_sampler(*args, **kwargs)
        if kwargs.get("grammar") is not None:
            add_prefilter(sampler)
        return sampler

    def begin_call(self) -> None:
        """Start a completion: count the prompt tokens it evaluates."""
        self.prompt_evaluated = None

    def end_call(self) -> None:
        """Drop the reply's tokens from the context (decoded one at a time, their cells hold
        other roundings than a prompt's): the context ends with the prompt again."""
        if self.prompt_evaluated is not None and self.n_tokens > self.prompt_end:
            self._ctx.kv_cache_seq_rm(SEQUENCE, self.prompt_end, -1)
            self.n_tokens = self.prompt_end
            self._requires_eval = True  # the logits are the last reply token's, not the prompt's

    def eval(self, tokens: Sequence[int]) -> None:
        if self.prompt_evaluated is not None:  # decoding the reply, a token at a time
            super().eval(tokens)
            return
        tokens = self._rewound(list(tokens))
        self.prompt_evaluated = len(tokens)
        memory = llama_cpp.llama_get_memory(self._ctx.ctx)
        # cells past the reused prefix go first (after a reset, all): a held stale cell
        # would stay in the cache and move the new ones
        llama_cpp.llama_memory_seq_rm(memory, SEQUENCE, self.n_tokens, -1)
        llama_cpp.llama_memory_seq_cp(memory, SEQUENCE, HOLD, -1, -1)
        try:
            for start, end in batches(len(tokens), self.n_batch):
                super().eval(tokens[start:end])
        finally:
            llama_cpp.llama_memory_seq_rm(memory, HOLD, -1, -1)
        self.prompt_end = self.n_tokens
        if isinstance(self.cache, PrefixStateCache):
            self.cache[self._input_ids.tolist()] = self._snapshot(self.cache.capacity_bytes)

    def _rewound(self, tokens: list[int]) -> list[int]:
        """``tokens`` preceded by as many context tokens as make :data:`MIN_BATCH` (those
        leave the context, to be evaluated again)."""
        back = min(MIN_BATCH - len(tokens), self.n_tokens)
        if back <= 0:
            return tokens
        start = self.n_tokens - back
        earlier = self.input_ids[start : self.n_tokens].tolist()
        self._ctx.kv_cache_seq_rm(SEQUENCE, start, -1)
        self.n_tokens = start
        return [*earlier, *tokens]

    def _snapshot(self, limit: int) -> LlamaState:
        """The whole context's state; an empty one (no copy) past ``limit`` bytes."""
        ctx = self._ctx.ctx
        size = llama_cpp.llama_state_get_size(ctx)
        data = bytearray()
        if size <= limit:
            data = bytearray(size)
            view = (ctypes.c_uint8 * size).from_buffer(data)
            written = llama_cpp.llama_state_get_data(ctx, view, size)
            del view  # releases the buffer so that it can be trimmed
            if not 0 < written <= size:
                raise RuntimeError("llama.cpp could not save the KV state")
            del data[written:]
        return LlamaState(
            input_ids=self.input_ids[: self.n_tokens].copy(),
            scores=np.empty((0, 0), dtype=np.single),
            n_tokens=self.n_tokens,
            llama_state=data,  # type: ignore[arg-type]  # a bytearray: loading copies nothing
            llama_state_size=len(data),
            seed=self._seed,
        )

    def save_state(self) -> LlamaState:
        """Nothing: llama-cpp-python saves after the reply, but the state worth keeping is
        the prompt's, saved as it was evaluated (an empty state, which the cache ignores)."""
        return self._snapshot(limit=-1)

    def load_state(self, state: LlamaState) -> None:
        ctx = self._ctx.ctx
        llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(ctx), False)
        size = state.llama_state_size
        view = (ctypes.c_uint8 * size).from_buffer(state.llama_state)  # a bytearray: no copy
        loaded = llama_cpp.llama_state_set_data(ctx, view, size)
        del view
        if loaded != size:
            self.reset()
            raise RuntimeError("llama.cpp could not load a saved KV state")
        self.input_ids[: state.n_tokens] = state.input_ids
        self.n_tokens = state.n_tokens
        self._requires_eval = True  # the next call decodes at least one token for its logits
        self._seed = state.seed


def batches(count: int, size: int) -> list[tuple[int, int]]:
    """``count`` tokens in as few batches of at most ``size`` as can be, of even sizes (so
    none is below :data:`MIN_BATCH` when ``count`` is not)."""
    parts = max(1, -(-count // size))
    return list(pairwise(round(i * count / parts) for i in range(parts + 1)))


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

    Its batch kernels round differently from the one-token ones, so the logits of a prompt
    changed with the way it was cut into batches. llama-cpp-python has no parameter for it,
    so its defaults are amended while a model loads (callers hold the load lock).
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
