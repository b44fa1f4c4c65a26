"""The bundled model served over HTTP by ``python -m llama_cpp.server``, as the docs' recipe
says, for tests and benchmarks (loopback only).

The recipe (docs/llm.md, "A local server"):

* ``--chat_format gemma``: the GGUF holds no chat template, and the server's fallback
  (llama-2's ``[INST]``/``<<SYS>>`` format) leaves ``[/INST]`` and ``</SYS>`` in replies;
  llama.cpp's ``gemma`` format drops system turns, so duskfall sends the system prompt inside
  the first user turn (agent option ``fold_system=true``);
* ``--n_ctx 8192`` (the server's default is 2048) and ``context_tokens=8192`` on duskfall's
  side, so a seat's conversation is kept within the window;
* ``--cache true``: the server keeps the state at the end of each call in RAM (2 GiB), so a
  seat's next call, which extends its conversation, evaluates only its new turn however the
  seats interleave;
* ``--logits_all false``: the server's default keeps the logits of every token of the context
  (8,192 x 262,144 floats for this model) and copies them into every saved state, which makes
  each generated token about ten times slower;
* ``--n_batch 32``: even without them, llama-cpp-python keeps a logits buffer of ``n_batch``
  rows of the vocabulary and copies it whole into every state it saves (512 MiB at the
  default 512: seconds per call, and the RAM of every cached state); prompts evaluate as fast
  in batches of 32 on a CPU;
* ``repeat_penalty=1.0`` on duskfall's side: the server penalises repeated tokens (1.1) by
  default where llama-cpp-python's library, and so ``llm:local``, does not; the penalty
  lengthens replies (it pushes the model away from closing its JSON) and costs a pass over
  the vocabulary at every token;
* the server answers one request at a time; duskfall learns that from its ``/v1/models``
  and queues the calls itself (:mod:`duskfall.llm.endpoints`).

    with LlamaServer() as server:
        spec = server.agent_spec           # llm:openai:gemma-3-270m@http://127.0.0.1:PORT/v1
        options = server.agent_options     # fold_system, context_tokens, ...
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

from duskfall.testing.ports import free_port

MODEL_NAME = "gemma-3-270m"
CONTEXT = 8192
THREADS = 2
CACHE_BYTES = 2 << 30
BATCH = 32


def server_args(model_path: str | Path, port: int, threads: int = THREADS) -> list[str]:
    """The ``llama_cpp.server`` options of the recipe."""
    return [
        "--model", str(model_path),
        "--model_alias", MODEL_NAME,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--chat_format", "gemma",
        "--n_ctx", str(CONTEXT),
        "--n_batch", str(BATCH),
        "--n_threads", str(threads),
        "--n_threads_batch", str(threads),
        "--cache", "true",
        "--cache_type", "ram",
        "--cache_size", str(CACHE_BYTES),
        "--logits_all", "false",
    ]  # fmt: skip


# The duskfall side of the recipe: the same reply budget and sampling as ``llm:local`` (whose
# top_k 40, top_p 0.95 and min_p 0.05 are the server's defaults too).
AGENT_OPTIONS: dict[str, Any] = {
    "fold_system": True,
    "context_tokens": CONTEXT,
    "reasoning_chars": 300,
    "max_tokens": 1200,
    "temperature": 0.7,
    "repeat_penalty": 1.0,
}


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux to end it when its parent dies (a killed test or
    benchmark leaves no server behind). Elsewhere, nothing."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class LlamaServer:
    """``python -m llama_cpp.server`` with the recipe's options, in a child process; ready
    when ``/v1/models`` answers. Its output goes to ``log`` (a file path) or is dropped."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        threads: int = THREADS,
        log: Path | None = None,
        ready_timeout: float = 300.0,
    ) -> None:
        if model_path is None:
            from duskfall.llm.providers.local import default_model_path

            model_path = default_model_path()
        self.model_path = Path(model_path)
        self.threads = threads
        self.log = log
        self.ready_timeout = ready_timeout
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def agent_spec(self) -> str:
        return f"llm:openai:{MODEL_NAME}@{self.url}"

    @property
    def agent_options(self) -> dict[str, Any]:
        return dict(AGENT_OPTIONS)

    @property
    def command(self) -> list[str]:
        return [sys.executable, "-m", "llama_cpp.server",
                *server_args(self.model_path, self.port, self.threads)]  # fmt: skip

    def start(self) -> LlamaServer:
        self.port = free_port()
        out = self.log.open("ab") if self.log is not None else subprocess.DEVNULL
        self.process = subprocess.Popen(
            self.command,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.process.returncode}")
            if self._answers():
                return self
            time.sleep(0.5)  # polling a child process's port: nothing to await
        self.stop()
        raise RuntimeError(f"llama_cpp.server did not answer within {self.ready_timeout:g}s")

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/models", timeout=2) as response:
                return bool(json.load(response).get("data"))
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
