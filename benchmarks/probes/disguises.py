"""13. Secrets in any disguise: a model that echoes its key in 15 disguised forms.

A stub model server says the key it was sent (``OPENAI_API_KEY``) in every free-text field of
its replies, in one disguise after another (``duskfall.testing.disguises``: base64, hex,
``%XX``, ``&#NN;``, upper case, reversed, spaced, full-width, zero-width-, soft-hyphen- and
bidi-joined, without its ``sk-`` prefix, dotted), in werewolf games of ``llm`` seats and of
``cognitive`` seats (whose tool calls then carry it); a third game's model says the first half
of the key in one reply and the second half in the seat's next. Each form is looked for in the
log, the tokenless public web view and ``replay``'s output (in a shell without the key).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from duskfall.testing.disguises import SAID, disguised, form_echoes, halves, split_echo
from hardening_probes import KEY, Background, Duskfall, Tally, http_get, stub, web_server

ITEM = 13
TITLE = "secrets in any disguise"
OUTSIDE = True


def _decoded(text: str) -> str:
    """JSON lines and bodies with their ``\\uXXXX`` escapes read, as a reader sees them."""
    out = []
    for line in text.splitlines():
        try:
            out.append(json.dumps(json.loads(line), ensure_ascii=False))
        except ValueError:
            out.append(line)
    return "\n".join(out)


def _readable(text: str, forms: Iterable[tuple[str, str]]) -> list[str]:
    return [name for name, form in forms if form in text]


def probe(duskfall: Duskfall, background: Background, tally: Tally) -> None:
    env = {"OPENAI_API_KEY": KEY}
    logs = duskfall.work / "disguises"
    logs.mkdir()
    forms = [*disguised(KEY).items(), ("the key", KEY)]
    second = ("split over two replies", halves(KEY)[1])
    games: list[tuple[str, str, Any, list[tuple[str, str]]]] = [
        ("llm", "werewolf-9", form_echoes(), forms),
        ("cognitive", "werewolf-6", form_echoes(), [*forms]),
        ("llm", "werewolf-6", (split_echo,), [second, ("the key", KEY)]),
    ]
    for number, (agent, preset, echoes, _) in enumerate(games):
        with stub(background, echo_auth_in_replies=True, echo_forms=echoes) as server:
            spec = f"{agent}:openai:stub@{server.url}"
            log = logs / f"{number}-{agent}-{preset}.jsonl"
            run = duskfall.run(
                "play", "-v", "werewolf", "--preset", preset, "--seed", str(number + 1),
                "--agents", spec, "--log", str(log), "--agent-option", "retry_delay=0",
                env=env, timeout=600,
            )  # fmt: skip
            echoed = server.stats["echoed"]
        tally.check(run.code == 0, f"play {agent} {preset}: exit {run.code} {run.err[-200:]!r}")
        tally.check(echoed > 20, f"the stub echoed the key in disguise ({echoed} replies)")
        said = _readable(_decoded(run.text), forms)
        tally.check(not said, f"play {agent} {preset}: output shows {said}")
    with web_server(duskfall, logs) as port:
        for log in sorted(logs.glob("*.jsonl")):
            number = int(log.name.split("-")[0])
            game_id = json.loads(log.read_text().split("\n", 1)[0])["game_id"]
            looked_for = games[number][3]
            text = _decoded(log.read_text())
            tally.check(SAID in text or halves(KEY)[0] in text, f"{log.name}: words recorded")
            shown = _readable(text, looked_for)
            tally.check(not shown, f"{log.name}: the log shows the key {shown}")
            run = duskfall.run("replay", str(log), timeout=300)  # a shell without the key
            shown = _readable(run.text, looked_for)
            tally.check(run.code == 0 and not shown, f"{log.name}: replay shows {shown}")
            status, body = http_get(port, f"/api/games/{game_id}?seat=-1", token=None)
            shown = _readable(_decoded(body), looked_for)
            tally.check(status == 200 and not shown, f"{log.name}: public view {status} {shown}")
