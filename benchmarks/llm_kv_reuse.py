"""KV-prefix reuse of the embedded model: prompt tokens evaluated and wall time, with and without.

Six seats (``--seats``) hold growing conversations (a fixed system prompt, then a user turn of
events and a scripted answer per turn, ``--turns`` turns) and call the one shared model in
turn, interleaved as in a game: seat 1's turn 1, seat 2's turn 1, ..., seat 1's turn 2...
Each call generates ``--reply-tokens`` tokens; the scripted answers keep the conversations the
same in every mode. The same calls run three ways, in one process:

* ``no reuse``: the context is cleared before every call (every prompt evaluated in full);
* ``previous call``: no saved states (``kv_cache_mb = 0``): a call reuses only what the call
  just before it left in the context, which is another seat's conversation;
* ``per-seat states``: the default: the saved state sharing the longest prefix is loaded.

It prints, per way, prompt tokens evaluated and reused, wall time, the ratios to ``no reuse``,
and the memory of the saved states, with the machine's load (it is shared: figures move with
it)::

    python benchmarks/llm_kv_reuse.py
    python benchmarks/llm_kv_reuse.py --seats 3 --turns 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import time
from dataclasses import dataclass

from duskfall.llm import CallOptions, Model
from duskfall.llm.providers.local import LocalProvider
from duskfall.llm.types import Message

RULES = (
    "You are playing werewolf in the village of Duskfall with six players. Each night the "
    "werewolves choose a villager to kill; the seer learns whether one player is a werewolf; "
    "the doctor protects one player from the wolves. Each day everyone alive speaks in turn, "
    "then all vote, and the player with most votes is eliminated. The village wins when every "
    "werewolf is dead; the werewolves win when they are as many as the villagers. "
) * 3


def system(seat: int) -> str:
    role = "a werewolf" if seat % 3 == 0 else "a villager"
    return f"{RULES}\nYou are seat {seat}, {role}. Answer with one JSON object."


def events(seat: int, turn: int) -> str:
    accuser, accused = (seat + turn) % 6 + 1, (seat + 2 * turn) % 6 + 1
    return (
        f"[Day {turn + 1}] Night fell and seat {accused} was found dead. Seat {accuser} says "
        f"seat {seat} was too quiet yesterday and should explain the vote against seat "
        f"{accused}. It is your turn to speak."
    )


def answer(seat: int, turn: int) -> str:
    target = (seat + turn) % 6 + 1
    reasoning = f"Seat {target} pushes hard without evidence."
    return json.dumps({"reasoning": reasoning, "action": {"says": f"I suspect seat {target}."}})


def conversation(seat: int, turn: int) -> list[Message]:
    """Seat ``seat``'s messages at its call number ``turn`` (0-based)."""
    messages: list[Message] = [{"role": "system", "content": system(seat)}]
    for earlier in range(turn + 1):
        if earlier:
            messages.append({"role": "assistant", "content": answer(seat, earlier - 1)})
        messages.append({"role": "user", "content": events(seat, earlier)})
    return messages


@dataclass
class Run:
    name: str
    calls: int = 0
    prompt: int = 0
    reused: int = 0
    wall: float = 0.0

    @property
    def evaluated(self) -> int:
        return self.prompt - self.reused


async def play(name: str, provider: LocalProvider, args: argparse.Namespace, *, clear: bool) -> Run:
    model = Model(provider, timeout=900)
    options = CallOptions(max_tokens=args.reply_tokens, temperature=0)
    run = Run(name)
    provider.forget()  # every way starts from an empty context
    started = time.perf_counter()
    for turn in range(args.turns):
        for seat in range(1, args.seats + 1):
            if clear:
                provider.forget()
            reply = await model.complete(conversation(seat, turn), options=options)
            run.calls += 1
            run.prompt += reply.usage.prompt_tokens
            run.reused += reply.usage.cached_tokens
    run.wall = time.perf_counter() - started
    return run


def rss_mib() -> float:
    """This process's resident memory now (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine_load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "uptime unavailable"


async def main(args: argparse.Namespace) -> None:
    print(f"before: {machine_load()}")
    print(f"{args.seats} seats x {args.turns} turns, {args.reply_tokens} generated tokens a call")
    plain = LocalProvider(kv_cache_mb=0)
    plain.loaded()  # load outside the timings
    runs = [
        await play("no reuse", plain, args, clear=True),
        await play("previous call", plain, args, clear=False),
    ]
    before = rss_mib()
    cached = LocalProvider(n_ctx=plain.n_ctx + 1)  # another instance: it starts empty
    cache = cached.loaded().llama.cache
    loaded = rss_mib()
    runs.append(await play("per-seat states", cached, args, clear=False))
    after = rss_mib()

    base = runs[0]
    print(
        f"{'':16} {'calls':>5} {'prompt':>7} {'evaluated':>9} {'reused':>7} {'wall s':>7}"
        f" {'eval ratio':>10} {'wall ratio':>10}"
    )
    for run in runs:
        print(
            f"{run.name:16} {run.calls:5} {run.prompt:7} {run.evaluated:9} {run.reused:7} "
            f"{run.wall:7.1f} {run.evaluated / base.evaluated:10.2f} {run.wall / base.wall:10.2f}"
        )
    per_token = cache.cache_size / max(1, cache.tokens)
    print(
        f"saved states: {cache.entries} entries, {cache.tokens} tokens, "
        f"{cache.cache_size / 2**20:.1f} MiB ({per_token / 1024:.1f} KiB a token; "
        f"capacity {cached.kv_cache_mb} MiB); process RSS {before:.0f} MiB before the second "
        f"model, {loaded:.0f} MiB with it loaded, {after:.0f} MiB after its calls"
    )
    print(f"after: {machine_load()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--reply-tokens", type=int, default=4)
    asyncio.run(main(parser.parse_args()))
