"""OpenAI and every OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio, OpenRouter).

``openai:MODEL`` talks to OpenAI with ``OPENAI_API_KEY``; ``openai:MODEL@BASE_URL`` to any
compatible server (a key is optional there: local servers do not check it).

Schema-constrained output is asked for as OpenAI structured outputs (``json_schema``); a
server that refuses that form is asked with llama-cpp-python's ``json_object`` + ``schema``,
and one that refuses both gets the schema in the prompt. The form that worked is remembered
per endpoint.

per endpoint; the form used is recorded with each call (``Completion.output_form``).

Servers cache prompt prefixes on their own (OpenAI above 1024 tokens, vLLM, llama.cpp's
server): the prompt tokens they report are recorded as ``Usage.cached_tokens``, in whichever
common form the server reports them (:func:`cached_tokens`): OpenAI's and vLLM's
``usage.prompt_tokens_details.cached_tokens``, DeepSeek's ``usage.prompt_cache_hit_tokens``,
llama.cpp's server's ``timings.cache_n`` or ``tokens_cached``. (llama-cpp-python's
``llama_cpp.server`` reports none: its reuse is not seen.) ``context_tokens`` (the model's
context window) is None unless the config file gives it (``[openai] context_tokens = ...``).

A ``seed`` among the options is sent (OpenAI, vLLM, llama.cpp and Ollama take one); a server
that refuses it is asked again without it, and no longer sent one.

:meth:`OpenAIProvider.concurrency_hint` asks the server how many requests it serves at once:
a llama.cpp server's ``/props`` gives ``total_slots``; llama-cpp-python's server (its
``/v1/models`` entries are ``owned_by: "me"``) serves one at a time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from duskfall.core.errors import MissingDependency
from duskfall.llm.config import LLMConfig, Secret
from duskfall.llm.errors import (
    LLMError,
    ModelSpecError,
    ProviderUnavailable,
    RateLimited,
    TransientError,
)
from duskfall.llm.loops import PerLoop, shared_per_loop
from duskfall.llm.prices import Price
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.providers.http_errors import error_message, key_digest, retry_after
from duskfall.llm.types import Completion, Message, Usage, approx_tokens

OPENAI_URL = "https://api.openai.com/v1"
SCHEMA_FORMS = ("json_schema", "json_object", "prompt")
_schema_form: dict[str, int] = {}  # endpoint -> index into SCHEMA_FORMS that the server takes
_no_seed: set[str] = set()  # endpoints that refused a seed
PROBE_TIMEOUT = 5.0
SERIAL_OWNERS = frozenset({"me"})  # llama-cpp-python's server names itself so in /v1/models


class _Refused(Exception):
    """The server refused the request as malformed (HTTP 400/422, or any status naming the
    structured-output field it does not take)."""


class OpenAIProvider(Provider):
    """Chat completions through the ``openai`` SDK (its own retries are off: the Model retries)."""

    name = "openai"
    capabilities = Capabilities(schema=True, seed=True)
    key_env = ("OPENAI_API_KEY",)
    prices: ClassVar[Mapping[str, Price]] = {  # list prices: input, output, cached input
        "gpt-4o-mini": Price(0.15, 0.60, 0.075),
        "gpt-4o": Price(2.50, 10.00, 1.25),
        "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
        "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
        "gpt-4.1": Price(2.00, 8.00, 0.50),
        "o3-mini": Price(1.10, 4.40, 0.55),
        "o4-mini": Price(1.10, 4.40, 0.275),
    }  # at the time of writing (USD per 1M tokens); OpenAI caches on its own, bills no writes
    max_concurrency = 16

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: Secret | None = None,
        context_tokens: int | None = None,
    ):
        try:
            import openai
        except ImportError:
            raise MissingDependency("openai", "openai") from None
        self._sdk = openai
        from openai.types.chat import ChatCompletion

        self._completion_type = ChatCompletion
        self.model = model
        self.context_tokens = context_tokens
        self.base_url = (base_url or OPENAI_URL).rstrip("/")
        if api_key is None and self.base_url == OPENAI_URL:
            raise ProviderUnavailable(
                "no OpenAI API key: set OPENAI_API_KEY (or api_key under [openai] in the file "
                "named by DUSKFALL_LLM_CONFIG)"
            )
        self.endpoint = f"openai@{self.base_url}"
        key = api_key.reveal() if api_key else "not-needed"
        self._headers = {"Authorization": f"Bearer {key}"} if api_key else {}
        base = self.base_url
        self._clients: PerLoop[Any] = shared_per_loop(
            ("openai", base, key_digest(key)),
            lambda: openai.AsyncOpenAI(api_key=key, base_url=base, max_retries=0, timeout=None),
        )

    @classmethod
    def from_spec(cls, arg: str, config: LLMConfig) -> OpenAIProvider:
        """``openai:MODEL`` or ``openai:MODEL@BASE_URL``."""
        model, _, base_url = arg.partition("@")
        if not model:
            raise ModelSpecError(
                "openai needs a model name: openai:gpt-4o-mini or openai:MODEL@URL"
            )
        if base_url and not base_url.startswith(("http://", "https://")):
            raise ModelSpecError(f"base URL {base_url!r} must start with http:// or https://")
        return cls(
            model,
            base_url=base_url or config.get("openai", "base_url"),
            api_key=config.api_key("openai", cls.key_env),
            context_tokens=config.context_tokens("openai"),
        )

    def __repr__(self) -> str:
        return f"OpenAIProvider({self.model!r}, base_url={self.base_url!r})"

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        while True:
            form = SCHEMA_FORMS[_schema_form.get(self.endpoint, 0)] if schema else None
            sent = {k: v for k, v in options.items() if k != "seed" or self.takes_seed}
            request = self._request(messages, schema, form, sent)
            try:
                completion = await self._send(request, messages)
            except _Refused as exc:
                if "seed" in request and "seed" in str(exc).lower():
                    _no_seed.add(self.endpoint)  # ask again without it
                    continue
                if form is None or form == SCHEMA_FORMS[-1]:
                    raise LLMError(f"{self.model} refused the request: {exc}") from None
                _schema_form[self.endpoint] = SCHEMA_FORMS.index(form) + 1
                continue
            return Completion(completion.text, completion.usage, output_form=form or "")

    @property
    def takes_seed(self) -> bool:
        """Whether a seed is sent (until the server refuses one)."""
        return self.capabilities.seed and self.endpoint not in _no_seed

    async def concurrency_hint(self) -> int | None:
        """How many requests the server serves at once, if it says (None: unknown)."""
        import httpx  # the openai SDK's own HTTP client

        root = self.base_url.removesuffix("/v1")
        async with httpx.AsyncClient(timeout=PROBE_TIMEOUT, headers=self._headers) as client:
            props = await _get_json(client, f"{root}/props")
            slots = props.get("total_slots") if isinstance(props, dict) else None
            if isinstance(slots, int) and slots > 0:
                return slots
            models = await _get_json(client, f"{self.base_url}/models")
        entries = models.get("data") if isinstance(models, dict) else None
        owners = {str(m.get("owned_by")) for m in entries or [] if isinstance(m, dict)}
        return 1 if owners and owners <= SERIAL_OWNERS else None

    def _request(
        self,
        messages: Sequence[Message],
        schema: Mapping[str, Any] | None,
        form: str | None,
        options: Mapping[str, Any],
    ) -> dict[str, Any]:
        sent: list[dict[str, Any]] = [dict(m) for m in messages]
        request: dict[str, Any] = {"model": self.model, **options}
        if schema is not None and form == "json_schema":
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": dict(schema), "strict": False},
            }
        elif schema is not None and form == "json_object":
            request["response_format"] = {"type": "json_object", "schema": dict(schema)}
        elif schema is not None:
            note = "Reply with only a JSON object matching this JSON schema: " + json.dumps(
                schema, separators=(",", ":")
            )
            sent.insert(0, {"role": "system", "content": note})
        request["messages"] = sent
        return request

    async def _send(self, request: dict[str, Any], messages: Sequence[Message]) -> Completion:
        sdk = self._sdk
        try:
            # the low-level post skips the SDK's per-call walk over typed parameters, which
            # costs more than a loopback round trip for large schemas
            response = await self._clients.get().post(
                "/chat/completions", cast_to=self._completion_type, body=request
            )
        except sdk.RateLimitError as exc:
            raise RateLimited(
                f"rate limited (429): {error_message(exc)}", retry_after(exc)
            ) from None
        except sdk.AuthenticationError:
            raise ProviderUnavailable(
                f"{self.base_url} rejected the API key; check OPENAI_API_KEY"
            ) from None
        except sdk.NotFoundError as exc:
            raise ProviderUnavailable(
                f"model {self.model!r} not found at {self.base_url}: {error_message(exc)}"
            ) from None
        except sdk.APITimeoutError:
            raise TransientError(f"{self.base_url} timed out") from None
        except sdk.APIConnectionError:
            raise TransientError(
                f"cannot reach {self.base_url}; is the server running and the URL right?"
            ) from None
        except sdk.APIStatusError as exc:
            if "response_format" in error_message(exc) and "response_format" in request:
                # some servers (llama.cpp's Python server among them) answer an unsupported
                # structured-output form with a 500 naming the field: try the next form
                raise _Refused(error_message(exc)) from None
            if exc.status_code >= 500 or exc.status_code in (408, 409):
                raise TransientError(
                    f"server error {exc.status_code}: {error_message(exc)}"
                ) from None
            if exc.status_code in (400, 422):  # 422: FastAPI-style request validation
                raise _Refused(error_message(exc)) from None
            raise LLMError(f"HTTP {exc.status_code}: {error_message(exc)}") from None
        except (sdk.APIResponseValidationError, json.JSONDecodeError, ValueError) as exc:
            raise TransientError(f"unreadable reply: {type(exc).__name__}") from None
        return _completion(response, messages)


async def _get_json(client: Any, url: str) -> Any:
    """The JSON at ``url`` (``client``: an ``httpx.AsyncClient``), or None (not found, not
    JSON, no answer in time)."""
    import httpx

    try:
        response = await client.get(url)
        return response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _field(value: Any, name: str) -> Any:
    """``value.name`` or ``value[name]`` (SDK objects keep unknown fields as extras)."""
    if isinstance(value, Mapping):
        return value.get(name)
    found = getattr(value, name, None)
    if found is None:
        extra = getattr(value, "model_extra", None)
        found = extra.get(name) if isinstance(extra, dict) else None
    return found


def cached_tokens(response: Any) -> int:
    """Prompt tokens the server reused, in any common form it reports them (0 if none)."""
    usage = _field(response, "usage")
    forms = (
        _field(_field(usage, "prompt_tokens_details"), "cached_tokens"),  # OpenAI, vLLM
        _field(usage, "prompt_cache_hit_tokens"),  # DeepSeek
        _field(_field(response, "timings"), "cache_n"),  # llama.cpp's server
        _field(response, "tokens_cached"),  # llama.cpp's server, older
    )
    for value in forms:
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return int(value)
    return 0


def _completion(response: Any, messages: Sequence[Message]) -> Completion:
    choices = getattr(response, "choices", None)
    if not choices:
        raise TransientError("reply without choices")
    text = getattr(choices[0].message, "content", None) or ""
    usage = getattr(response, "usage", None)
    if usage is not None and getattr(usage, "prompt_tokens", None) is not None:
        prompt = usage.prompt_tokens or 0
        cached = min(cached_tokens(response), prompt)
        counted = Usage(prompt, usage.completion_tokens or 0, cached_tokens=cached)
    else:  # some servers omit usage; estimate so that accounting never reads zero
        prompt = sum(approx_tokens(m["content"]) for m in messages)
        counted = Usage(prompt, approx_tokens(text))
    return Completion(text, counted)
