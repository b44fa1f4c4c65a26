"""A werewolf-6 game with every seat played by the bundled model, in-process (``llm:local``)
and over HTTP against ``python -m llama_cpp.server`` serving the same model with the recipe of
docs/llm.md, in the same run: wall time, model calls, timeouts, fallbacks, legal first try,
template debris in the replies, and the ratio HTTP / in-process (goal: at most 1.3).

Each game plays in its own child process (the model loads once per process, outside the
timed game); with ``--rounds N`` the two alternate N times (in-process, HTTP, in-process...),
each round's ratio printed. The load average (``uptime``) is printed before and after each
game: the machine is shared, so read the ratio, and the load beside it.

Where the time went, for each game: llama.cpp's own counters (prompt evaluation and token
generation, in-process read from the context, over HTTP from the server's log), and the rest
of the model's time (sampling, the server's state cache, HTTP). ``--profile FILE`` also
samples the server with py-spy (``pip install py-spy``) into FILE and prints where its time
went, by function.

    python benchmarks/llm_local_server.py                  # seed 1, 2 threads, every seat
    python benchmarks/llm_local_server.py --seed 2 --threads 1
    python benchmarks/llm_local_server.py --model-seats 2  # seats 0-1 the model, heuristic bots
    python benchmarks/llm_local_server.py --threads 1 --model-seats 2 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_local_game import ending, first_try_rates

DEBRIS = ("[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "</SYS>", "<start_of_turn>", "<end_of_turn>")
GOAL = 1.3


# llama.cpp's per-request timings, as llama-cpp-python's server prints them
PERF_LINE = re.compile(r"(prompt eval|\beval) time =\s*([\d.]+) ms /\s*(\d+) (?:tokens|runs)")


def server_counters(log: str) -> dict[str, float]:
    """llama.cpp's counters summed over the server's log: seconds and tokens of prompt
    evaluation and of generation."""
    totals = {"prompt_s": 0.0, "prompt_n": 0.0, "gen_s": 0.0, "gen_n": 0.0}
    for what, ms, count in PERF_LINE.findall(log):
        key = "prompt" if what == "prompt eval" else "gen"
        totals[f"{key}_s"] += float(ms) / 1000
        totals[f"{key}_n"] += int(count)
    return totals


def context_counters(llama: Any) -> dict[str, float]:
    """The same counters, read from an in-process model's llama.cpp context."""
    import llama_cpp

    perf = llama_cpp.llama_perf_context(llama._ctx.ctx)
    return {
        "prompt_s": perf.t_p_eval_ms / 1000,
        "prompt_n": perf.n_p_eval,
        "gen_s": perf.t_eval_ms / 1000,
        "gen_n": perf.n_eval,
    }


def profile_summary(raw: Path, top: int = 8) -> list[str]:
    """The functions the server spent its sampled time in (py-spy's raw output), most first."""
    own: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        own[stack.split(";")[-1]] += int(count)
    total = sum(own.values()) or 1
    return [f"{n / total:6.1%}  {frame}" for frame, n in own.most_common(top)]


def first_asked(first: dict[str, tuple[int, int]]) -> list[int]:
    return [asked for _, asked in first.values()]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def agents_spec(model: str, model_seats: int) -> str:
    """Every seat the model, or seats 0..model_seats-1 with heuristic bots elsewhere."""
    if model_seats <= 0:
        return model
    return ",".join(f"{seat}={model}" for seat in range(model_seats)) + ",default=heuristic"


