"""Marks on players (deaths and causes, the badge, checks, potions), ballots, names, the seat's
card, and the statistics over the index."""

from __future__ import annotations

from pathlib import Path

from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.core.stats import Proportion
from duskfall.core.variant import parse_config
from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow, SeatRow
from duskfall.web import present
from duskfall.web.stats import seat_results, statistics

SPECTATOR = get_variant("werewolf").info.spectator


def marks(event: Event) -> list[dict[str, object]]:
    return present.marks(SPECTATOR, event)


def knowledge(observation: dict[str, object]) -> dict[str, object]:
    return SPECTATOR.seat_card(observation).to_dict()


def test_werewolf_marks() -> None:
    night = Event(
        "night_resolved",
        {"deaths": [{"seat": 3, "cause": "wolves"}, {"seat": 1, "cause": "poison"}]},
        "admin", day=2, phase="NIGHT",
    )  # fmt: skip
    assert [m["text"] for m in marks(night)] == [
        "killed by the wolves, night 2",
        "poisoned by the witch, night 2",
    ]
    check = Event("seer_action", {"seat": 2, "target": 5, "result": "Werewolf"}, day=1)
    assert marks(check) == [{"seat": 5, "mark": "checked", "text": "checked: Werewolf, night 1"}]
    badge = Event("sheriff_elected", {"seat": 2, "reason": "elected"})
    assert marks(badge)[0]["mark"] == "badge"
    assert marks(Event("deaths", {"seats": "odd"})) == []


def test_names_from_either_shape() -> None:
    assert present.names(SPECTATOR, Event("game_start", {"players": ["Ada", "Bram"]})) == {
        0: "Ada",
        1: "Bram",
    }
    setup = Event("setup", {"players": [{"seat": 1, "name": "Bruno"}]})
    assert present.names(SPECTATOR, setup) == {1: "Bruno"}


def test_the_seat_card_is_plain_words() -> None:
    card = knowledge(
        {
            "seat": 1, "name": "Bram", "role": "Witch", "team": "village", "alive": True,
            "players": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bram"}],
            "antidote": True, "poison": False, "attacked_tonight": 0, "sheriff": 1,
        }
    )  # fmt: skip
    assert card["headline"] == "You are Bram (seat 1), the Witch"
    assert isinstance(card["lines"], list)
    assert "Antidote: left" in card["lines"] and "Poison: used" in card["lines"]
    assert "The wolves attacked Ada (seat 0) tonight" in card["lines"]
    assert "You hold the sheriff's badge" in card["lines"]
    wolf = knowledge({"seat": 4, "role": "Werewolf", "wolves": [4, 5], "checks": []})
    assert "Your teammates: seat 5" in wolf["lines"]  # type: ignore[operator]


def test_statistics_count_finished_games_and_say_how_many_aborted_were_left_out(
    tmp_path: Path,
) -> None:
    db = tmp_path / "index.db"
    seats = (SeatRow(0, "heuristic"), SeatRow(1, "random"))
    rows = [
        GameRow(f"g{i}", "werewolf", {"preset": "werewolf-6"}, i, seats, "finished",
                winner="village" if i % 3 else None, days=2, cost_usd=0.5, prompt_tokens=10,
                cached_tokens=4, completion_tokens=2)
        for i in range(9)
    ]  # fmt: skip
    stopped = [GameRow(f"stopped{i}", "werewolf", {"preset": "werewolf-6"}, 50 + i, seats,
                       "aborted", termination="aborted", days=1) for i in range(4)]  # fmt: skip
    with GameIndex(db) as index:
        index.add_rows([*rows, *stopped])
    stats = statistics(db)
    assert (stats["games"], stats["simulated"], stats["aborted"]) == (9, 9, 4)
    variant = next(g for g in stats["groups"] if g["by"] == "variant")
    assert (variant["games"], variant["aborted"]) == (9, 4)  # left out, and said so
    village = next(r for r in variant["rates"] if r["result"] == "village")
    draw = next(r for r in variant["rates"] if r["result"] == "draw")
    assert village["text"] == str(Proportion(6, 9)) and draw["text"] == str(Proportion(3, 9))
    assert variant["mean_days"] == 2.0
    assert variant["tokens"] == {
        "cached": 36, "uncached": 54, "completion": 18, "per_game": 12.0, "per_seat": 6.0,
    }  # fmt: skip
    assert variant["cost_per_seat"] == 0.25
    assert {g["by"] for g in stats["groups"]} == {"variant", "preset", "agents"}
    roles = [g for g in stats["seat_groups"] if g["by"] == "role"]
    assert sum(g["seats"] for g in roles) == 18 and {g["key"] for g in roles} <= {
        "Villager", "Seer", "Witch", "Werewolf",
    }  # fmt: skip
    state = get_variant("werewolf").new_game(
        parse_config(get_variant("werewolf"), {"preset": "werewolf-6"}), 1
    )
    won = [state.team_of(s) == "village" for s in (0, 1)]  # game g1: the village won
    assert seat_results(rows[1]) == [
        ("werewolf", state.roles()[0], "heuristic", won[0]),
        ("werewolf", state.roles()[1], "random", won[1]),
    ]
    assert statistics(None) == {
        "games": 0, "simulated": 0, "aborted": 0, "groups": [], "seat_groups": [],
    }  # fmt: skip


def test_statistics_mask_secrets_in_agent_specs(tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    agent = "llm:openai:m@http://user:hunter2@models.example"
    row = GameRow("g", "mafia", {}, 1, (SeatRow(0, agent),), "finished", winner="town")
    with GameIndex(db) as index:
        index.add_rows([row])
    keys = [g["key"] for g in statistics(db)["groups"] if g["by"] == "agents"]
    assert keys and "hunter2" not in keys[0]
