"""A variant from outside duskfall: written in a package of its own, registered through the
``duskfall.variants`` entry-point group (no edit of duskfall), checked by duskfall.testing's kit
and played from the command line; through what its ``VariantInfo`` declares (spectator, facts,
learning encoder) it gets the web's god view with its own lines, ballots and marks, tournament
behaviour metrics and a PettingZoo environment.

The package is the canonical skeleton of docs/contributing.md for a tiny 3-seat game,
"odd-one-out": one seat is secretly the odd one; each day every seat votes for another at the
same time; two votes on the odd one and the pair wins, two on a pair seat and the odd one wins,
a three-way split and the next day begins, until the day limit (a draw).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import duskfall
from duskfall.core.registry import get_variant, variant_ids
from duskfall.testing import VariantKit
from duskfall.testing.require import require

PACKAGE = "odd_one_out"
VARIANT_ID = "odd-one-out"

SOURCES = {
    "__init__.py": '''
        """Odd one out: a 3-seat social-deduction game."""

        from odd_one_out.variant import VARIANT

        __all__ = ["VARIANT"]
    ''',
    "config.py": """
        from pydantic import BaseModel, ConfigDict, Field


        class OddConfig(BaseModel):
            model_config = ConfigDict(extra="forbid", frozen=True)

            day_limit: int = Field(3, ge=1)
    """,
    "actions.py": """
        from dataclasses import dataclass
        from typing import Any


        @dataclass(frozen=True, slots=True)
        class Vote:
            target: int

            def to_dict(self) -> dict[str, Any]:
                return {"type": "VOTE", "target": self.target}
    """,
    "legal.py": """
        import random
        from collections.abc import Mapping
        from dataclasses import dataclass
        from typing import Any

        from duskfall.core import IllegalAction

        from odd_one_out.actions import Vote


        @dataclass(frozen=True, slots=True)
        class VoteChoice:
            kind: str
            targets: tuple[int, ...]

            def parse(self, data: Any) -> Vote:
                if isinstance(data, Vote):
                    data = data.to_dict()
                if not isinstance(data, Mapping):
                    raise IllegalAction('answer {"type": "VOTE", "target": SEAT}', "bad_format")
                if data.get("type", "VOTE") != "VOTE":
                    raise IllegalAction("this decision takes VOTE", "invalid_action")
                target = data.get("target")
                if isinstance(target, bool) or target not in self.targets:
                    hint = f"vote for one of seats {list(self.targets)}"
                    raise IllegalAction(hint, "invalid_target")
                return Vote(target)

            def default(self, rng: random.Random) -> Vote:
                return Vote(rng.choice(self.targets))

            def sample(self, rng: random.Random) -> Vote:
                return Vote(rng.choice(self.targets))

            def to_wire(self) -> dict[str, Any]:
                return {"vote": list(self.targets)}

            def schema(self) -> dict[str, Any]:
                return {
                    "type": "object",
                    "properties": {
                        "type": {"const": "VOTE"},
                        "target": {"type": "integer", "enum": list(self.targets)},
                    },
                    "required": ["type", "target"],
                }

            def describe(self) -> str:
                return "VOTE for one of seats " + ", ".join(map(str, self.targets))
    """,
    "rules.py": """
        from typing import Any

        from duskfall.core import (
            ADMIN, PUBLIC, Decision, Event, IllegalAction, Outcome, Termination, derive_rng,
            seats_visibility,
        )

        from odd_one_out.config import OddConfig
        from odd_one_out.legal import VoteChoice

        ODD, PAIR = "odd", "pair"
        SEATS = 3


        class OddState:
            variant_id = "odd-one-out"
            num_seats = SEATS

            def __init__(self, config: OddConfig, seed: int) -> None:
                self.config = config
                self.odd = derive_rng(seed, "deal").randrange(SEATS)
                self.day = 1
                self.phase = "DAY"
                self.votes: dict[int, int] = {}
                self.past_votes: list[dict[str, int]] = []
                self.eliminated: int | None = None
                self.result: Outcome | None = None

            def _event(self, kind: str, payload: dict[str, Any], visibility: str) -> Event:
                return Event(kind, payload, visibility, day=self.day, phase=self.phase)

            def opening_events(self) -> list[Event]:
                roles = [self.team_of(s) for s in range(SEATS)]
                return [self._event("ROLES_DEALT", {"roles": roles}, ADMIN)] + [
                    self._event("ROLE", {"seat": s, "role": roles[s]}, seats_visibility([s]))
                    for s in range(SEATS)
                ]

            def pending(self) -> list[Decision]:
                if self.result is not None:
                    return []
                return [Decision(s, "VOTE") for s in range(SEATS) if s not in self.votes]

            def legal(self, seat: int) -> VoteChoice:
                if seat not in {d.seat for d in self.pending()}:
                    raise IllegalAction("it is not your turn", "not_your_turn")
                return VoteChoice("VOTE", tuple(t for t in range(SEATS) if t != seat))

            def apply(self, seat: int, action: Any) -> list[Event]:
                self.votes[seat] = self.legal(seat).parse(action).target
                events = [self._event("VOTE_CAST", {"seat": seat}, PUBLIC)]
                if len(self.votes) == SEATS:
                    events.extend(self._resolve())
                return events

            def apply_all(self, actions: dict[int, Any]) -> list[Event]:
                return [e for seat in sorted(actions) for e in self.apply(seat, actions[seat])]

            def _resolve(self) -> list[Event]:
                votes = {str(s): t for s, t in sorted(self.votes.items())}
                self.past_votes.append(votes)
                events = [self._event("VOTES", {"votes": votes}, PUBLIC)]
                self.votes = {}
                counts = [list(votes.values()).count(s) for s in range(SEATS)]
                if max(counts) >= 2:
                    self.eliminated = counts.index(max(counts))
                    winner = PAIR if self.eliminated == self.odd else ODD
                    self.result = Outcome(winner, Termination.WIN, f"seat {self.eliminated} out")
                    events.append(self._event("ELIMINATED", {"seat": self.eliminated}, PUBLIC))
                elif self.day >= self.config.day_limit:
                    self.result = Outcome(None, Termination.DAY_LIMIT, "day limit")
                else:
                    self.day += 1
                    events.append(self._event("DAY_STARTED", {"day": self.day}, PUBLIC))
                return events

            def observe(self, seat: int) -> dict[str, Any]:
                from odd_one_out.view import observe

                return dict(observe(self, seat))

            def outcome(self) -> Outcome | None:
                return self.result

            def channels(self, seat: int) -> frozenset[str]:
                return frozenset()

            def roles(self) -> dict[int, str]:
                return {s: self.team_of(s) for s in range(SEATS)}

            def team_of(self, seat: int) -> str:
                return ODD if seat == self.odd else PAIR

            def alive(self) -> list[int]:
                return [s for s in range(SEATS) if s != self.eliminated]
    """,
    "view.py": """
        from typing import TypedDict

        from odd_one_out.rules import OddState


        class OddObservation(TypedDict):
            seat: int
            role: str
            day: int
            day_limit: int
            my_vote: int | None
            past_votes: list[dict[str, int]]


        def observe(state: OddState, seat: int) -> OddObservation:
            return {
                "seat": seat,
                "role": state.team_of(seat),
                "day": state.day,
                "day_limit": state.config.day_limit,
                "my_vote": state.votes.get(seat),
                "past_votes": [dict(day) for day in state.past_votes],
            }
    """,
    "prompts.py": """
        from collections.abc import Mapping
        from typing import Any

        from duskfall.core import LegalActions

        RULES = (
            "You play odd one out with two other players. One of the three is secretly the odd "
            "one; the other two are the pair. Each day all vote at once for another player: two "
            "votes on the odd one and the pair wins, two on a pair player and the odd one wins."
        )


        def render_view(observation: Mapping[str, Any]) -> str:
            return (
                f"day {observation['day']} of {observation['day_limit']}; you are seat "
                f"{observation['seat']} ({observation['role']}); votes so far: "
                f"{observation['past_votes'] or 'none'}"
            )


        def render_prompts(
            observation: Mapping[str, Any], legal: LegalActions, hint: str | None
        ) -> tuple[str, str]:
            system = f"{RULES} You are seat {observation['seat']}, {observation['role']}."
            user = f"{render_view(observation)}\\n{legal.describe()}"
            if hint:
                user += f"\\n{hint}"
            return system, user + '\\nAnswer {"type": "VOTE", "target": SEAT}.'
    """,
    "bots.py": """
        from collections import Counter
        from collections.abc import Mapping
        from typing import Any

        from duskfall.core import Bot, LegalActions


        class RandomBot(Bot):
            name = "random"

            def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
                return legal.sample(self.rng)


        class HeuristicBot(Bot):
            name = "heuristic"

            def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
                # vote with the crowd: the seat most voted for so far, if it is a choice
                counts = Counter(t for day in observation["past_votes"] for t in day.values())
                for target, _ in counts.most_common():
                    if target != observation["seat"]:
                        return legal.parse({"type": "VOTE", "target": target})
                return legal.sample(self.rng)
    """,
    "wire.py": """
        from collections.abc import Mapping
        from typing import Any

        from duskfall.core import LegalActions

        from odd_one_out.legal import VoteChoice


        class OddWire:
            def legal_state(self, legal: LegalActions) -> dict[str, Any] | None:
                return None

            def legal_from_wire(
                self,
                phase: str,
                valid_actions: Mapping[str, Any],
                legal_state: Mapping[str, Any] | None,
            ) -> VoteChoice:
                targets = valid_actions.get("vote")
                if phase != "VOTE" or not isinstance(targets, list):
                    raise ValueError(f"not an odd-one-out request: {phase} {valid_actions}")
                return VoteChoice("VOTE", tuple(int(t) for t in targets))


        WIRE = OddWire()
    """,
    "testing.py": """
        import copy
        import random

        from odd_one_out.rules import SEATS, OddState


        def scramble_hidden(state: OddState, seat: int, rng: random.Random) -> OddState:
            # who the odd one is (unless it is this seat) and the others' votes of today
            other = copy.deepcopy(state)
            if seat != state.odd:
                other.odd = rng.choice([s for s in range(SEATS) if s != seat])
            for voter in other.votes:
                if voter != seat:
                    other.votes[voter] = rng.choice([s for s in range(SEATS) if s != voter])
            return other
    """,
    "spectator.py": """
        from collections.abc import Mapping
        from typing import Any

        from duskfall.core import Event
        from duskfall.core.spectator import Ballot, SeatCard, Spectator, card, mark

        from odd_one_out.facts import FACTS


        class OddSpectator(Spectator):
            def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
                if event.kind == "VOTES":
                    votes = event.payload["votes"].items()
                    casts = ", ".join(f"{v} points at {t}" for v, t in votes)
                    return f"day {event.day}, fingers point: {casts}"
                return None

            def marks(self, event: Event) -> list[dict[str, Any]]:
                if event.kind == "ELIMINATED":
                    return mark(event.payload["seat"], "exiled", f"pointed out, day {event.day}")
                return []

            def ballot(self, event: Event) -> Ballot | None:
                return FACTS.ballot(event)

            def seat_card(self, observation: Mapping[str, Any]) -> SeatCard:
                limit = observation["day_limit"]
                return card(observation, (), lambda name: [f"Day limit: {limit}"])


        SPECTATOR = OddSpectator()
    """,
    "facts.py": """
        from collections.abc import Mapping
        from typing import Any

        from duskfall.core import Event
        from duskfall.core.facts import GameFacts, SeatFacts
        from duskfall.core.spectator import Ballot


        class OddFacts(GameFacts):
            def ballot(self, event: Event) -> Ballot | None:
                if event.kind != "VOTES":
                    return None
                votes = event.payload["votes"]
                casts = tuple((int(v), int(t), 1.0) for v, t in votes.items())
                return Ballot("pointing", casts, exile=True)

            def mode(self, kind: str) -> str:
                return "vote" if kind == "VOTE" else "other"

            def seat(self, observation: Mapping[str, Any]) -> SeatFacts:
                role = str(observation["role"])
                return SeatFacts(role, role, role == "odd", observation["day"], "DAY", (0, 1, 2),
                                 (0, 1, 2))


        FACTS = OddFacts()
    """,
    "encoder.py": """
        from collections.abc import Mapping
        from typing import Any

        import numpy as np
        from duskfall.core.encoding import Features, Menu, none_only, target_mask

        class OddEncoder:
            def __init__(self, seats: int, seat: int) -> None:
                self.menu = Menu(seats)
                self.seat = seat
                self.seats = seats
                self.size = 2 * seats + 2

            def features(self, obs: Mapping[str, Any]) -> np.ndarray:
                f = Features(self.size)
                f.one_hot(self.seat, self.seats)
                f.scalar(1.0 if obs["role"] == "odd" else 0.0)
                f.scalar(obs["day"] / obs["day_limit"])
                pointed = [0.0] * self.seats
                for day in obs["past_votes"]:
                    for target in day.values():
                        pointed[target] += 1 / (self.seats * obs["day_limit"])
                f.values(pointed, self.seats)
                return f.done()

            def mask(self, legal: Any, obs: Mapping[str, Any]) -> np.ndarray:
                targets = getattr(legal, "targets", None)
                if targets is None:
                    return none_only(self.menu)
                return target_mask(self.menu, targets, False)

            def action(self, legal: Any, obs: Mapping[str, Any], index: int) -> Any:
                slot, seat = self.menu.read(index)
                return {"type": "VOTE", "target": seat}
    """,
    "variant.py": """
        from collections.abc import Mapping
        from typing import Any

        from duskfall.core import Event, LegalActions, VariantInfo
        from duskfall.core.learning import Learning, SeatEncoder
        from pydantic import BaseModel

        from odd_one_out import prompts
        from odd_one_out.bots import HeuristicBot, RandomBot
        from odd_one_out.config import OddConfig
        from odd_one_out.facts import FACTS
        from odd_one_out.rules import ODD, PAIR, OddState
        from odd_one_out.spectator import SPECTATOR
        from odd_one_out.testing import scramble_hidden
        from odd_one_out.wire import WIRE


        def encoder(seats: int, seat: int) -> SeatEncoder:
            from odd_one_out.encoder import OddEncoder  # numpy, only when learning

            return OddEncoder(seats, seat)


        class OddOneOut:
            id = "odd-one-out"
            name = "Odd one out (3 seats)"
            teams = (PAIR, ODD)
            team_aliases: Mapping[str, str] = {"pair": PAIR, "odd": ODD}
            config_model: type[BaseModel] = OddConfig
            info = VariantInfo(
                render_view=prompts.render_view,
                scramble_hidden=scramble_hidden,
                wire=WIRE,
                spectator=SPECTATOR,
                facts=FACTS,
                learning=Learning(encoder),
            )

            def new_game(self, config: BaseModel, seed: int) -> OddState:
                assert isinstance(config, OddConfig)
                return OddState(config, seed)

            def render_prompts(
                self, observation: Mapping[str, Any], legal: LegalActions, hint: str | None
            ) -> tuple[str, str]:
                return prompts.render_prompts(observation, legal, hint)

            def format_event(self, event: Event) -> str | None:
                p = event.payload
                lines = {
                    "VOTES": lambda: f"votes: {p['votes']}",
                    "ELIMINATED": lambda: f"seat {p['seat']} is out",
                    "DAY_STARTED": lambda: f"Day {p['day']}",
                }
                line = lines.get(event.kind)
                return line() if line else None

            def bots(self) -> Mapping[str, Any]:
                return {"random": RandomBot, "heuristic": HeuristicBot}


        VARIANT = OddOneOut()
    """,
}


def write_package(site: Path) -> None:
    """The package and its installed metadata (what ``pip install`` would leave) in ``site``."""
    package = site / PACKAGE
    package.mkdir(parents=True)
    for name, source in SOURCES.items():
        (package / name).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    dist_info = site / f"{PACKAGE}-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: odd-one-out\nVersion: 0.1\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text(
        f"[duskfall.variants]\n{VARIANT_ID} = {PACKAGE}:VARIANT\n", encoding="utf-8"
    )


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The outside package, installed in a directory on sys.path for this test only."""
    root = tmp_path / "site"
    write_package(root)
    monkeypatch.syspath_prepend(str(root))
    yield root
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


