"""Input tokens per game with LLM seats: total, and new (what a prefix cache does not save).

Every seat is an LLMAgent over the ``scripted`` model with its replies filled to their caps
(the reasoning to ``reasoning_chars``, an older ``think``/``says`` to 160 characters, speech
text in an action to its ``maxLength`` or 800 characters), and every prompt the game sent is
counted with the Gemma 3 tokenizer of the embedded model. For each call, its *new* input tokens
are those not in the longest common token prefix with the same seat's previous call. The
*history floor* is what complete information costs at the least: the tokens of the history
lines alone, each seat reading each line it could see exactly once.

Today's code (conversation memory, then ``memory=stateless``) is measured beside the code before
the context work (``LLM_CONTEXT_BASELINE``) in the same run, each game in a child process:

    python benchmarks/llm_tokens.py            # werewolf-12, werewolf-6, mafia-8, sports-mafia
    python benchmarks/llm_tokens.py --games 1 --only werewolf-12
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import baseline_src, current_src, run_python

LLM_CONTEXT_BASELINE = "db67bc8"  # main before the complete-information prompts (issue 14)
TARGET_NEW_TOKENS = 60_000  # werewolf-12, new input tokens per game
SETUPS: dict[str, tuple[str, dict[str, Any]]] = {
    "werewolf-12": ("werewolf", {"preset": "werewolf-12"}),
    "werewolf-6": ("werewolf", {"preset": "werewolf-6"}),
    "mafia-8": ("mafia", {"players": 8}),
    "sports-mafia": ("sports-mafia", {}),
}
CAPS = {"reasoning": 1000, "think": 160, "says": 160}
SPEECH_CHARS = 800
FILLER = "the quiet one voted late and dodged the question about the night "


def _filled(text_len: int) -> str:
    return (FILLER * (text_len // len(FILLER) + 1))[:text_len]


def _fill_strings(value: Any, schema: dict[str, Any], top: bool) -> Any:
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out = {}
        for key, item in value.items():
            sub = props.get(key, {})
            if isinstance(item, str) and sub.get("type") == "string" and "enum" not in sub:
                cap = CAPS.get(key, 0) if top else int(sub.get("maxLength", SPEECH_CHARS))
                out[key] = _filled(cap) if cap else item
            else:
                out[key] = _fill_strings(item, sub, top=False)
        return out
    return value


def child(label: str, seed: int, options: dict[str, Any]) -> None:
    """Play one game (on whatever duskfall is importable) and print its figures as JSON."""
    import asyncio

    from llama_cpp import Llama

    from duskfall.llm.calls import LLM_CALL
    from duskfall.llm.providers import scripted
    from duskfall.llm.providers.local import default_model_path
    from duskfall.session import GameSetup, run_game

    plain = scripted.ScriptedProvider._schema_answer

    def capped(self: Any, request: Any) -> str:
        answer = plain(self, request)
        if request.schema is None:
            return str(answer)
        return json.dumps(_fill_strings(json.loads(answer), request.schema, top=True))

    scripted.ScriptedProvider._schema_answer = capped  # type: ignore[method-assign]
    vocab = Llama(model_path=str(default_model_path()), vocab_only=True, verbose=False)

    def tokens(messages: list[dict[str, str]]) -> list[int]:
        text = "".join(f"<{m['role']}>\n{m['content']}\n" for m in messages)
        return list(vocab.tokenize(text.encode(), add_bos=False, special=True))

    variant, config = SETUPS[label]
    setup = GameSetup(
        variant,
        seed=seed,
        agents="llm:scripted",
        config=config,
        write_log=False,
        agent_options=options,
    )
    game = asyncio.run(run_game(setup))
    previous: dict[int, list[int]] = {}
    total = new = calls = 0
    for event in game.record.events:
        if event.kind != LLM_CALL:
            continue
        seat = event.payload["seat"]
        now = tokens(event.payload["messages"])
        before = previous.get(seat, [])
        common = 0
        for a, b in zip(before, now, strict=False):
            if a != b:
                break
            common += 1
        total += len(now)
        new += len(now) - common
        calls += 1
        previous[seat] = now
    print(json.dumps({"calls": calls, "input": total, "new": new, "floor": floor(game, vocab)}))


def floor(game: Any, vocab: Any) -> int:
    """Tokens of the history lines alone, each seat reading each line it could see once: what
    complete information costs at the least (0 where the code has no prompt kit)."""
    try:
        from duskfall.core.events import visible_to
        from duskfall.core.prompting import flatten
    except ImportError:
        return 0
    kit = game.variant.info.prompt_kit
    state = game.state
    total = 0
    for seat in range(len(state.roles())):
        obs, channels = state.observe(seat), state.channels(seat)
        lines = [
            line.text
            for event in game.record.events
            if event.source == "rules" and visible_to(event, seat, channels)
            if (line := kit.line(flatten(event), obs)) is not None
        ]
        total += len(vocab.tokenize("\n".join(lines).encode(), add_bos=False, special=True))
    return total


def measure(src: Path, label: str, seed: int, options: dict[str, Any]) -> dict[str, int]:
    out = run_python(src, __file__, "--child", label, str(seed), json.dumps(options))
    return dict(json.loads(out.strip().splitlines()[-1]))


def main(labels: list[str], games: int) -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    versions = [
        (f"before ({LLM_CONTEXT_BASELINE})", baseline_src(LLM_CONTEXT_BASELINE), {}),
        ("conversation", current_src(), {}),
        ("stateless", current_src(), {"memory": "stateless"}),
    ]
    print(
        f"{'game':<13} {'code':<18} {'calls':>6} {'input tok':>11} {'new input tok':>14} "
        f"{'history floor':>14}"
    )
    for label in labels:
        means: dict[str, float] = {}
        for name, src, options in versions:
            runs = [measure(src, label, seed, options) for seed in range(games)]
            calls = statistics.mean(r["calls"] for r in runs)
            total = statistics.mean(r["input"] for r in runs)
            new = statistics.mean(r["new"] for r in runs)
            least = statistics.mean(r["floor"] for r in runs)
            means[name] = new
            print(
                f"{label:<13} {name:<18} {calls:>6.0f} {total:>11,.0f} {new:>14,.0f} "
                f"{least or float('nan'):>14,.0f}"
            )
        before = means[versions[0][0]]
        now = means["conversation"]
        line = f"{label}: new input tokens, conversation / before = {now / before:.2f}"
        if label == "werewolf-12":
            line += (
                f"; target {TARGET_NEW_TOKENS:,}: {'met' if now <= TARGET_NEW_TOKENS else 'MISSED'}"
            )
        print(line)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games (seeds 0..N-1) per setup")
    parser.add_argument("--only", choices=sorted(SETUPS), action="append", help="one setup")
    args = parser.parse_args()
    main(args.only or list(SETUPS), args.games)
