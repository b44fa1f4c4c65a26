"""Errors of the LLM layer. Each says in one line what went wrong and what to do."""

from __future__ import annotations

from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.redaction import redact
from duskfall.llm.types import Usage


class LLMError(DuskfallError):
    """A model call failed. ``retryable`` errors are retried by :class:`~duskfall.llm.Model`.

    ``usage`` is what the failed attempt still cost (e.g. the tokens of a garbage reply);
    ``errors`` says why each failed attempt of a call failed, when retries were spent. The
    message is redacted (a server may echo the key it was sent, a URL may carry one).
    ``retry_after`` is a server's hint (seconds) of when to try again, where it gave one.
    """

    retryable = False
    errors: tuple[str, ...] = ()
    retry_after: float | None = None

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(redact(message))
        self.usage = usage or Usage()


class TransientError(LLMError):
    """A failure worth retrying: 5xx, timeout, dropped connection, garbage or empty reply."""

    retryable = True


class RateLimited(TransientError):
    """HTTP 429. ``retry_after`` (seconds) is the server's hint, if it gave one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class CallTimeout(LLMError):
    """A whole call (retries included) did not finish within the limit its caller set."""


class ProviderUnavailable(LLMError):
    """The provider cannot be reached or refuses us (bad key, unknown model, no server)."""


class ScriptExhausted(LLMError):
    """A scripted provider ran out of replies."""


class ModelSpecError(ConfigError):
    """A model spec string is malformed or names an unknown provider."""
