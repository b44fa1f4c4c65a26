"""What the leak reader costs a game: ``leak_report`` over logged heuristic werewolf-12 games,
on today's code and on a baseline commit's, in the same run (``analyse`` and the web's per-seat
summary read every game with it).

The games are played once, into a temporary folder; each side reads all of them ``--rounds``
times in a child process and the best round is kept (CPU time of the reading only). Bots
repeat their speeches, which the reader reads once per seat, so a second figure reads the
1,037 distinct speeches of the development sets (``tests/lab/leak_sentences/``) with one
reader: the cost of a speech never said before, as a model's are.

    python benchmarks/leak_cost.py                         # 20 games, baseline fea8464
    python benchmarks/leak_cost.py --games 5 --baseline HEAD~3
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from baseline import ROOT, baseline_src, current_src, load_average, run_python

# The reader before it was broadened for other writers' wordings (issue 38).
LEAK_BASELINE = "fea8464"

READ = """
import sys, time
from pathlib import Path
from duskfall.lab.leaks import leak_report
from duskfall.store.log import read_log
logs = [read_log(p) for p in sorted(Path(sys.argv[1]).glob("*.jsonl"))]
best = None
for _ in range(int(sys.argv[2])):
    started = time.process_time()
    findings = sum(len(leak_report(log).findings) for log in logs)
    spent = time.process_time() - started
    best = spent if best is None else min(best, spent)
print(best / len(logs), findings)
"""

SPEECHES = """
import sys, time
from pathlib import Path
from duskfall.testing import leak_sentences as labelled
folder = Path(sys.argv[1])
texts = [(labelled.SPEAKER[s.kind], s.text)
         for name in ("dev", "heldout", "writer1", "writer2")
         for s in labelled.load(name, folder)]
words = labelled.table_words()
try:  # the reader of issue 38
    from duskfall.lab.leaks import _reading
    from duskfall.lab.reader import Reader
    def read():
        reader = Reader(words)
        for seat, text in texts:
            _reading(reader, seat, text, True)
except ImportError:  # the reader before it
    from duskfall.lab.leaks import _SENTENCES, _Reader
    def read():
        reader = _Reader(words)
        for seat, text in texts:
            for sentence in _SENTENCES.split(text):
                reader.exposes_self(seat, sentence)
            reader.teammate(seat, text), reader.claims(text), reader.disclosed(text)
best = None
for _ in range(int(sys.argv[2])):
    started = time.process_time()
    read()
    spent = time.process_time() - started
    best = spent if best is None else min(best, spent)
print(best / len(texts), len(texts))
"""


def play(games: int, folder: Path) -> None:
    from duskfall.session import GameSetup, run_game
    from duskfall.store.paths import use_db

    use_db(None)
    for seed in range(games):
        setup = GameSetup(
            "werewolf",
            seed=seed,
            agents="heuristic",
            config={"preset": "werewolf-12"},
            log_path=folder / f"game-{seed:03d}.jsonl",
        )
        asyncio.run(run_game(setup))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default=LEAK_BASELINE)
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        print("error: --games and --rounds must be at least 1", file=sys.stderr)
        raise SystemExit(2)
    print(load_average())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        play(args.games, folder)
        figures = {}
        for label, src in (("baseline", baseline_src(args.baseline)), ("today", current_src())):
            out = run_python(src, "-c", READ, str(folder), str(args.rounds))
            per_game, findings = out.split()
            figures[label] = float(per_game)
            print(f"{label:9} {float(per_game) * 1000:8.1f} ms CPU a game  ({findings} findings)")
    print(f"ratio today / baseline ({args.baseline}): {figures['today'] / figures['baseline']:.2f}")
    folder = ROOT / "tests" / "lab" / "leak_sentences"
    for label, src in (("baseline", baseline_src(args.baseline)), ("today", current_src())):
        per_speech, count = run_python(src, "-c", SPEECHES, str(folder), str(args.rounds)).split()
        figures[label] = float(per_speech)
        print(f"{label:9} {float(per_speech) * 1e6:8.0f} us CPU a distinct speech ({count})")
    print(f"ratio today / baseline ({args.baseline}): {figures['today'] / figures['baseline']:.2f}")
    print(load_average())


if __name__ == "__main__":
    main()
