"""The same constrained requests to the bundled model three ways, in one run: over HTTP to
``python -m llama_cpp.server`` (the recipe of docs/llm.md), in-process as ``llm:local`` runs
them (duskfall's sampler: the grammar checked against a shortlist of likely tokens), and
in-process with llama-cpp-python's own sampler (the grammar checked against all 262,144 tokens
of Gemma's vocabulary at every step, as the server does).

The requests are a werewolf-6 game's real prompts and schemas (seats 0-1 an LLM seat, played
here by ``llm:scripted`` so that no model is needed to make them), with the recipe's sampling
options and each call's seed. Each way keeps its own prefix cache, and gets the requests in the
same order, so each reuses what the other reuses.

For each way: wall time, completion tokens, and where the time went: llama.cpp's prompt
evaluation and token generation (its own counters; the server's from its log), and the rest
(sampling, the server's state cache, HTTP) per generated token.

    python benchmarks/llm_server_request.py [--requests 6] [--threads 1] [--server-defaults]

``--server-defaults`` adds a fourth way: HTTP without the recipe's ``repeat_penalty=1.0``
(the server's own default, 1.1), to show what it does to the replies.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from duskfall.llm import CallOptions, get_model
from duskfall.llm.providers.local import LocalProvider
from duskfall.llm.providers.scripted import ScriptedProvider
from duskfall.llm.types import Completion, Request
from duskfall.session import GameSetup, run_game
from duskfall.testing.llama_server import AGENT_OPTIONS, LlamaServer
from llm_local_server import context_counters, load, server_counters


async def game_requests(count: int) -> list[Request]:
    """``count`` requests spread over a werewolf-6 game whose seats 0-1 are LLM seats."""
    seen: list[Request] = []
    complete = ScriptedProvider.complete

    async def recording(
        self: ScriptedProvider, messages: Any, schema: Any = None, **options: Any
    ) -> Completion:
        seen.append(Request(list(messages), schema, dict(options)))
        return await complete(self, messages, schema, **options)

    ScriptedProvider.complete = recording  # type: ignore[method-assign]
    try:
        options = {k: v for k, v in AGENT_OPTIONS.items() if k != "fold_system"}
        setup = GameSetup("werewolf", seed=1, agents="0=llm:scripted,1=llm:scripted,"
                          "default=heuristic", config={"preset": "werewolf-6"},
                          write_log=False, agent_options=options)  # fmt: skip
        await run_game(setup)
    finally:
        ScriptedProvider.complete = complete  # type: ignore[method-assign]
    step = max(1, len(seen) // count)
    return seen[step - 1 :: step][:count]


@dataclass
class Way:
    """One way of asking, and what its requests took."""

    name: str
    wall: float = 0.0
    tokens: int = 0
    chars: int = 0
    counters: dict[str, float] = field(default_factory=dict)
    replies: list[str] = field(default_factory=list)

    def add(self, seconds: float, completion: Completion, counters: dict[str, float]) -> None:
        self.wall += seconds
        self.tokens += completion.usage.completion_tokens
        self.chars += len(completion.text)
        self.replies.append(completion.text)
        for key, value in counters.items():
            self.counters[key] = self.counters.get(key, 0.0) + value

    def line(self) -> str:
        c = self.counters
        rest = self.wall - c["prompt_s"] - c["gen_s"]
        per = 1000 / max(self.tokens, 1)
        return (
            f"{self.name:<34} {self.wall:6.1f}s  {self.tokens:5d} tokens ({self.chars:5d} chars)  "
            f"prompt {c['prompt_n']:6.0f} tok {c['prompt_s']:5.1f}s  decode {c['gen_s']:5.1f}s "
            f"({c['gen_s'] * per:3.0f} ms/tok)  rest {rest:5.1f}s ({rest * per:3.0f} ms/tok)"
        )


class LocalWay:
    """In-process, as ``llm:local`` runs (``stock``: with llama-cpp-python's own sampler)."""

    def __init__(self, threads: int, *, stock: bool) -> None:
        # a second copy of the model (kv_cache_mb differs) so that the ways share no cache
        self.provider = LocalProvider(n_threads=threads, kv_cache_mb=2048 - int(stock))
        llama = self.provider.loaded().llama
        if stock:
            from llama_cpp import Llama

            llama._init_sampler = Llama._init_sampler.__get__(llama)
        self.llama = llama

    async def ask(self, request: Request, options: dict[str, Any]) -> tuple[Completion, Any]:
        before = context_counters(self.llama)
        reply = await self.provider.complete(request.messages, request.schema, **options)
        after = context_counters(self.llama)
        return reply, {key: after[key] - before[key] for key in after}


class HttpWay:
    """Over HTTP through duskfall's OpenAI-compatible provider; counters from the log."""

    def __init__(self, server: LlamaServer, log: Path) -> None:
        self.model = get_model(server.agent_spec.removeprefix("llm:"), fold_system=True,
                               timeout=600)  # fmt: skip
        self.log = log

    async def ask(self, request: Request, options: dict[str, Any]) -> tuple[Completion, Any]:
        start = self.log.stat().st_size
        call = CallOptions(**options)
        reply = await self.model.complete(list(request.messages), request.schema, options=call)
        with self.log.open("rb") as text:
            text.seek(start)
            counters = server_counters(text.read().decode(errors="replace"))
        return reply, counters


async def main(count: int, threads: int, server_defaults: bool) -> None:
    print(f"load average {load()}", flush=True)
    requests = await game_requests(count)
    sizes = [sum(len(m["content"]) for m in r.messages) for r in requests]
    print(f"{len(requests)} requests from a werewolf-6 game, prompts of "
          f"{min(sizes):,}-{max(sizes):,} characters", flush=True)  # fmt: skip
    log = Path(tempfile.mkdtemp()) / "server.log"
    sampling = {k: AGENT_OPTIONS[k] for k in ("max_tokens", "temperature", "repeat_penalty")}
    with LlamaServer(threads=threads, log=log) as server:
        http = HttpWay(server, log)
        ways: dict[str, Any] = {
            "HTTP (llama_cpp.server, the recipe)": (http, sampling),
            "in-process, duskfall's sampler": (LocalWay(threads, stock=False), sampling),
            "in-process, llama-cpp-python's": (LocalWay(threads, stock=True), sampling),
        }
        if server_defaults:
            rest = {k: v for k, v in sampling.items() if k != "repeat_penalty"}
            ways["HTTP, the server's repeat_penalty"] = (http, rest)
        await http.model.complete([{"role": "user", "content": "hi"}],
                                  options=CallOptions(max_tokens=2))  # fmt: skip
        results = {name: Way(name) for name in ways}
        for i, request in enumerate(requests):
            options = {**sampling, "seed": request.options.get("seed", i)}
            for name, (way, chosen) in ways.items():
                started = time.perf_counter()
                reply, counters = await way.ask(request, {**chosen, "seed": options["seed"]})
                results[name].add(time.perf_counter() - started, reply, counters)
            print(f"request {i + 1}/{len(requests)} done (load {load()})", flush=True)
    for way in results.values():
        print(way.line())
    names = list(results)
    http_way, shortlist, stock = (results[n] for n in names[:3])
    same = sum(a == b for a, b in zip(http_way.replies, stock.replies, strict=True))
    print(f"HTTP / in-process (duskfall's sampler) wall time: {http_way.wall / shortlist.wall:.2f}")
    print(f"HTTP / in-process (llama-cpp-python's sampler): {http_way.wall / stock.wall:.2f}")
    print(f"identical replies, HTTP and in-process with the same sampler: {same}/{len(requests)}")
    print(f"load average {load()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=6)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--server-defaults", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.requests, args.threads, args.server_defaults))
