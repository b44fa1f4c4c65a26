"""Item 18: public lists at scale (issues 36 and 42), short.

An index of 30,000 games, 20,000 of them in two 10,000-game tournaments whose deals are over
(made as ``benchmarks/web_game_list.py`` makes its 100,000-game one), served by ``duskfall
web``: ``GET /api/games`` with each filter a user meets answers within a second and shows the
tournament games' seeds; a tournament's page answers at once (its board built in the
background) and the tournament list too. The full measurement, before and after, is
``benchmarks/web_game_list.py``.
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.parse

from hardening_probes import Background, Duskfall, Tally, http_get, web_server
from web_game_list import make_index

ITEM = 18
TITLE = "public lists at scale"
OUTSIDE = False
SECONDS = 1.0  # what "answers fast" means here, at the load of a shared 2-core machine
ASKS = ("", "tournament=t0", "agent=random", "limit=200&offset=2000", "tournament=t1&offset=9950")


def probe(duskfall: Duskfall, background: Background, tally: Tally) -> None:
    folder = duskfall.work / "listing"
    folder.mkdir()
    index = make_index(folder, 30_000, 2, 10_000)
    shutil.copy(index, duskfall.work / "index.db")
    games = duskfall.work / "listing-games"
    games.mkdir()
    with web_server(duskfall, games) as port:
        http_get(port, "/api/games")  # the server's first answer (imports, caches)
        for ask in ASKS:
            start = time.perf_counter()
            code, text = http_get(port, f"/api/games?{ask}", token=None)
            seconds = time.perf_counter() - start
            tally.check(
                code == 200 and seconds < SECONDS, f"/api/games?{ask}: {code} in {seconds:.2f} s"
            )
            if code == 200:
                listed = json.loads(text)["games"]
                tournament = [g for g in listed if g["tournament"]]
                tally.check(
                    all(g["seed"] is not None for g in tournament),
                    f"/api/games?{ask}: a tournament game of an ended deal without its seed",
                )
        start = time.perf_counter()
        code, text = http_get(port, "/tournaments/" + urllib.parse.quote("t0"), token=None)
        seconds = time.perf_counter() - start
        # this synthetic index has no logs: a board built in time says so rather than failing
        said = code == 500 and "log is missing or unreadable" in text
        tally.check(
            (code in (200, 202) or said) and seconds < 10,
            f"/tournaments/t0: {code} in {seconds:.1f} s",
        )
        start = time.perf_counter()
        code, _ = http_get(port, "/api/tournaments", token=None)
        tally.check(
            code == 200 and time.perf_counter() - start < SECONDS, f"/api/tournaments: {code}"
        )