def test_the_entry_point_registers_the_variant(site: Path) -> None:
    assert VARIANT_ID in variant_ids()
    variant = get_variant(VARIANT_ID)
    assert variant.id == VARIANT_ID and variant.info.scramble_hidden is not None
    imports = "".join(SOURCES.values())
    assert "duskfall." in imports
    assert all(
        line.split()[1].startswith(("duskfall.core", PACKAGE))
        for line in imports.splitlines()
        if line.strip().startswith("from duskfall") or line.strip().startswith("import duskfall")
    ), "the outside variant imports only duskfall.core"


def test_the_kit_passes_on_the_outside_variant(site: Path, tmp_path: Path) -> None:
    kit = VariantKit(VARIANT_ID, configs=[{}, {"day_limit": 1}], playouts=300, leak_games=20)
    kit.check_all(tmp_path)
    golden = tmp_path / "golden" / "odd-one-out.json"
    kit.write_golden(golden, seeds=20)
    kit.check_golden(golden)


def test_the_kit_catches_a_leak(site: Path) -> None:
    """The no-leak check fails when the view shows what the seat may not know."""
    import odd_one_out.view as view

    honest = view.observe

    def leaky(state: object, seat: int) -> object:
        return {**honest(state, seat), "odd": state.odd}  # type: ignore[attr-defined]

    view.observe = leaky
    try:
        with pytest.raises(AssertionError, match="depends on hidden information"):
            VariantKit(VARIANT_ID, leak_games=5).check_no_leak()
    finally:
        view.observe = honest


