"""The Provider protocol: one backend (a local GGUF, an HTTP API, a script)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from duskfall.llm.types import Completion, Message


@runtime_checkable
class Provider(Protocol):
    """A backend that answers one chat request, once, without retrying.

    ``name`` is the provider kind (``local``, ``openai``...); ``model`` the model it serves;
    ``endpoint`` identifies where calls go (models sharing an endpoint share its
    concurrency limit, ``max_concurrency``); ``supports_schema`` says whether
    :meth:`complete` can constrain its output to a JSON schema. A provider may also have
    ``context_tokens`` (its context window, or None if unknown), ``count_tokens(text)`` (a
    text's length in its own tokens), ``takes_seed`` (True if a ``seed`` option reaches the
    backend; the model sends none otherwise) and ``async concurrency_hint()`` (how many calls
    the endpoint serves at once, or None); the model reads them if present.

    :meth:`complete` raises :class:`~duskfall.llm.errors.TransientError` (or
    :class:`~duskfall.llm.errors.RateLimited`) for failures worth retrying and another
    :class:`~duskfall.llm.errors.LLMError` for the rest. Usage it reports may omit the cost;
    the model fills it in from the price table.

    A provider may also define ``async ping()``: its own pre-flight check, used instead of a
    tiny request (:mod:`duskfall.llm.preflight`).
    """

    name: str
    model: str
    endpoint: str
    supports_schema: bool
    max_concurrency: int

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion: ...
