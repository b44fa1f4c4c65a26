"""Pre-flight: is a model ready to play? One check, before a game writes anything.

A provider that can check itself without a request declares ``capabilities.ping`` and
defines ``async ping()`` (the embedded
model loads its file: the extra installed, the model present; a scripted one has nothing to
check); one whose check takes a while says what it is doing through ``loading_note()``,
which is passed to ``announce``. Any other gets one tiny request with a short timeout,
re-sent at most twice after a failure worth retrying (a 500, a 429), quickly: a missing key,
a wrong URL or a server that is down shows in seconds, not after a game's worth of retries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TypeVar

from duskfall.core.errors import DuskfallError
from duskfall.llm.errors import LLMError
from duskfall.llm.model import Model
from duskfall.llm.types import Message

PREFLIGHT_TIMEOUT = 20.0
PREFLIGHT_ATTEMPTS = 3
RETRY_DELAY = 0.25  # doubling
PING: list[Message] = [{"role": "user", "content": "Reply with the single word OK."}]
PING_TOKENS = 8
K = TypeVar("K")


class ModelNotReady(LLMError):
    """A model failed its pre-flight check; the message says why and what to do."""


Announce = Callable[[str], None]


async def check_model(
    model: Model, *, timeout: float = PREFLIGHT_TIMEOUT, announce: Announce | None = None
) -> None:
    """Raise :class:`ModelNotReady` unless ``model`` can play (see the module docstring)."""
    provider = model.provider
    limit = min(timeout, model.timeout)
    try:
        if provider.capabilities.ping:
            text = provider.loading_note()
            if text and announce is not None:
                announce(text)
            await provider.ping()
            return
        async with asyncio.timeout(limit):
            await _ping(model)
    except TimeoutError:
        raise ModelNotReady(
            f"{model.spec} gave no answer within {limit:g}s; check that its server is up "
            "and answering"
        ) from None
    except DuskfallError as exc:  # LLMError, MissingDependency, ModelSpecError: all say why
        raise ModelNotReady(str(exc)) from None
    except Exception as exc:  # an SDK error no provider maps
        raise ModelNotReady(f"{model.spec}: {type(exc).__name__}: {exc}") from None


async def _ping(model: Model) -> None:
    """The tiny request (any reply will do, even an empty one), re-sent after a transient
    failure at most :data:`PREFLIGHT_ATTEMPTS` times in all."""
    for attempt in range(PREFLIGHT_ATTEMPTS):
        try:
            await model.provider.complete(PING, None, max_tokens=PING_TOKENS)
            return
        except LLMError as exc:
            if not exc.retryable or attempt == PREFLIGHT_ATTEMPTS - 1:
                raise
        await asyncio.sleep(RETRY_DELAY * 2**attempt)


async def first_not_ready(
    models: Mapping[K, Model], announce: Announce | None = None
) -> tuple[K, ModelNotReady] | None:
    """Check every model at once; the first one (in the mapping's order) that is not ready,
    with why, or None."""
    keys = list(models)
    results = await asyncio.gather(
        *(check_model(models[key], announce=announce) for key in keys), return_exceptions=True
    )
    for key, result in zip(keys, results, strict=True):
        if isinstance(result, ModelNotReady):
            return key, result
        if isinstance(result, BaseException):
            raise result
    return None
