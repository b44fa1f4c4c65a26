"""Event presentation: plain lines, scopes, votes, reveals and marks, each read from the
variant's own spectator (none of it keyed by a variant in the web)."""

from __future__ import annotations

from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.core.spectator import DEFAULT, casts_of
from duskfall.variants.werewolf.witch import WitchChoice
from duskfall.web import present

WEREWOLF = get_variant("werewolf")
MAFIA = get_variant("mafia")
SPORTS = get_variant("sports-mafia")


def line(variant_id: str, event: Event, names: dict[int, str] | None = None) -> str:
    variant = (
        get_variant(variant_id) if variant_id in ("werewolf", "mafia", "sports-mafia") else None
    )
    return present.event_line(present.spectator_of(variant_id, variant), variant, event, names)


def test_variant_markup_is_stripped() -> None:
    event = Event("PLAYER_ELIMINATED", {"player_id": 4}, day=2, phase="VOTING")
    assert line("sports-mafia", event) == "seat 4 is voted out"  # the spectator's words
    assert present.plain("[bold]Day 1[/] starts") == "Day 1 starts"
    assert present.plain("a [broken markup") == "a [broken markup"


def test_lines_for_runtime_and_unknown_events() -> None:
    thought = Event("thought", {"seat": 2, "text": "5 is lying"}, "admin", source="runtime")
    assert line("x", thought) == "seat 2 thinks: 5 is lying"
    speech = Event("day_speech", {"seat": 1, "text": "hello"})
    assert line("x", speech) == "seat 1: hello"
    odd = Event("COMET", {"size": 3})
    assert line("x", odd) == "COMET: size 3"
    broken = Event("thought", {"no": "seat"}, source="runtime")
    assert line("x", broken).startswith("thought:")
    call = Event("llm_call", {"seat": 0, "model": "m", "prompt_tokens": 5, "cost_usd": 0.5})
    assert "5+0 tokens" in line("x", call)
    cached = Event("llm_call", {"seat": 0, "prompt_tokens": 50, "cached_tokens": 40})
    assert "50 (40 cached)+0 tokens" in line("x", cached)


def test_a_variant_words_its_own_actions() -> None:
    action = {"type": "DECLARATION", "declaration": [0, -3] + [0] * 8, "nomination": 1}
    event = Event("action", {"seat": 0, "action": action}, "admin", source="runtime")
    assert line("sports-mafia", event) == (
        "seat 0 acts: declaration: calls seat 1 black -3; nominates seat 1"
    )
    vote = Event("action", {"seat": 0, "action": {"type": "VOTE", "target": 3}}, "admin")
    assert line("werewolf", vote) == "seat 0 acts: vote: seat 3"


def test_scopes() -> None:
    assert present.scope(Event("a")) == "public"
    assert present.scope(Event("a", visibility="admin")) == "admin"
    assert present.scope(Event("a", visibility="team:wolves")) == "private"
    assert present.scope(Event("a", visibility="seats:1")) == "private"


def test_vote_shapes() -> None:
    mapping = Event("VOTES", {"votes": {"1": 5, "2": -1, "3": True}})
    assert casts_of(mapping) == [(1, 5, 1.0), (2, None, 1.0), (3, None, 1.0)]
    listed = Event(
        "vote_result", {"votes": [{"seat": 0, "target": 3}, {"seat": 1, "target": None}]}
    )
    assert casts_of(listed) == [(0, 3, 1.0), (1, None, 1.0)]
    single = Event("team_vote", {"seat": 4, "target": 2, "weight": 1.5})
    assert casts_of(single) == [(4, 2, 1.5)]
    assert casts_of(Event("speech", {"seat": 1, "target": 2})) is None


def test_ballots_are_named_by_the_variant() -> None:
    badge = Event("vote", {"seat": 2, "target": 4, "weight": 1.0, "sub_phase": "BADGE_VOTE"})
    exile = Event("vote", {"seat": 2, "target": 5, "weight": 1.5, "sub_phase": "VOTE"})
    spectator = WEREWOLF.info.spectator
    sheriff, out = present.ballot(spectator, badge), present.ballot(spectator, exile)
    assert sheriff is not None and sheriff.name == "sheriff election" and not sheriff.exile
    assert out is not None and out.name == "exile vote" and out.exile
    assert out.casts == ((2, 5, 1.5),)
    second = present.ballot(SPORTS.info.spectator, Event("VOTES", {"round": 1, "votes": {"0": 1}}))
    assert second is not None and second.name == "exile vote (round 2)"
    doctors = Event("team_vote", {"channel": "doctors", "seat": 1, "target": 3})
    ballot = present.ballot(MAFIA.info.spectator, doctors)
    assert ballot is not None and ballot.name == "doctors' protection"
    assert present.ballot(DEFAULT, exile) is None  # a variant that declares no ballots


