"""A werewolf-6 game with every seat played by the bundled model, in-process (``llm:local``)
and over HTTP against ``python -m llama_cpp.server`` serving the same model with the recipe of
docs/llm.md, in the same run: wall time, model calls, timeouts, fallbacks, legal first try,
template debris in the replies, and the ratio HTTP / in-process (goal: at most 1.3).

Each game plays in its own child process (the model loads once per process, outside the
timed game). The load average (``uptime``) is printed before and after each game: the machine
is shared, so read the ratio, and the load beside it.

    python benchmarks/llm_local_server.py                  # seed 1, 2 threads, every seat
    python benchmarks/llm_local_server.py --seed 2 --threads 1
    python benchmarks/llm_local_server.py --model-seats 2  # seats 0-1 the model, heuristic bots
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_local_game import ending, first_try_rates

DEBRIS = ("[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "</SYS>", "<start_of_turn>", "<end_of_turn>")
GOAL = 1.3


def first_asked(first: dict[str, tuple[int, int]]) -> list[int]:
    return [asked for _, asked in first.values()]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def agents_spec(model: str, model_seats: int) -> str:
    """Every seat the model, or seats 0..model_seats-1 with heuristic bots elsewhere."""
    if model_seats <= 0:
        return model
    return ",".join(f"{seat}={model}" for seat in range(model_seats)) + ",default=heuristic"


def child(where: str, seed: int, threads: int, model_seats: int) -> None:
    """Play the game (``local`` or ``http``); print its figures as JSON."""
    import asyncio
    import time

    from duskfall.llm import CallOptions, get_model
    from duskfall.llm.calls import call_report
    from duskfall.session import GameSetup, run_game
    from duskfall.testing.llama_server import LlamaServer

    class Progress:
        """Each model call on stderr, so a long game is not a silent one."""

        def on_event(self, event: Any) -> None:
            if event.kind == "llm_call":
                payload = event.payload
                print(f"  {where} day {event.day} seat {payload.get('seat')} "
                      f"{payload.get('decision')}: {payload.get('latency_s')}s",
                      file=sys.stderr, flush=True)  # fmt: skip

        def on_phase_end(self) -> None:
            pass

        def on_game_end(self, outcome: Any) -> None:
            pass

    progress = Progress()

    async def play(agent: str, options: dict[str, Any]) -> dict[str, Any]:
        spec = agent.removeprefix("llm:")
        hello = [{"role": "user", "content": "hi"}]
        model = get_model(spec, fold_system=bool(options.get("fold_system")))
        await model.complete(hello, options=CallOptions(max_tokens=2))  # loads the model
        started, cpu = time.perf_counter(), time.process_time()
        setup = GameSetup("werewolf", seed=seed, agents=agents_spec(agent, model_seats),
                          config={"preset": "werewolf-6"}, write_log=False,
                          agent_options=options, observers=[progress])  # fmt: skip
        game = await run_game(setup)
        wall = time.perf_counter() - started
        events = game.record.events
        report = call_report(events)
        replies = [str(e.payload.get("reply") or "") for e in events if e.kind == "llm_call"]
        first = first_try_rates(events)
        return {
            "wall": wall,
            "cpu": time.process_time() - cpu,
            **report.to_dict(),
            "legal_first_try": [sum(g for g, _ in first.values()), sum(first_asked(first))],
            "debris": sum(any(d in r for d in DEBRIS) for r in replies),
            "replies": len(replies),
            "outcome": ending(events),
        }

    if where == "local":
        config = Path(tempfile.mkdtemp()) / "llm.toml"
        config.write_text(f"[local]\nn_threads = {threads}\n")
        os.environ["DUSKFALL_LLM_CONFIG"] = str(config)
        figures = asyncio.run(play("llm:local", {}))
    else:
        log = Path(tempfile.mkdtemp()) / "server.log"
        with LlamaServer(threads=threads, log=log) as server:
            print(f"server: {' '.join(server.command)}", file=sys.stderr)
            figures = asyncio.run(play(server.agent_spec, server.agent_options))
    print(json.dumps(figures))


def show(name: str, f: dict[str, Any]) -> None:
    good, asked = f["legal_first_try"]
    print(
        f"{name}: wall {f['wall']:.1f}s (CPU of this process {f['cpu']:.1f}s), {f['calls']} calls "
        f"({f['queue_s']:.0f}s queued in duskfall), {f['call_timeouts']} call timeouts "
        f"({f['queued_timeouts']} queued), {f['timeouts']} decision timeouts, "
        f"{f['fallbacks']} fallbacks, {f['invalid_replies']} refused; legal first try "
        f"{good}/{asked}; template debris in {f['debris']}/{f['replies']} replies; input "
        f"{f['prompt_tokens']:,} tokens ({f['cached_tokens']:,} reported cached), "
        f"{f['completion_tokens']:,} completion; output forms {f['output_forms']}; {f['outcome']}"
    )


def main(seed: int, threads: int, model_seats: int) -> None:
    results = {}
    who = "every seat" if model_seats <= 0 else f"seats 0-{model_seats - 1} (heuristic bots)"
    print(f"werewolf-6 seed {seed}, the model at {who}, {threads} threads")
    for where in ("local", "http"):
        before = load()
        done = subprocess.run(
            [sys.executable, __file__, "--child", where, str(seed), str(threads),
             str(model_seats)],
            stdout=subprocess.PIPE, text=True, timeout=7200,
        )  # fmt: skip
        if done.returncode != 0:
            print(done.stdout, file=sys.stderr)
            raise SystemExit(f"the {where} game failed")
        results[where] = json.loads(done.stdout.strip().splitlines()[-1])
        label = "in-process" if where == "local" else "HTTP      "
        show(f"{label} werewolf-6 seed {seed}, {threads} threads", results[where])
        print(f"    load average before {before}, after {load()}")
    ratio = results["http"]["wall"] / results["local"]["wall"]
    verdict = "met" if ratio <= GOAL and results["http"]["debris"] == 0 else "MISSED"
    print(f"wall time HTTP / in-process = {ratio:.2f} (goal <= {GOAL}, no debris): {verdict}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model-seats", type=int, default=0, help="0: every seat")
    args = parser.parse_args()
    main(args.seed, args.threads, args.model_seats)
