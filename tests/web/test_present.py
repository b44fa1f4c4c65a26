"""Event presentation: plain lines, scopes, votes and reveals from any payload shape."""

from __future__ import annotations

from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.web import present


def test_variant_markup_is_stripped() -> None:
    variant = get_variant("sports-mafia")
    event = Event("PLAYER_ELIMINATED", {"player_id": 4}, day=2, phase="VOTING")
    assert present.event_line(variant, "sports-mafia", event) == "player 4 is eliminated"
    assert present.plain("[bold]Day 1[/] starts") == "Day 1 starts"
    assert present.plain("a [broken markup") == "a [broken markup"


def test_lines_for_runtime_and_unknown_events() -> None:
    thought = Event("thought", {"seat": 2, "text": "5 is lying"}, "admin", source="runtime")
    assert present.event_line(None, "x", thought) == "seat 2 thinks: 5 is lying"
    speech = Event("day_speech", {"seat": 1, "text": "hello"})
    assert present.event_line(None, "x", speech) == "seat 1: hello"
    odd = Event("COMET", {"size": 3})
    assert present.event_line(None, "x", odd) == "COMET: size 3"
    broken = Event("thought", {"no": "seat"}, source="runtime")
    assert present.event_line(None, "x", broken).startswith("thought:")
    call = Event("llm_call", {"seat": 0, "model": "m", "prompt_tokens": 5, "cost_usd": 0.5})
    assert "5+0 tokens" in present.event_line(None, "x", call)
    cached = Event("llm_call", {"seat": 0, "prompt_tokens": 50, "cached_tokens": 40})
    assert "50 (40 cached)+0 tokens" in present.event_line(None, "x", cached)


def test_scopes() -> None:
    assert present.scope(Event("a")) == "public"
    assert present.scope(Event("a", visibility="admin")) == "admin"
    assert present.scope(Event("a", visibility="team:wolves")) == "private"
    assert present.scope(Event("a", visibility="seats:1")) == "private"


def test_vote_shapes() -> None:
    mapping = Event("VOTES", {"votes": {"1": 5, "2": -1}})
    assert present.vote_casts(mapping) == [(1, 5), (2, None)]
    listed = Event(
        "vote_result", {"votes": [{"seat": 0, "target": 3}, {"seat": 1, "target": None}]}
    )
    assert present.vote_casts(listed) == [(0, 3), (1, None)]
    single = Event("team_vote", {"seat": 4, "target": 2})
    assert present.vote_casts(single) == [(4, 2)]
    assert present.vote_casts(Event("speech", {"seat": 1, "target": 2})) is None


def test_reveals() -> None:
    assert present.revealed_roles("x", Event("role_assigned", {"seat": 3, "role": "seer"})) == {
        3: "seer"
    }
    dealt = Event("ROLES_DEALT", {"roles": ["A", "B"]})
    assert present.revealed_roles("x", dealt) == {0: "A", 1: "B"}
    team = Event("MAFIA_TEAM", {"members": [1, 2], "don": 2})
    assert present.revealed_roles("sports-mafia", team) == {1: "MAFIA", 2: "DON"}
    assert present.revealed_roles("sports-mafia", Event("MAFIA_TEAM", {})) == {}


def test_reveals_of_other_shapes() -> None:
    mine = Event("role", {"seat": 3, "roles": ["MAFIA"], "team": "mafia"})
    assert present.revealed_roles("mafia", mine) == {3: "MAFIA"}
    dawn = Event("dawn", {"deaths": [{"seat": 7, "name": "Hiro", "roles": ["DOCTOR"]}]})
    assert present.revealed_roles("mafia", dawn) == {7: "DOCTOR"}
    team = Event("team", {"channel": "mafia", "members": [3, 5]})
    assert present.revealed_roles("mafia", team) == {3: "mafia", 5: "mafia"}
    wolves = Event("wolf_team", {"wolves": [1, 7]})
    assert present.revealed_roles("werewolf", wolves) == {1: "Werewolf", 7: "Werewolf"}
    assert present.revealed_roles("x", Event("deaths", {"seats": [1, 3]})) == {}


def test_werewolf_lines_name_the_players_as_their_prompts_do() -> None:
    variant = get_variant("werewolf")
    vote = Event("vote", {"seat": 0, "target": 2, "weight": 1.5, "sub_phase": "VOTE"})
    names = {0: "Ada", 1: "Bram", 2: "Cleo"}
    assert present.event_line(variant, "werewolf", vote, names).startswith(
        "seat 0 (Ada) votes for seat 2 (Cleo)"
    )
    assert present.event_line(variant, "werewolf", vote).startswith("seat 0 votes for seat 2")


def test_gm_audit_lines_tell_breaks_from_what_was_not_checked() -> None:
    broke = Event("gm_audit", {"step": 4, "rule": "second_exile", "detail": "2 exiled"}, "admin")
    assert present.event_line(None, "gm", broke) == (
        "audit, step 4: the GM broke second_exile (2 exiled)"
    )
    note = Event("gm_audit", {"step": 5, "rule": "unmapped", "detail": "no target"}, "admin")
    assert present.event_line(None, "gm", note) == "audit, step 5: not checked (no target)"
