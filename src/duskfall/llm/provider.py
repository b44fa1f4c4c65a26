"""The Provider base class: one backend (a local GGUF, an HTTP API, a script, a person).

A provider declares what it is as data, on its class (nobody probes it with getattr):

* ``name``: its kind, the model spec's prefix (``local``, ``openai``...);
* ``capabilities``: a :class:`Capabilities` (JSON-schema constrained output, a per-call
  seed, exact token counts, an own pre-flight check);
* ``key_env``: the environment variables holding its API key (read before the config file;
  their values are masked in everything printed, logged or served);
* ``prices``: the list prices of the models it serves, by model-name prefix
  (:mod:`duskfall.llm.prices`);
* ``default_timeout``: seconds for one call unless the user says otherwise.

An instance has ``model`` (the model it serves), ``endpoint`` (where calls go: models
sharing an endpoint share its concurrency limit, ``max_concurrency``) and ``context_tokens``
(its context window, or None if unknown). :meth:`Provider.concurrency_hint` may ask the
endpoint how many calls it serves at once. :meth:`Provider.from_spec` builds one from the part
of a model spec after ``NAME:``; providers are found by that name through
:mod:`duskfall.llm.provider_kinds` (built-in ones,
:func:`~duskfall.llm.provider_kinds.register_provider`, and the ``duskfall.providers``
entry-point group).

:meth:`complete` answers one chat request, once, without retrying: it raises
:class:`~duskfall.llm.errors.TransientError` (or :class:`~duskfall.llm.errors.RateLimited`)
for failures worth retrying and another :class:`~duskfall.llm.errors.LLMError` for the rest.
Usage it reports may omit the cost; the model fills it in from the prices.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from duskfall.llm.prices import Price
from duskfall.llm.types import Completion, Message

if TYPE_CHECKING:
    from duskfall.llm.config import LLMConfig


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a provider can do beyond answering a chat.

    * ``schema``: :meth:`Provider.complete` can constrain its output to a JSON schema (else
      the model asks for the shape in words and checks the reply);
    * ``seed``: it honours a per-call ``seed`` option (a repeated game gets the same replies;
      the model sends a seed only while :attr:`Provider.takes_seed`);
    * ``token_count``: :meth:`Provider.count_tokens` gives a text's length in its own tokens
      (else the model estimates about four characters a token);
    * ``ping``: :meth:`Provider.ping` is its own pre-flight check (else a tiny request is);
    * ``prose_rules``: its model follows rules given in words without constrained output
      (a game master's marked free text); a tiny or scripted model does not, so ``duskfall
      gm`` runs it with structured turns by default.
    """

    schema: bool = False
    seed: bool = False
    token_count: bool = False
    ping: bool = False
    prose_rules: bool = True


class Provider(ABC):
    """A backend that answers one chat request (see the module docstring)."""

    name: ClassVar[str]
    capabilities: Capabilities = Capabilities()
    key_env: ClassVar[tuple[str, ...]] = ()
    prices: ClassVar[Mapping[str, Price]] = {}
    default_timeout: ClassVar[float] = 60.0
    max_concurrency: int = 1
    context_tokens: int | None = None
    model: str
    endpoint: str

    @classmethod
    def from_spec(cls, arg: str, config: LLMConfig) -> Provider:
        """The provider named by ``NAME:arg`` (raise ModelSpecError for a bad ``arg``)."""
        raise NotImplementedError(f"{cls.__name__} is not built from a model spec")

    @property
    def supports_schema(self) -> bool:
        return self.capabilities.schema

    @abstractmethod
    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion: ...

    def count_tokens(self, text: str) -> int:
        """``text``'s length in this provider's own tokens (with ``capabilities.token_count``)."""
        raise NotImplementedError(f"{self.name} does not count tokens")

    async def ping(self) -> None:
        """The provider's own pre-flight check (with ``capabilities.ping``)."""
        raise NotImplementedError(f"{self.name} has no check of its own")

    def loading_note(self) -> str | None:
        """What a slow pre-flight check is doing (loading a model), or None."""
        return None

    @property
    def takes_seed(self) -> bool:
        """Whether a ``seed`` option is sent now: ``capabilities.seed``, until an endpoint
        refuses one."""
        return self.capabilities.seed

    async def concurrency_hint(self) -> int | None:
        """How many calls the endpoint serves at once, if it can say (None: unknown)."""
        return None
