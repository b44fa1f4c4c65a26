"""Agent options of the LLM layer, typed: how an LLM seat's model is built and called.

Agent options arrive as one loose mapping shared by every seat of a game (``--agent-option
KEY=VALUE``); each agent kind reads the part it knows into a pydantic model with
:func:`read_options`, so a bad value is one clear :class:`~duskfall.core.errors.ConfigError`
and unknown keys (another agent kind's) are left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from duskfall.core.errors import ConfigError
from duskfall.core.validation import describe_errors
from duskfall.llm.model import Model
from duskfall.llm.registry import get_model
from duskfall.llm.retry import RetryPolicy
from duskfall.llm.types import CallOptions

OptionsT = TypeVar("OptionsT", bound=BaseModel)


class ModelOptions(BaseModel):
    """The options every model-backed agent reads.

    ``timeout``: seconds for one model call (0 or unset: the provider's default);
    ``retries``: re-sends after failures; ``retry_delay``: seconds before the first re-send
    (doubling after that); ``concurrency``: calls at a time to the model's endpoint;
    ``temperature``: sampling temperature; ``top_k``, ``top_p``, ``min_p``,
    ``repeat_penalty``: llama.cpp's sampler settings, for servers that take them
    (:class:`~duskfall.llm.types.CallOptions`); ``decision_timeout``: seconds for one decision,
    retries included; ``llm_config``: path of an LLM config file (keys, prices);
    ``fold_system``: send the system prompt inside the first user turn (for a server whose
    chat template has no system role, such as llama.cpp's ``gemma`` format).
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    timeout: float | None = Field(default=None, ge=0)
    retries: int | None = Field(default=None, ge=0)
    retry_delay: float | None = Field(default=None, ge=0)
    concurrency: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0)
    top_k: int | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, ge=0, le=1)
    min_p: float | None = Field(default=None, ge=0, le=1)
    repeat_penalty: float | None = Field(default=None, gt=0)
    decision_timeout: float | None = Field(default=None, gt=0)
    llm_config: str | None = None
    fold_system: bool = False

    def sampler_settings(self) -> CallOptions:
        """The sampler settings these options pin (the rest left to the provider)."""
        return CallOptions(
            top_k=self.top_k, top_p=self.top_p, min_p=self.min_p, repeat_penalty=self.repeat_penalty
        )

    def retry_policy(self, *, format_retries: int | None = None) -> RetryPolicy | None:
        """The retry policy these options ask for; None for the model's default."""
        if self.retries is None and self.retry_delay is None and format_retries is None:
            return None
        default = RetryPolicy()
        return RetryPolicy(
            retries=default.retries if self.retries is None else self.retries,
            base_delay=default.base_delay if self.retry_delay is None else self.retry_delay,
            format_retries=default.format_retries if format_retries is None else format_retries,
        )

    def build_model(self, spec: str, *, format_retries: int | None = None) -> Model:
        """The model named by ``spec``, with these options' timeout, retries and limits."""
        return get_model(
            spec,
            config_path=self.llm_config,
            timeout=self.timeout or None,
            retry=self.retry_policy(format_retries=format_retries),
            concurrency=self.concurrency,
            fold_system=self.fold_system,
        )


def read_options(model: type[OptionsT], options: Mapping[str, Any], what: str) -> OptionsT:
    """``options`` validated as ``model``; one ConfigError naming ``what`` and the bad keys."""
    try:
        return model.model_validate(dict(options))
    except ValidationError as exc:
        raise ConfigError(f"invalid {what} option {describe_errors(exc, 'options')}") from None
