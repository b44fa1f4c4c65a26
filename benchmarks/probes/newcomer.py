"""Item 17: a newcomer's mistakes (issue 43) and the bad inputs of issue 36, from outside.

Each case runs real ``duskfall`` processes, as a new user would type them, and checks what
they print: one clear line (``error: ...``, or ``interrupted``) and the right exit status
(2 for a mistake, 130 for Ctrl-C), never a traceback, a silent success on nothing, a long
silence, or a number that is not a number.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hardening_probes import Background, Duskfall, Run, Tally

ITEM = 17
TITLE = "a newcomer's mistakes"
OUTSIDE = True

NO_NUMPY = "import sys; sys.modules['numpy'] = None; from duskfall.cli import main; main()"

TOURNAMENT = """name = "{name}"
games = {games}
seed = 3
{extra}
[entrants]
a = "heuristic"
b = "{b}"

[[variants]]
variant = "sports-mafia"
{options}
"""


def tournament(work: Path, file: str, **fields: Any) -> str:
    """Write a small tournament config; ``fields`` replace its parts."""
    values = {"name": Path(file).stem, "games": 4, "extra": "", "b": "random", "options": ""}
    values.update(fields)
    (work / file).write_text(TOURNAMENT.format(**values))
    return file


def without_numpy(duskfall: Duskfall, *args: str) -> Run:
    """``duskfall ARGS`` where numpy cannot be imported (the ``arena`` extra left out)."""
    done = subprocess.run(
        [sys.executable, "-c", NO_NUMPY, *args],
        cwd=duskfall.work,
        env=duskfall.env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr, 0.0)


def loaded(pid: int, library: str) -> bool:
    """Whether process ``pid`` has mapped a file whose path holds ``library``."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text(errors="replace")
    except OSError:
        return False


def interrupted(
    duskfall: Duskfall, args: list[str], after: float, wait_for: str = "", library: str = ""
) -> Run:
    """``duskfall ARGS`` sent SIGINT ``after`` seconds (or sooner: once stderr shows
    ``wait_for``, or once it has loaded ``library``); stdout and stderr piped."""
    start = time.monotonic()
    err_path = duskfall.work / f"interrupted-{os.getpid()}-{int(start * 1000)}.err"
    with err_path.open("w") as err:
        process = subprocess.Popen(
            [*duskfall.command(), *args],
            cwd=duskfall.work,
            env=duskfall.env,
            stdout=subprocess.PIPE,
            stderr=err,
            stdin=subprocess.DEVNULL,
            text=True,
            preexec_fn=_interruptible,
        )
        while time.monotonic() - start < after:
            if wait_for and wait_for in err_path.read_text(errors="replace"):
                break
            if library and loaded(process.pid, library):
                break
            if process.poll() is not None:
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        try:
            out, _ = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            out, _ = process.communicate()
    text = err_path.read_text(errors="replace")
    return Run(process.returncode, out, text, time.monotonic() - start)