def test_reveals() -> None:
    assert present.reveals(DEFAULT, Event("role_assigned", {"seat": 3, "role": "seer"})) == {
        3: "seer"
    }
    dealt = Event("ROLES_DEALT", {"roles": ["A", "B"]})
    assert present.reveals(SPORTS.info.spectator, dealt) == {0: "A", 1: "B"}
    team = Event("MAFIA_TEAM", {"members": [1, 2], "don": 2})
    assert present.reveals(SPORTS.info.spectator, team) == {1: "MAFIA", 2: "DON"}
    assert present.reveals(SPORTS.info.spectator, Event("MAFIA_TEAM", {})) == {}


def test_reveals_of_other_shapes() -> None:
    spectator = MAFIA.info.spectator
    mine = Event("role", {"seat": 3, "roles": ["MAFIA"], "team": "mafia"})
    assert present.reveals(spectator, mine) == {3: "MAFIA"}
    dawn = Event("dawn", {"deaths": [{"seat": 7, "name": "Hiro", "roles": ["DOCTOR"]}]})
    assert present.reveals(spectator, dawn) == {7: "DOCTOR"}
    team = Event("team", {"channel": "mafia", "members": [3, 5]})
    assert present.reveals(spectator, team) == {}  # a channel is not a role: a mark
    assert present.marks(spectator, team) == [
        {"seat": 3, "mark": "channel", "text": "mafia"},
        {"seat": 5, "mark": "channel", "text": "mafia"},
    ]
    wolves = Event("wolf_team", {"wolves": [1, 7]})
    assert present.reveals(WEREWOLF.info.spectator, wolves) == {1: "Werewolf", 7: "Werewolf"}
    assert present.reveals(DEFAULT, Event("deaths", {"seats": [1, 3]})) == {}


def test_mafia_reveals_the_exiled_and_the_investigated_player_not_seat_0_or_the_sheriff() -> None:
    """Issue 30's first item: the role of an exiled player went on seat 0 and a check's
    result on the checker's own seat."""
    spectator = MAFIA.info.spectator
    exiled = Event("vote_result", {"eliminated": 5, "roles": ["MAFIA"], "votes": {"0": 5}})
    assert present.reveals(spectator, exiled) == {5: "MAFIA"}
    nobody = Event("vote_result", {"eliminated": None, "roles": None, "votes": {"0": None}})
    assert present.reveals(spectator, nobody) == {}
    check = Event("investigation", {"seat": 0, "target": 5, "roles": ["MAFIA"], "name": "Alice"})
    assert present.reveals(spectator, check) == {5: "MAFIA"}


def test_werewolf_lines_name_the_players_as_their_prompts_do() -> None:
    vote = Event("vote", {"seat": 0, "target": 2, "weight": 1.5, "sub_phase": "VOTE"})
    names = {0: "Ada", 1: "Bram", 2: "Cleo"}
    assert line("werewolf", vote, names).startswith("seat 0 (Ada) votes for seat 2 (Cleo)")
    assert line("werewolf", vote).startswith("seat 0 votes for seat 2")


def test_gm_audit_lines_tell_breaks_from_what_was_not_checked() -> None:
    broke = Event("gm_audit", {"step": 4, "rule": "second_exile", "detail": "2 exiled"}, "admin")
    assert line("gm", broke) == "audit, step 4: the GM broke second_exile (2 exiled)"
    note = Event("gm_audit", {"step": 5, "rule": "unmapped", "detail": "no target"}, "admin")
    assert line("gm", note) == "audit, step 5: not checked (no target)"


def test_sports_mafia_reads_for_people_not_the_wire() -> None:
    """Issue 42: "votes (round 0): 3->3", "tie between [3, 9]" and "sheriff? False"."""
    votes = Event("VOTES", {"round": 0, "votes": {"0": 3, "1": 3, "2": 9, "3": 3}}, day=1)
    assert (
        line("sports-mafia", votes)
        == "votes: 3 for seat 3 (seats 0, 1 and 3), 1 for seat 9 (seat 2)"
    )
    again = Event("VOTES", {"round": 2, "votes": {"0": True, "1": False}}, day=1)
    assert line("sports-mafia", again) == "re-vote: 1 for no (seat 1), 1 for yes (seat 0)"
    tie = Event("REVOTE_STARTED", {"tied": [3, 9]}, day=1)
    assert line("sports-mafia", tie) == "Seats 3 and 9 are tied: they vote again"
    card = SPORTS.info.spectator.seat_card(
        {"player_id": 8, "role": "DON", "private_info": {"don_checks": {"4": False}}}
    )
    assert any(text.endswith(": checked, not the sheriff") for text in card.lines), card.lines
    assert not any("?" in text or "False" in text for text in card.lines)


def test_the_witch_is_asked_in_plain_words() -> None:
    legal = WitchChoice(2, True, (0, 3), ("Ada", "Bo", "Cleo", "Dan"))
    question = WEREWOLF.info.spectator.question(legal)
    assert question is not None and "'" not in question and "poison N" not in question
    assert question.startswith("The wolves attacked Cleo (seat 2) tonight.")
