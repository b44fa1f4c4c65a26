"""A scripted provider for tests and dry runs: replies from a list, a function or a generator.

* a list (or any iterable) of replies is answered in order; a reply may be a string, a
  :class:`~duskfall.llm.Completion`, or an exception instance to raise (to test retries);
* a function of the :class:`~duskfall.llm.Request` (sync or async) answers every call;
* with no replies at all, every schema-constrained call gets a valid instance of its schema
  chosen deterministically from the request, and every free-text call a short line: a
  model that plays any game legally without a network (``llm:scripted``).

When a list or generator runs dry, the call raises :class:`ScriptExhausted`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import itertools
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from duskfall.llm.config import LLMConfig
from duskfall.llm.errors import ModelSpecError, ScriptExhausted
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.schema import example
from duskfall.llm.types import Completion, Message, Request, Usage, approx_tokens

ScriptItem = str | Completion | BaseException
ScriptFunction = Callable[[Request], Any]

_counter = itertools.count()


class ScriptedProvider(Provider):
    """Answers from a script; records every :class:`Request` in :attr:`requests`."""

    name = "scripted"
    capabilities = Capabilities(schema=True, ping=True)
    max_concurrency = 64
    takes_seed = True  # recorded in the request, so tests can see the seed sent

    def __init__(
        self,
        replies: Iterable[ScriptItem] | ScriptFunction | None = None,
        *,
        model: str = "scripted",
        supports_schema: bool = True,
        seed: int = 0,
    ) -> None:
        self.model = model
        self.endpoint = f"scripted#{next(_counter)}"
        if not supports_schema:  # a model without constrained output, for tests
            self.capabilities = dataclasses.replace(self.capabilities, schema=False)
        self.seed = seed
        self.requests: list[Request] = []
        self._function: ScriptFunction | None = None
        self._replies: Iterator[ScriptItem] | None = None
        if replies is None:  # it invents schema-valid answers, never marked free text
            self._function = self._schema_answer
            self.capabilities = dataclasses.replace(self.capabilities, prose_rules=False)
        elif callable(replies):
            self._function = replies
        else:
            self._replies = iter(replies)

    @classmethod
    def from_spec(cls, arg: str, config: LLMConfig) -> ScriptedProvider:
        """``scripted`` or ``scripted:SEED``: schema-valid answers chosen from the request."""
        try:
            seed = int(arg) if arg else 0
        except ValueError:
            raise ModelSpecError(f"scripted takes an integer seed, not {arg!r}") from None
        return cls(seed=seed)

    def __repr__(self) -> str:
        return f"ScriptedProvider(model={self.model!r})"

    async def ping(self) -> None:
        """Pre-flight: nothing to check (and no scripted reply is used up)."""

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        request = Request(list(messages), schema, dict(options))
        self.requests.append(request)
        if self._function is not None:
            item = self._function(request)
            if inspect.isawaitable(item):
                item = await item
        else:
            assert self._replies is not None
            try:
                item = next(self._replies)
            except StopIteration:
                raise ScriptExhausted(
                    f"scripted model ran out of replies after {len(self.requests) - 1} calls"
                ) from None
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, Completion):
            return item
        if not isinstance(item, str):
            item = json.dumps(item)
        prompt = sum(approx_tokens(m["content"]) for m in messages)
        return Completion(item, Usage(prompt, approx_tokens(item)))

    def _schema_answer(self, request: Request) -> str:
        digest = hashlib.sha256(
            json.dumps([self.seed, request.messages], sort_keys=True).encode()
        ).digest()
        rng = random.Random(digest)
        if request.schema is None:
            return "I have nothing to add."
        return json.dumps(example(request.schema, rng))