def _interruptible() -> None:
    """SIGINT as a terminal's Ctrl-C gives it (a background job's children start with it
    ignored, and Python then installs no handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_line(run: Run, code: int, start: str = "error: ") -> bool:
    """Exit ``code``, one stderr line starting with ``start``, no traceback."""
    lines = [line for line in run.err.splitlines() if line.strip()]
    return (
        run.code == code
        and len(lines) == 1
        and lines[0].startswith(start)
        and "Traceback" not in run.text
    )


def said(run: Run) -> str:
    return f"{run.code} {run.err.strip()[-160:]!r}"


def probe(duskfall: Duskfall, background: Background, tally: Tally) -> None:
    work = duskfall.work
    _probe_missing_extra(duskfall, tally)
    _probe_startup_interrupt(duskfall, tally)
    _probe_configs(duskfall, tally)
    _probe_filters(duskfall, tally)
    _probe_numbers(duskfall, tally)
    _probe_long_steps(duskfall, tally)
    _probe_analyse(duskfall, tally)
    _probe_help(duskfall, tally)
    _probe_bad_options(duskfall, tally, work)


def _probe_missing_extra(duskfall: Duskfall, tally: Tally) -> None:
    config = tournament(duskfall.work, "extra.toml")
    for command in ("plan", "report"):
        run = without_numpy(duskfall, "tournament", command, config)
        tally.check(
            one_line(run, 2) and "duskfall[arena]" in run.err,
            f"tournament {command} without numpy: one line naming the extra: {said(run)}",
        )


def _probe_startup_interrupt(duskfall: Duskfall, tally: Tally) -> None:
    """Ctrl-C in the middle of start-up: once pydantic's compiled core is loaded (past the
    interpreter's own start, while duskfall's modules load), or a moment later."""
    config = tournament(duskfall.work, "startup.toml")
    for args, library in (
        (["--help"], "pydantic_core"),
        (["play", "-q"], "_sqlite3"),
        (["tournament", "plan", config], "scipy"),
    ):
        run = interrupted(duskfall, args, 30.0, library=library)
        tally.check(
            one_line(run, 130, "interrupted"),
            f"Ctrl-C once {library} is loaded in the start-up of {' '.join(args)}: {said(run)}",
        )


def _probe_configs(duskfall: Duskfall, tally: Tally) -> None:
    work = duskfall.work
    typo = tournament(work, "typo.toml", options="[agent_options]\nmax_tokenz = 5\n")
    run = duskfall.run("tournament", "run", typo)
    tally.check(
        one_line(run, 2) and "max_tokenz" in run.err,
        f"a typo in [agent_options] refused before play: {said(run)}",
    )
    fixed = tournament(work, "typo.toml", games=2)
    run = duskfall.run("tournament", "run", fixed, timeout=120)
    tally.check(
        run.code == 0 and "2 game(s) played" in run.out,
        f"the fixed config of a tournament that played nothing is played: {said(run)}",
    )
    several = tournament(
        work,
        "several.toml",
        b="mix:heuristic@2/random",
        extra="looks = 0",
        options="[agent_options]\nbogus = 1\nmax_tokens = -5\n",
    )
    run = duskfall.run("tournament", "run", several)
    found = ["looks", "mix:heuristic@2/random", "bogus", "max_tokens"]
    tally.check(
        one_line(run, 2) and all(word in run.err for word in found),
        f"a config with several mistakes lists them all ({', '.join(found)}): {said(run)}",
    )
    for value in ("-0.1", "nan"):
        run = duskfall.run("play", "-q", "--agents", f"mix:heuristic@{value}/random")
        tally.check(
            one_line(run, 2) and f"not {value}" in run.err,
            f"mix:heuristic@{value}/random names its probability: {said(run)}",
        )
    for name, line in (
        ("string", 'games = "2"'),
        ("flag", "parallel_games = true"),
        ("inf", "decision_timeout = inf"),
    ):
        config = tournament(work, f"bad-{name}.toml", games=2)
        text = (work / config).read_text().replace("games = 2", line if name == "string" else "")
        (work / config).write_text(text if name == "string" else f"{line}\ngames = 2\n" + text)
        run = duskfall.run("tournament", "run", config)
        tally.check(one_line(run, 2), f"tournament config with {line}: {said(run)}")


def _probe_filters(duskfall: Duskfall, tally: Tally) -> None:
    duskfall.run("play", "-q", "--seed", "1")  # the index holds one game
    for option, value in (
        ("--tournament", "nope"),
        ("--variant", "nope"),
        ("--agent", "nope"),
        ("--limit", "-5"),
    ):
        out = duskfall.work / f"export-{option.strip('-')}"
        run = duskfall.run("export", "--out", str(out), "--format", "jsonl", option, value)
        tally.check(
            one_line(run, 2),
            f"export {option} {value}: one line and exit 2, not a silent export: {said(run)}",
        )


def _probe_numbers(duskfall: Duskfall, tally: Tally) -> None:
    """board.csv holds plain numbers; plan's pilot never says a negative cut."""
    work = duskfall.work
    config = tournament(work, "board.toml", games=8)
    run = duskfall.run("tournament", "run", config, timeout=180)
    if run.code != 0:
        tally.check(False, f"the board tournament did not play: {said(run)}")
        return
    run = duskfall.run("tournament", "report", config, "--csv", "board.csv", timeout=180)
    cells: list[str] = []
    if run.code == 0 and (work / "board.csv").exists():
        rows = list(csv.DictReader(io.StringIO((work / "board.csv").read_text())))
        cells = [row[c] for row in rows for c in ("evil_win_rate", "village_win_rate")]
    tally.check(
        bool(cells) and all(_number(cell) for cell in cells),
        f"board.csv win rates parse as floats: {cells[:4]} {said(run)}",
    )
    run = duskfall.run("tournament", "plan", config, "--proxy-games", "20", timeout=180)
    negative = re.search(r"by -\d+%", run.out)
    tally.check(
        run.code == 0 and negative is None,
        f"plan's pilot never says pairing cut the variance by a negative share: {said(run)}",
    )


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return cell == ""
    return True


