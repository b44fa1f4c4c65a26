"""Grammar-constrained sampling that checks the grammar against a shortlist, not the vocabulary.

llama-cpp-python applies a JSON-schema grammar to every token of the vocabulary before top-k
(262k tokens for Gemma 3), which made constrained replies about four times slower than free
ones. :class:`ShortlistGrammarSampler` takes the ``SHORTLIST`` most likely tokens first, lets
the grammar strike the ones it forbids, and samples among the rest with the usual chain
(top-k, top-p, min-p, temperature, seeded draw). Only when the grammar forbids the whole
shortlist does it check the full vocabulary. A reply still always satisfies the grammar; it
can differ from the full-vocabulary sampler's only when a forbidden token stood among the
shortlist, where that sampler would have drawn from more allowed tokens further down.
"""

from __future__ import annotations

import ctypes
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp import LlamaGrammar

SHORTLIST = 64
TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])


def _token_array(candidates: np.ndarray) -> llama_cpp.llama_token_data_array:
    """llama.cpp's view of ``candidates`` (a contiguous TOKEN_DATA array, shared not copied)."""
    return llama_cpp.llama_token_data_array(
        candidates.ctypes.data_as(llama_cpp.llama_token_data_p), len(candidates), -1, False
    )


class ShortlistGrammarSampler:
    """Samples like ``rest`` (a llama-cpp-python ``LlamaSampler`` chain without a grammar),
    restricted to what ``grammar`` allows. Has the ``sample(ctx, idx)`` that ``Llama`` calls."""

    def __init__(self, model: Any, grammar: LlamaGrammar, rest: Any, n_vocab: int) -> None:
        self.grammar = llama_cpp.llama_sampler_init_grammar(
            model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        if not self.grammar:
            raise ValueError("llama.cpp could not compile the grammar")
        self.rest = rest
        self.n_vocab = n_vocab
        self.full_checks = 0  # steps where the grammar forbade the whole shortlist

    def _strike(self, candidates: np.ndarray) -> np.ndarray:
        """``candidates`` with the tokens the grammar forbids removed."""
        llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(_token_array(candidates)))
        return np.ascontiguousarray(candidates[np.isfinite(candidates["logit"])])

    def _allowed(self, logits: np.ndarray) -> np.ndarray:
        """The allowed tokens among the shortlist, or the best allowed ones of the vocabulary."""
        ids = np.argpartition(-logits, SHORTLIST)[:SHORTLIST]
        allowed = self._strike(self._candidates(ids, logits[ids]))
        if len(allowed):
            return allowed
        self.full_checks += 1
        allowed = self._strike(self._candidates(np.arange(self.n_vocab), logits))
        if len(allowed) > SHORTLIST:
            allowed = np.ascontiguousarray(
                allowed[np.argpartition(-allowed["logit"], SHORTLIST)[:SHORTLIST]]
            )
        return allowed

    @staticmethod
    def _candidates(ids: np.ndarray, logits: np.ndarray) -> np.ndarray:
        candidates = np.empty(len(ids), dtype=TOKEN_DATA)
        candidates["id"] = ids
        candidates["logit"] = logits
        candidates["p"] = 0.0
        return candidates

    def sample(self, ctx: Any, idx: int = -1) -> int:
        """Draw the next token from the logits at ``idx`` and advance the grammar with it."""
        raw = llama_cpp.llama_get_logits_ith(ctx.ctx, idx)
        logits = np.ctypeslib.as_array(raw, shape=(self.n_vocab,))
        allowed = self._allowed(logits)
        if not len(allowed):
            raise ValueError("the grammar allows no token here")
        view = _token_array(allowed)
        llama_cpp.llama_sampler_apply(self.rest.sampler, ctypes.byref(view))
        token = int(allowed[view.selected]["id"])
        llama_cpp.llama_sampler_accept(self.grammar, token)
        self.rest.accept(token)
        return token

    def close(self) -> None:
        """Free the grammar (the chain frees itself)."""
        if self.grammar:
            llama_cpp.llama_sampler_free(self.grammar)
            self.grammar = None

    def __del__(self) -> None:
        self.close()