def child(where: str, seed: int, threads: int, model_seats: int, profile: str) -> None:
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

    counters_before: dict[str, float] = {}

    async def play(agent: str, options: dict[str, Any]) -> dict[str, Any]:
        spec = agent.removeprefix("llm:")
        hello = [{"role": "user", "content": "hi"}]
        model = get_model(spec, fold_system=bool(options.get("fold_system")))
        await model.complete(hello, options=CallOptions(max_tokens=2))  # loads the model
        if where == "local":
            counters_before.update(context_counters(model.provider.loaded().llama))
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
        if where == "local":
            after = context_counters(model.provider.loaded().llama)
            counters = {key: after[key] - counters_before[key] for key in after}
        else:
            counters = {}
        return {
            "counters": counters,
            "model_s": sum(
                float(e.payload.get("latency_s") or 0) for e in events if e.kind == "llm_call"
            ),
            "reply_chars": sum(len(r) for r in replies),
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
            spy = None
            if profile:
                assert server.process is not None
                spy = subprocess.Popen(
                    ["py-spy", "record", "--pid", str(server.process.pid), "--format", "raw",
                     "--output", profile, "--rate", "20", "--nonblocking"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            start = log.stat().st_size  # the warm-up request's timings stay out
            figures = asyncio.run(play(server.agent_spec, server.agent_options))
            if spy is not None:
                spy.send_signal(2)  # py-spy writes its file on SIGINT
                spy.wait(timeout=120)
        with log.open("rb") as text:
            text.seek(start)
            figures["counters"] = server_counters(text.read().decode(errors="replace"))
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
        f"{f['completion_tokens']:,} completion ({f['reply_chars']:,} characters of replies); "
        f"output forms {f['output_forms']}; {f['outcome']}"
    )
    c = f["counters"]
    rest = f["model_s"] - f["queue_s"] - c["prompt_s"] - c["gen_s"]
    print(
        f"    model time {f['model_s']:.0f}s: llama.cpp evaluated {c['prompt_n']:,.0f} prompt "
        f"tokens in {c['prompt_s']:.0f}s and decoded {c['gen_n']:,.0f} tokens in "
        f"{c['gen_s']:.0f}s ({1000 * c['gen_s'] / max(c['gen_n'], 1):.0f} ms each); the rest, "
        f"{rest:.0f}s ({1000 * rest / max(c['gen_n'], 1):.0f} ms a generated token), is "
        "sampling, state saving, HTTP"
    )


def play_one(where: str, seed: int, threads: int, model_seats: int, profile: str) -> dict[str, Any]:
    """One game in a child process; its figures."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", where, str(seed), str(threads), str(model_seats),
         profile],
        stdout=subprocess.PIPE, text=True, timeout=7200,
    )  # fmt: skip
    if done.returncode != 0:
        print(done.stdout, file=sys.stderr)
        raise SystemExit(f"the {where} game failed")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(seed: int, threads: int, model_seats: int, rounds: int, profile: str) -> None:
    if profile and shutil.which("py-spy") is None:
        raise SystemExit("--profile needs py-spy on the PATH: pip install py-spy")
    who = "every seat" if model_seats <= 0 else f"seats 0-{model_seats - 1} (heuristic bots)"
    print(f"werewolf-6 seed {seed}, the model at {who}, {threads} threads")
    ratios = []
    for round_ in range(1, rounds + 1):
        results = {}
        for where in ("local", "http"):
            before = load()
            spy = profile if where == "http" and round_ == rounds else ""
            results[where] = play_one(where, seed, threads, model_seats, spy)
            label = "in-process" if where == "local" else "HTTP      "
            show(f"{label} werewolf-6 seed {seed}, {threads} threads", results[where])
            print(f"    load average before {before}, after {load()}")
        ratios.append(results["http"]["wall"] / results["local"]["wall"])
        clean = results["http"]["debris"] == 0
        verdict = "met" if ratios[-1] <= GOAL and clean else "MISSED"
        print(
            f"round {round_}: wall time HTTP / in-process = {ratios[-1]:.2f} "
            f"(goal <= {GOAL}, no debris): {verdict}"
        )
    if rounds > 1:
        print("ratios by round: " + ", ".join(f"{r:.2f}" for r in ratios))
    if profile:
        print(f"the server's time by function (py-spy, last HTTP game; raw samples in {profile}):")
        for line in profile_summary(Path(profile)):
            print(f"    {line}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model-seats", type=int, default=0, help="0: every seat")
    parser.add_argument("--rounds", type=int, default=1, help="alternate the two this often")
    parser.add_argument("--profile", default="", help="py-spy the server into this file")
    args = parser.parse_args()
    main(args.seed, args.threads, args.model_seats, max(1, args.rounds), args.profile)