@pytest.mark.subprocess
def test_duskfall_play_runs_the_outside_variant(site: Path, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    paths = [str(site), str(Path(duskfall.__file__).parent.parent)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]),
        "DUSKFALL_DB": str(tmp_path / "index.db"),
    }
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "duskfall",
            "play",
            "-v",
            VARIANT_ID,
            "--seed",
            "3",
            "--log",
            str(log),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "Odd one out" in played.stdout and ("wins" in played.stdout or "Draw" in played.stdout)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["variant"] == VARIANT_ID
    assert lines[-1]["type"] == "end"  # the log carries its own end
    assert not [e for e in lines[1:-1] if e.get("kind") in ("fallback", "participant_error")]
    replayed = subprocess.run(
        [sys.executable, "-m", "duskfall", "replay", str(log)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "replay verified" in replayed.stdout


def play_logged(games_dir: Path, seed: int, agents: str = "heuristic") -> str:
    """A finished, logged game of the outside variant; its id."""
    from concurrent.futures import ThreadPoolExecutor

    from duskfall.session import GameSetup, run_game

    game_id = f"{VARIANT_ID}-test-{seed}"
    setup = GameSetup(
        VARIANT_ID,
        seed=seed,
        agents=agents,
        game_id=game_id,
        log_path=games_dir / f"{game_id}.jsonl",
    )
    with ThreadPoolExecutor(1) as pool:  # a loop of its own (the app's test client has one)
        pool.submit(asyncio.run, run_game(setup)).result()
    return game_id


def test_the_web_god_view_shows_its_own_lines_ballots_and_marks(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require("fastapi", "pip install 'duskfall[web]'")
    from fastapi.testclient import TestClient

    from duskfall.web.access import Access
    from duskfall.web.app import WebSettings, create_app

    db = tmp_path / "index.db"
    monkeypatch.setenv("DUSKFALL_DB", str(db))
    games = tmp_path / "games"
    games.mkdir()
    game_id = play_logged(games, seed=1)
    settings = WebSettings(
        games, db, Access("odd-one-out-admin-token"), allow_hosts=("testserver",)
    )
    with TestClient(create_app(settings)) as client:
        god = client.get(f"/api/games/{game_id}").json()
        seat = client.get(f"/api/games/{game_id}?seat=0").json()
    events = god["events"]
    votes = [e for e in events if e["kind"] == "VOTES"]
    assert votes and votes[0]["text"].startswith("day 1, fingers point: 0 points at")
    assert votes[0]["ballot"] == "pointing" and len(votes[0]["votes"]) == 3
    (out,) = [e for e in events if e["kind"] == "ELIMINATED"]
    assert out["marks"] == [
        {"seat": out["payload"]["seat"], "mark": "exiled", "text": f"pointed out, day {out['day']}"}
    ]
    roles = [e for e in events if e["kind"] == "ROLE"]
    assert all(e["reveals"] == {str(e["payload"]["seat"]): e["payload"]["role"]} for e in roles)
    assert [e["kind"] for e in seat["events"] if e["kind"] == "ROLE"] == ["ROLE"]  # its own


def test_a_tournament_of_it_reports_behaviour_metrics(site: Path, tmp_path: Path) -> None:
    from duskfall.arena.progress import tournament_progress
    from duskfall.arena.tournament import run_tournament
    from duskfall.arena.tournament_config import parse_tournament
    from duskfall.report.leaderboard import build_report
    from duskfall.store.index import GameIndex

    config = parse_tournament(
        {
            "name": "odd-board",
            "entrants": {"crowd": "heuristic", "dice": "random"},
            "variants": [{"variant": VARIANT_ID}],
            "games": 6,
            "seed": 5,
            "schedule": "mixed",
            "log_dir": "games",
        }
    )
    summary = run_tournament(config, base_dir=tmp_path, db=tmp_path / "index.db")
    assert summary.played == 6 and not summary.failed
    with GameIndex(tmp_path / "index.db") as index:
        report = build_report(tournament_progress(config, index), bootstrap=20)
    assert {e.name for e in report.entrants} == {"crowd", "dice"}
    for entrant in report.entrants:  # its ballots are exile votes: accuracy is measured
        assert entrant.metrics.exile_votes > 0 and entrant.metrics.vote_accuracy is not None


def test_a_pettingzoo_environment_of_it_passes_the_api_test(site: Path) -> None:
    require("pettingzoo", "pip install 'duskfall[learn]'")
    import numpy as np
    from pettingzoo.test import api_test

    from duskfall.learn.aec import DuskfallAEC

    api_test(DuskfallAEC(VARIANT_ID), num_cycles=60)
    env = DuskfallAEC(VARIANT_ID, opponents={2: "heuristic"})
    env.reset(seed=3)
    for agent in env.agent_iter(200):
        obs, _reward, done, cut, _ = env.last()
        assert obs["observation"].shape == (8,) and agent in ("seat_0", "seat_1")
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    assert set(env.rewards.values()) <= {-1, 0, 1}
