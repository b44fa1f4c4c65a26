"""``duskfall[web]`` without the ``arena`` extra: the app starts, game pages are served and the
tournament pages answer one line naming the extra (before, the app's import of the board
failed on numpy and ``duskfall web`` ended in a traceback).

The arena's packages are hidden from a child interpreter by an import hook, as if they were
not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import play_logged

pytestmark = [pytest.mark.subprocess]

CHILD = """
import importlib.abc, json, sys
from pathlib import Path

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {"numpy", "scipy", "matplotlib", "openskill"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
from fastapi.testclient import TestClient
from duskfall.web.app import WebSettings, create_app

games, db, game_id = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
answers = {}
settings = WebSettings(games_dir=games, db=db, allow_hosts=("testserver",))
with TestClient(create_app(settings)) as client:
    for url in ("/", "/api/games", f"/api/games/{game_id}", "/tournaments", "/api/tournaments"):
        reply = client.get(url)
        answers[url] = [reply.status_code, reply.text[:300]]
answers["numpy loaded"] = "numpy" in sys.modules
print(json.dumps(answers))
"""


def test_the_web_app_serves_games_and_names_the_extra_for_tournaments(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    game_id = play_logged(games, seed=4).stem
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(games), str(tmp_path / "index.db"), game_id],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answers = json.loads(done.stdout.splitlines()[-1])
    assert not answers.pop("numpy loaded")
    for url in ("/", "/api/games", f"/api/games/{game_id}"):
        assert answers[url][0] == 200, (url, answers[url])
    note = "tournament pages need the arena extra: pip install 'duskfall[arena]'"
    assert answers["/tournaments"] == [503, note + "\n"]
    assert answers["/api/tournaments"][0] == 503 and note in answers["/api/tournaments"][1]
