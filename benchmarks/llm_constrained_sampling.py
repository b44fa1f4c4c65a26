"""Schema-constrained generation on the embedded model: llama-cpp-python's sampler (the grammar
checked against the whole vocabulary) against duskfall's shortlist sampler, in one process,
alternating request by request on the same prompts and seeds.

Prints tokens per second for each, their ratio, and how many replies came out identical.

    python benchmarks/llm_constrained_sampling.py [--requests 8] [--max-tokens 160]
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from llama_cpp import Llama

from duskfall.llm.envelope import envelope_schema
from duskfall.llm.providers.local import default_model_path
from duskfall.llm.providers.reusing_llama import ReusingLlama, open_llama

VOTE = {
    "type": "object",
    "properties": {"type": {"const": "VOTE"}, "target": {"enum": [1, 2, 4, 5]}},
    "required": ["type", "target"],
}
SPEECH = {
    "type": "object",
    "properties": {"type": {"const": "SPEECH"}, "says": {"type": "string", "maxLength": 800}},
    "required": ["type", "says"],
}
PROMPTS = [
    ("Seat 1 accused you; seat 5 defended you. Vote to exile one of seats 1, 2, 4, 5.", VOTE),
    ("Day 2. Seat 4 claims seer and says seat 2 is a werewolf. Give your speech.", SPEECH),
]


def generate(llama: ReusingLlama, prompt: str, action: dict[str, Any], seed: int, cap: int) -> Any:
    messages = [{"role": "user", "content": f"You are seat 3 in a werewolf game. {prompt}"}]
    schema = envelope_schema(action, reasoning_chars=300)
    return llama.create_chat_completion(
        messages=messages,  # type: ignore[arg-type]
        temperature=0.7,
        max_tokens=cap,
        seed=seed,
        response_format={"type": "json_object", "schema": schema},
    )


def main(requests: int, cap: int) -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    llama = open_llama(
        str(default_model_path()), cache_bytes=0, n_ctx=4096, n_threads=2, n_threads_batch=2
    )
    shortlist = llama._init_sampler
    stock = Llama._init_sampler.__get__(llama)
    totals = {"vocabulary": [0, 0.0], "shortlist": [0, 0.0]}
    same = 0
    for i in range(requests):
        prompt, action = PROMPTS[i % len(PROMPTS)]
        texts = {}
        for name, init in (("vocabulary", stock), ("shortlist", shortlist)):
            llama._init_sampler = init  # type: ignore[method-assign]
            llama.reset()
            started = time.perf_counter()
            result = generate(llama, prompt, action, seed=i, cap=cap)
            totals[name][1] += time.perf_counter() - started
            totals[name][0] += result["usage"]["completion_tokens"]
            texts[name] = result["choices"][0]["message"]["content"]
        same += texts["vocabulary"] == texts["shortlist"]
        print(f"request {i + 1}/{requests} done", flush=True)
    rates = {name: tokens / seconds for name, (tokens, seconds) in totals.items()}
    for name, (tokens, seconds) in totals.items():
        rate = f"{tokens:5d} tokens in {seconds:6.1f}s = {rates[name]:.1f} tok/s"
        print(f"{name:<10} grammar: {rate}")
    print(f"shortlist / vocabulary speed = {rates['shortlist'] / rates['vocabulary']:.2f}x")
    print(f"identical replies: {same}/{requests}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=160)
    args = parser.parse_args()
    main(args.requests, args.max_tokens)