def _probe_long_steps(duskfall: Duskfall, tally: Tally) -> None:
    """Piped, a long step shows progress; Ctrl-C then ends it with one line."""
    run = interrupted(duskfall, ["simulate", "-n", "400000"], 45.0, wait_for="400,000")
    lines = [line for line in run.err.splitlines() if line.strip()]
    tally.check(
        any("400,000" in line for line in lines),
        f"simulate piped shows progress: {said(run)}",
    )
    tally.check(
        run.code == 130 and lines[-1:] == ["interrupted"] and "Traceback" not in run.err,
        f"simulate stopped with Ctrl-C says so: {said(run)}",
    )
    big = tournament(duskfall.work, "big.toml", games=1_000_000)
    run = interrupted(duskfall, ["tournament", "run", big], 45.0, wait_for="1,000,000")
    tally.check(
        "1,000,000" in run.err and run.code == 130 and "Traceback" not in run.err,
        f"games = 1000000 is not silent while it is scheduled: {said(run)}",
    )


def _probe_analyse(duskfall: Duskfall, tally: Tally) -> None:
    """``analyse`` places each night's deaths on that night."""
    log = duskfall.work / "nights.jsonl"
    duskfall.run(
        "play", "-q", "-v", "werewolf", "--preset", "werewolf-9", "--seed", "5",
        "--agents", "heuristic", "--log", str(log),
    )  # fmt: skip
    killed: dict[int, set[int]] = {}
    for line in log.read_text().splitlines()[1:]:
        event = json.loads(line)
        deaths = event.get("payload", {}).get("deaths")
        if event.get("kind") == "night_resolved" and deaths:
            killed.setdefault(event["day"], set()).update(d["seat"] for d in deaths)
    run = duskfall.run("analyse", str(log), "-n", "4", "--json", timeout=120)
    try:
        points = json.loads(run.out)["points"]
    except (ValueError, KeyError):
        tally.check(False, f"analyse --json: {said(run)}")
        return
    nights = {p["day"]: set(p["left"]) for p in points if "NIGHT" in p["phase"].upper()}
    tally.check(
        bool(killed) and all(seats <= nights.get(day, set()) for day, seats in killed.items()),
        f"analyse puts night deaths {killed} on their nights: {nights}",
    )


def _probe_help(duskfall: Duskfall, tally: Tally) -> None:
    run = duskfall.run("--version")
    tally.check(
        run.code == 0 and run.out.startswith("duskfall "), f"duskfall --version: {said(run)}"
    )
    commands = [
        ["play"], ["simulate"], ["replay"], ["export"], ["games"], ["fork"], ["analyse"],
        ["check-bot"], ["tournament", "run"], ["tournament", "report"], ["tournament", "plan"],
    ]  # fmt: skip
    texts = {" ".join(c): duskfall.run(*c, "--help", env={"COLUMNS": "200"}).out for c in commands}
    ticks = [name for name, text in texts.items() if "`" in text]
    tally.check(not ticks, f"help without reST backticks: {ticks}")
    bare = [name for name, text in texts.items() if "Examples" not in text]
    tally.check(not bare, f"every command's help has examples: missing in {bare}")
    tally.check("needs duskfall)" not in texts["export"], "export --format names its extra")
    tally.check("mix:" in texts["play"], "--agents help names mix:")
    run = duskfall.run("play", "--seed", "3", "--agents", "heuristic")
    first = "\n".join(run.out.splitlines()[:12])
    tally.check(
        run.code == 0 and re.search(r"declares \[", first) is None,
        f"the first game's lines are for people: {first[-200:]!r}",
    )


def _probe_bad_options(duskfall: Duskfall, tally: Tally, work: Path) -> None:
    run = duskfall.run("check-bot", "--timeout", "0", "--", "true")
    tally.check(one_line(run, 2), f"check-bot --timeout 0: {said(run)}")
    log = work / "nights.jsonl"
    action = next(
        (
            json.loads(line)["seq"]
            for line in log.read_text().splitlines()[1:]
            if json.loads(line).get("kind") == "action"
        ),
        0,
    )
    deep = '{"a": ' * 5_000 + "1" + "}" * 5_000
    run = duskfall.run("fork", str(log), "--replace", f"{action}={deep}")
    tally.check(one_line(run, 2), f"fork --replace with deeply nested JSON: {said(run)}")
